/**
 * One of the engine's schedule polls (EngineCore.refreshSchedules): the stream switch manager's
 * getSchedule, or the asset manager's contentChangedFrom, asked per channel every
 * scheduleRefreshIntervalMs. A manager that says which channels' answers changed since it last said
 * (takeChangedChannels) is asked for those alone, and for the channels it has not answered since they
 * were added or since an ask failed. One that cannot say is asked for every channel. At 10,000 channels,
 * asking every one is 20,000 calls a poll for two managers with nothing to tell: a tenth of a second
 * to a third of one, every 5 s (docs/benchmarks.md, twenty-first pass).
 */
import type { Logger } from '../../core/logger';
import type { ChangeReporter } from './types';

export class SchedulePoll {
  /** Channels asked at the next poll whatever the manager says: added since, or whose ask failed. */
  private owed = new Set<string>();

  constructor(
    /** What is asked: named in the log when an ask fails. */
    private readonly asked: string,
    private readonly manager: ChangeReporter,
    /** Asks one channel; answers whether it must look at a change. */
    private readonly ask: (channelId: string) => Promise<boolean>,
    private readonly log: Logger,
  ) {}

  /** A channel the engine has just added: the manager has said nothing of it yet. */
  added(channelId: string): void {
    this.owed.add(channelId);
  }

  /**
   * Asks, at once, each channel due among `channels` (the engine's, by id). Resolves with how many must
   * look at a change. A failed ask is logged and asked again at the next poll.
   */
  async run(channels: ReadonlyMap<string, unknown>): Promise<number> {
    const changed = this.manager.takeChangedChannels?.();
    let ids: Iterable<string> = channels.keys();
    if (changed !== undefined) {
      for (const id of changed) this.owed.add(id);
      ids = this.owed;
    }
    this.owed = new Set();
    const due = [...ids].filter((id) => channels.has(id));
    let must = 0;
    await Promise.all(
      due.map(async (channelId) => {
        try {
          if (await this.ask(channelId)) must++;
        } catch (err) {
          this.owed.add(channelId);
          this.log.warn(`${this.asked} failed`, { channelId, err });
        }
      }),
    );
    return must;
  }
}
