/**
 * The engine's channel manager for scheduled channels: the schedule service's channels of every
 * tenant, as engine channels `<tenantKey>~<id>` (functions/schedule/playback-id.ts), so two tenants'
 * channels of the same id are two channels with two playback URLs. A failed refresh keeps the last list, so a blip of
 * the schedule API never takes channels off the air.
 */

import type { Logger } from '../../../core/logger';
import { mediaOf } from '../../../core/media-shape';
import { playbackChannelId } from '../../../functions/schedule/playback-id';
import type { Channel, IChannelManager } from '../../src/index';
import type { ScheduleSource } from './schedule-client';

export interface ScheduleChannelManagerOptions {
  source: ScheduleSource;
  log: Logger;
  /** Slate for every scheduled channel (the engine's defaultSlateUri otherwise). */
  slate?: string;
}

export class ScheduleChannelManager implements IChannelManager {
  private last: Channel[] | undefined;

  constructor(private readonly options: ScheduleChannelManagerOptions) {}

  async getChannels(): Promise<Channel[]> {
    try {
      const channels = await this.options.source.listChannels();
      this.last = channels.map((c) => ({
        id: playbackChannelId(c.tenant, c.id),
        name: c.title,
        ...(this.options.slate ? { slate: this.options.slate } : {}),
        // The channel's own media shape, its slate included, wins over the plug-in's slate.
        ...mediaOf(c),
      }));
    } catch (err) {
      if (!this.last) throw err;
      this.options.log.warn('schedule channels refresh failed; keeping the last list', { err });
    }
    return this.last;
  }
}
