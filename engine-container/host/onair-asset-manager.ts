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

/** Playlist file names that say nothing of the VOD: its folder names it instead. */
const GENERIC_NAMES = new Set(['master', 'index', 'playlist', 'main', 'manifest', 'stream', 'prog_index']);

/**
 * A Loop VOD's title for guides and events: HLS carries none, so the URL's last telling path segment
 * (`.../films/sintel/master.m3u8` -> `sintel`); the host when the path says nothing.
 */
export function vodTitle(url: string): string {
  try {
    const { pathname, hostname } = new URL(url);
    const segments = pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
    for (let i = segments.length - 1; i >= 0; i--) {
      const name = segments[i]!.replace(/\.m3u8?$/i, '');
      if (name && !GENERIC_NAMES.has(name.toLowerCase())) return name;
    }
    return hostname;
  } catch {
    return url;
  }
}

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
      title: vodTitle(options.url),
      uri: options.url,
      ...(options.preroll ? { preroll: options.preroll } : {}),
    };
  }
}
