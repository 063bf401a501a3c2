/**
 * docs/media.md: closed captions declared by a source or a channel reach the channel's master and
 * every variant, a WebHook answer's media shape shapes a channel that declares none, the master never
 * changes mid-life, and fMP4 and TS items mix with a discontinuity and the new EXT-X-MAP.
 */
import { describe, expect, it } from 'vitest';
import { decideHeader } from '../../engine-container/src/channel/header';
import { parseMasterPlaylist as parseSourceMaster } from '../../engine-container/src/hls/parse-master';
import { buildLadder } from '../../engine-container/src/ladder/output-ladder';
import { vodDraft } from '../../engine-container/src/playout/drafts';
import { computeWindow } from '../../engine-container/src/playout/window';
import { renderMasterPlaylist } from '../../engine-container/src/render/master-playlist';
import { renderMediaPlaylist } from '../../engine-container/src/render/media-playlist';
import type { Channel } from '../../engine-container/src/types';
import { buildParsedVod, type ParsedVod, referenceTrack } from '../../engine-container/src/vod/parsed-vod';
import { ladderOf, makeVod, TestLog } from '../engine/helpers/log';
import { parseMediaPlaylist } from '../support/hls-playlist';
import { checkPlaylist } from '../support/live-rules';

const ON = { useDemuxedAudio: true, useVTTSubtitles: true };
const channel: Channel = { id: 'c', name: 'c' };
const SOURCE = [
  '#EXTM3U',
  '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"',
  '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="es",NAME="Español",AUTOSELECT=YES,INSTREAM-ID="CC3"',
  '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CLOSED-CAPTIONS="cc1"',
  '360.m3u8',
].join('\n');

function captionedVod(): ParsedVod {
  const base = 'https://o.test/cc/master.m3u8';
  const master = parseSourceMaster(SOURCE, base);
  const segments = [{ uri: 'https://o.test/cc/0.ts', durationMs: 2000, discontinuity: false }];
  return buildParsedVod(
    base,
    master.variants.map((variant) => ({ variant, playlist: { segments } })),
    [],
    master.media.filter((m) => m.type === 'CLOSED-CAPTIONS'),
  );
}
const master = (ch: Channel, vod: ParsedVod) =>
  renderMasterPlaylist(ch, buildLadder(ch, vod, ON), { noSessionDataTags: true });

describe('closed captions', () => {
  it('passes the source CLOSED-CAPTIONS declarations to the channel master and every variant', () => {
    const text = master(channel, captionedVod());
    expect(text).toContain(
      '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"',
    );
    expect(text).toContain('LANGUAGE="es",NAME="Español",DEFAULT=NO,AUTOSELECT=YES,INSTREAM-ID="CC3"');
    expect(text).toContain('CLOSED-CAPTIONS="cc"\n0.m3u8');
    expect(text).not.toContain('CLOSED-CAPTIONS=NONE');
  });

  it('says CLOSED-CAPTIONS=NONE only over a source without captions', () => {
    const plain = makeVod('https://o.test/p/master.m3u8', [{ bandwidth: 1, segmentsMs: [2000] }]);
    expect(master(channel, plain)).toContain('CLOSED-CAPTIONS=NONE');
  });

  it('prefers the captions the channel declares over the source declarations', () => {
    const ch = { ...channel, closedCaptions: [{ lang: 'sv', name: 'Svenska', id: 'CC2' }] };
    const text = master(ch, captionedVod());
    expect(text.match(/TYPE=CLOSED-CAPTIONS/g)).toHaveLength(1);
    expect(text).toContain('LANGUAGE="sv",NAME="Svenska",DEFAULT=NO,AUTOSELECT=NO,INSTREAM-ID="CC2"');
  });

  it('keeps the master of a running channel when its declared captions change', () => {
    const ladder = buildLadder(channel, captionedVod(), ON);
    const before = renderMasterPlaylist(channel, ladder, { noSessionDataTags: true });
    const edited = { ...channel, closedCaptions: [{ lang: 'de', name: 'Deutsch', id: 'CC4' }] };
    expect(renderMasterPlaylist(edited, ladder, { noSessionDataTags: true })).toBe(before);
  });
});

describe('the media shape of a WebHook answer', () => {
  const vod = makeVod('https://o.test/w/master.m3u8', [{ bandwidth: 1, segmentsMs: [2000] }]);
  const planned = (media?: object) => [
    { draft: vodDraft(referenceTrack(vod), { kind: 'vod', id: 'a', title: '', uri: vod.uri }), vod, media },
  ];
  const config = { ...ON, forceTargetDuration: 4, targetDurationPadding: undefined };

  it('shapes a channel that declares nothing', () => {
    const header = decideHeader(
      channel,
      planned({
        subtitleTracks: [{ language: 'sv', name: 'Svenska' }],
        closedCaptions: [{ lang: 'en', name: 'CC', id: 'CC1' }],
      }),
      undefined,
      config,
    );
    expect(header.ladder.subtitles.map((s) => s.language)).toEqual(['sv']);
    expect(header.ladder.captions?.map((c) => c.instreamId)).toEqual(['CC1']);
  });

  it('leaves the fields the channel declares to the channel', () => {
    const ch = { ...channel, subtitleTracks: [{ language: 'fi', name: 'Suomi' }] };
    const header = decideHeader(
      ch,
      planned({ subtitleTracks: [{ language: 'sv', name: 'Svenska' }] }),
      undefined,
      config,
    );
    expect(header.ladder.subtitles.map((s) => s.language)).toEqual(['fi']);
  });
});

describe('a channel mixing fMP4 and TS items', () => {
  it('starts each item after a discontinuity with its own EXT-X-MAP: the init for fMP4, the first TS packets for TS', () => {
    const fmp4 = (name: string) =>
      makeVod(`https://o.test/${name}/m.m3u8`, [
        {
          bandwidth: 1,
          segmentsMs: [2000, 2000],
          media: { ext: 'm4s', before: { 0: ['#EXT-X-MAP:URI="init.mp4"'] } },
        },
      ]);
    const ts = makeVod('https://o.test/ts/m.m3u8', [{ bandwidth: 1, segmentsMs: [2000, 2000] }]);
    const log = TestLog.withLadder(ladderOf([1]), 2);
    log.play(fmp4('f1'));
    log.play(ts);
    log.play(fmp4('f2'));
    const text = renderMediaPlaylist(computeWindow(log.items, log.resolve, 'v0', log.t0 + 12_000, 60_000));
    const lines = text.split('\n').filter((l) => /DISCONTINUITY$|EXT-X-MAP|\.(ts|m4s)$/.test(l));
    expect(lines).toEqual([
      '#EXT-X-MAP:URI="https://o.test/f1/init.mp4"',
      'https://o.test/f1/v0-0.m4s',
      'https://o.test/f1/v0-1.m4s',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-MAP:URI="https://o.test/ts/v0-0.ts",BYTERANGE="376@0"',
      'https://o.test/ts/v0-0.ts',
      'https://o.test/ts/v0-1.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-MAP:URI="https://o.test/f2/init.mp4"',
      'https://o.test/f2/v0-0.m4s',
      'https://o.test/f2/v0-1.m4s',
    ]);
    expect(checkPlaylist(parseMediaPlaylist(text))).toEqual([]);
  });
});
