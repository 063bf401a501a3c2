/**
 * The asset manager for channel-API channels. Loop: the channel's VOD every time, after its preroll when
 * it has one. WebHook: whatever the channel's webhook answers (webhook.ts). Both resume what a live
 * event cut into after it. Errors are the engine's to
 * handle: it plays the slate and calls handleError.
 */

import type { FetchLike } from '../../core/fetch/bounded-fetch';
import type { Channel, IAssetManager, VodRequest, VodResponse } from '../src/types';
import type { OnairChannelOptions } from './channel-table-manager';
import { callWebhook } from './webhook';

export interface OnairAssetManagerOptions {
  channel(id: string): Channel | undefined;
  fetch?: FetchLike;
  webhookTimeoutMs?: number;
}

export class OnairAssetManager implements IAssetManager {
  constructor(private readonly opts: OnairAssetManagerOptions) {}

  /**
   * After a live event a Loop channel goes on with its VOD where the event cut it, and a WebHook
   * channel with the item it was playing: its webhook is not asked again for what it already answered.
   */
  resumesAfterLive(): boolean {
    return true;
  }

  async getNextVod(req: VodRequest): Promise<VodResponse> {
    const channel = this.opts.channel(req.sessionId);
    if (!channel) throw new Error(`channel ${req.sessionId} is not in the channel table`);
    const options = channel.options as OnairChannelOptions;
    if (options.type === 'WebHook') {
      return callWebhook(options.url, channel.id, {
        fetch: this.opts.fetch ?? (globalThis.fetch as FetchLike),
        timeoutMs: this.opts.webhookTimeoutMs ?? 2000,
      });
    }
    return {
      id: `${channel.id}-loop`,
      title: channel.name,
      uri: options.url,
      ...(options.preroll ? { preroll: options.preroll } : {}),
    };
  }
}
