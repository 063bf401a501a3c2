/**
 * The engine's channel manager for scheduled channels: the schedule service's channels of every
 * tenant, as engine channels `<tenantKey>~<id>` (functions/schedule/playback-id.ts), so two tenants'
 * channels of the same id are two channels with two playback URLs. The list comes from the schedule
 * watch (schedule-watch.ts): re-read only when the service's change stamp moved. A failed refresh
 * keeps the last list, so a blip of the schedule API never takes channels off the air.
 */

import type { Logger } from '../../../core/logger';
import { mediaOf } from '../../../core/media-shape';
import { MIXED_CONTENT_TARGET_DURATION_S } from '../../../core/target-duration';
import { playbackChannelId } from '../../../functions/schedule/playback-id';
import type { Channel, IChannelManager } from '../../src/index';
import type { ScheduleChannel } from './schedule-client';
import type { ScheduleWatch } from './schedule-watch';

export interface ScheduleChannelManagerOptions {
  watch: Pick<ScheduleWatch, 'refresh'>;
  log: Logger;
  /** Slate for every scheduled channel (the engine's defaultSlateUri otherwise). */
  slate?: string;
}

export class ScheduleChannelManager implements IChannelManager {
  private last: Channel[] | undefined;
  /** The list `last` was made from: an unchanged list keeps the same engine channels. */
  private lastListed: readonly ScheduleChannel[] | undefined;

  constructor(private readonly options: ScheduleChannelManagerOptions) {}

  async getChannels(): Promise<Channel[]> {
    try {
      const channels = await this.options.watch.refresh();
      if (channels === this.lastListed && this.last) return this.last;
      this.lastListed = channels;
      this.last = channels.map((c) => ({
        id: playbackChannelId(c.tenant, c.id),
        name: c.title,
        ...(this.options.slate ? { slate: this.options.slate } : {}),
        // The channel's own media shape, its slate included, wins over the plug-in's slate.
        ...mediaOf(c),
        // Entries are added while the channel plays: unless it says, room for most catalogues (and
        // what the schedule API holds LIVE entries to: functions/schedule/live-target-duration.ts).
        targetDuration: c.targetDuration ?? MIXED_CONTENT_TARGET_DURATION_S,
        // How its entries' ad breaks reach the viewer (playout/ad-break-plan.ts).
        ...(c.adDelivery ? { options: { adDelivery: c.adDelivery } } : {}),
      }));
    } catch (err) {
      if (!this.last) throw err;
      this.options.log.warn('schedule channels refresh failed; keeping the last list', { err });
    }
    return this.last;
  }
}
