/**
 * A channel-service channel's timeline: its guide from the playout log (GET /channel/{id}/epg.json),
 * then items as the engine starts and appends them (the public event stream, kept open with a backoff:
 * event-stream.ts). Each time the stream (re)opens the guide is read again, so what aired while it was
 * closed is not lost and a channel opened right after it was made shows its first item as soon as the
 * engine has it. Slates and errors the engine reports are kept as well: a broken source is visible.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg } from './api';
import { keepEventStream, type StreamState } from './event-stream';
import { mergeProgrammes, type Programme, parseProgrammes, type WireProgramme } from './programmes';

/** One thing the engine said about the channel that a viewer should know (slate, error). */
export interface EngineNotice {
  type: string;
  time: number;
  text: string;
}

const NOTICES_KEPT = 10;
const GUIDE_POLL_MS = 500;

export function usePlayout(
  channelId: string,
  eventStreamUrl: string,
): { programmes: Programme[]; stream: StreamState; notices: EngineNotice[] } {
  const [programmes, setProgrammes] = useState<Programme[]>([]);
  const [stream, setStream] = useState<StreamState>({ kind: 'connecting' });
  const [notices, setNotices] = useState<EngineNotice[]>([]);
  useEffect(() => {
    // Until the guide has anything (a channel made a moment ago), it is read twice a second as well,
    // one read at a time.
    let empty = true;
    let reading = false;
    const readGuide = () =>
      call<{ programmes: WireProgramme[] }>(
        cfg().channelApi,
        `/channel/${encodeURIComponent(channelId)}/epg.json`,
      ).then(
        (epg) => {
          if (epg.programmes.length > 0) empty = false;
          setProgrammes((live) => mergeProgrammes(parseProgrammes(epg.programmes), live));
        },
        () => undefined, // the live events still fill the timeline
      );
    const onItem = ({ data }: { data: Record<string, unknown> }) => {
      const { title, uri, startMs, durationMs, kind } = data as {
        title?: string;
        uri?: string;
        startMs?: number;
        durationMs?: number;
        kind?: string;
      };
      if (startMs === undefined || durationMs === undefined) return;
      const p: Programme = {
        title: title ?? uri?.split('/').slice(-2, -1)[0] ?? 'item',
        start: startMs,
        stop: startMs + durationMs,
        type: kind ?? 'VOD',
      };
      setProgrammes((list) => mergeProgrammes(list, [p]));
    };
    const notice = (type: string, text: (d: Record<string, unknown>) => string) => ({
      [type]: (e: { time?: unknown; data: Record<string, unknown> }) =>
        setNotices((list) =>
          [...list, { type, time: Date.parse(String(e.time)) || Date.now(), text: text(e.data) }].slice(
            -NOTICES_KEPT,
          ),
        ),
    });
    const poll = setInterval(() => {
      if (!empty || reading) return;
      reading = true;
      void readGuide().finally(() => {
        reading = false;
      });
    }, GUIDE_POLL_MS);
    const close = keepEventStream(
      eventStreamUrl,
      {
        item_started: onItem,
        item_appended: onItem,
        ...notice('vod_error', (d) => String(d.message ?? d.code ?? 'the next item could not be played')),
        ...notice('slate_inserted', (d) =>
          d.reason === 'gap' ? 'slate: nothing scheduled' : 'slate: the source could not be played',
        ),
      },
      setStream,
      readGuide,
    );
    return () => {
      clearInterval(poll);
      close();
    };
  }, [channelId, eventStreamUrl]);
  return { programmes, stream, notices };
}
