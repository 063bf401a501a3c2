/**
 * The engine's channel manager for channels made through the channel API. Every interval it reads the
 * table's change stamp (one GetItem, whatever the number of channels) and lists the channels (a Query
 * on the byKind index, never a Scan) only when the stamp moved, so creates, deletes and live events
 * reach the engine within one interval and an idle deployment costs one small read per interval.
 * The index is eventually consistent, so after a move the list is read once more an interval later
 * (a list read a moment too early is corrected); a full list every `fullListMs` heals anything missed.
 * getChannels() answers from the last list. The engine channel id is the channel name, because the
 * playback URL holds only the name. A list says which channels' live events it changed
 * (takeChangedChannels), so the engine asks only those for their schedule, not all every poll.
 */

import { logger } from '../../core/logger';
import { mediaOf } from '../../core/media-shape';
import { MIXED_CONTENT_TARGET_DURATION_S } from '../../core/target-duration';
import type { Channel as StoredChannel } from '../../functions/channel/model';
import type { ChannelStore } from '../../functions/channel/stores/channel-store';
import { HEALTHY, type OutageState, recordFailure } from '../src/channel/outage/outage';
import type { Channel, IChannelManager, Preroll, ScheduleEvent } from '../src/types';
import { ChangedIds } from '../src/util/changed-ids';

export interface OnairChannelOptions {
  [key: string]: unknown;
  type: 'Loop' | 'WebHook';
  url: string;
  tenant: string;
  preroll?: Preroll;
  /** Live events of the channel (POST /channel/{id}/events), for the stream switch manager. */
  events?: StoredChannel['events'];
}

export const toEngineChannel = (c: StoredChannel): Channel => {
  const options: OnairChannelOptions = { type: c.type, url: c.url, tenant: c.tenant };
  if (c.opts?.preroll) {
    const { url, duration, delivery } = c.opts.preroll;
    options.preroll = { uri: url, durationMs: Number(duration), ...(delivery ? { delivery } : {}) };
  }
  if (c.events) options.events = c.events;
  // A WebHook channel's VODs are whatever its webhook answers: unless it says, room for most catalogues.
  // A Loop channel's content is known (its VOD, preroll and slate): its target duration follows it.
  const media = mediaOf(c.opts);
  if (c.type === 'WebHook') media.targetDuration ??= MIXED_CONTENT_TARGET_DURATION_S;
  return { id: c.name, name: c.name, ...media, options };
};

/** A channel's live events as one comparable string ('' for none): lists are compared channel by channel. */
const eventsOf = (c: Channel | undefined): string => {
  const events = (c?.options as OnairChannelOptions | undefined)?.events;
  return events?.length ? JSON.stringify(events) : '';
};

export class ChannelTableManager implements IChannelManager {
  private channels: Channel[] = [];
  private byId = new Map<string, Channel>();
  /** Failed reads in a row: logged once a minute at most while the table is unreachable. */
  private outage: OutageState = HEALTHY;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** The stamp of the last list; undefined until a list succeeded. */
  private listedStamp: number | undefined;
  private listedAtMs = 0;
  /** Lists still owed after the stamp moved: this interval's and the next one's (index lag). */
  private owedLists = 0;
  /** Channels whose live events a list changed since the engine last took them. */
  private readonly changedEvents = new ChangedIds();

  constructor(
    private readonly store: Pick<ChannelStore, 'listAll' | 'changeStamp'>,
    private readonly refreshMs = 2000,
    private readonly fullListMs = 5 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  getChannels(): Channel[] {
    return this.channels;
  }

  channel(id: string): Channel | undefined {
    return this.byId.get(id);
  }

  /** The channel's live events as the engine's LIVE events (the stream switch manager of its channels). */
  async getSchedule(id: string): Promise<ScheduleEvent[]> {
    const events = (this.byId.get(id)?.options as OnairChannelOptions | undefined)?.events ?? [];
    return events.map((e) => ({
      eventId: e.id,
      assetId: e.id,
      title: 'live',
      type: 1,
      start_time: e.start_time,
      end_time: e.end_time,
      uri: e.url,
    }));
  }

  /** The channels whose live events changed since the last call (IStreamSwitchManager.takeChangedChannels). */
  takeChangedChannels(): Set<string> {
    return this.changedEvents.take();
  }

  /** Reads once (so the engine starts with the current channels), then keeps reading. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One read at a time: a slow table never piles up overlapping reads. */
  refresh(): Promise<void> {
    this.running ??= (async () => {
      try {
        const stamp = await this.store.changeStamp();
        if (stamp !== this.listedStamp) this.owedLists = 2;
        const now = this.clock();
        if (this.owedLists > 0 || now - this.listedAtMs >= this.fullListMs) {
          const channels = (await this.store.listAll()).map(toEngineChannel);
          for (const c of channels)
            if (eventsOf(c) !== eventsOf(this.byId.get(c.id))) this.changedEvents.add(c.id);
          this.channels = channels;
          this.byId = new Map(channels.map((c) => [c.id, c]));
          this.listedStamp = stamp;
          this.listedAtMs = now;
          this.owedLists = Math.max(0, this.owedLists - 1);
        }
        this.outage = HEALTHY;
      } catch (err) {
        const outcome = recordFailure(this.outage, Date.now());
        this.outage = outcome.state;
        if (outcome.log)
          logger.warn('channel table read failed; keeping the last list', {
            err,
            suppressed: outcome.suppressed,
          });
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
