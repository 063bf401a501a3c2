/**
 * The channel API as a user calls it (docs/channel-api.md): a trial token, a Loop channel, its live
 * events and its status. Every refusal is an error with the API's answer.
 */
import { trialToken } from '../../../test/support/trial-token';

export interface CreatedChannel {
  id: string;
  playback: string;
}

export interface ChannelStatus {
  status?: string;
  statusReason?: string;
}

export class ChannelClient {
  private constructor(
    private readonly api: string,
    private readonly token: string,
  ) {}

  /** A client with a fresh trial token (`POST /token`, test stage). */
  static async trial(api: string, email: string): Promise<ChannelClient> {
    return new ChannelClient(api, await trialToken(api, email, 'onair soak'));
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.api}${path}`, {
      method,
      headers: { 'x-jwt': `Bearer ${this.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** `POST /channel`: a Loop channel of `url` with a spliced preroll before each pass (the engine's slate). */
  async createLoop(
    name: string,
    url: string,
    opts: { preroll: { url: string; durationMs: number } },
  ): Promise<CreatedChannel> {
    const made = (await this.call('POST', '/channel', {
      name,
      type: 'Loop',
      url,
      opts: {
        preroll: { url: opts.preroll.url, duration: String(opts.preroll.durationMs) },
      },
    })) as CreatedChannel;
    return { id: made.id, playback: made.playback };
  }

  /** `POST /channel/{id}/events`: a live event; answers its id. */
  async addEvent(channelId: string, url: string, startMs: number, endMs: number): Promise<string> {
    const made = (await this.call('POST', `/channel/${channelId}/events`, {
      url,
      start: new Date(startMs).toISOString(),
      end: new Date(endMs).toISOString(),
    })) as { id: string };
    return made.id;
  }

  async removeEvent(channelId: string, eventId: string): Promise<void> {
    await this.call('DELETE', `/channel/${channelId}/events/${eventId}`);
  }

  async status(channelId: string): Promise<ChannelStatus> {
    const channel = (await this.call('GET', `/channel/${channelId}`)) as ChannelStatus;
    return { status: channel.status, statusReason: channel.statusReason };
  }

  async remove(channelId: string): Promise<void> {
    await this.call('DELETE', `/channel/${channelId}`);
  }
}
