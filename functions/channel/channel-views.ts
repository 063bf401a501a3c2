/** What the API shows of a channel: in full after a create, as a playback link in a list. */
import { z } from 'zod';
import { channelTypes, prerollDeliveries } from './channel-schema';
import type { Channel } from './model';

export const playbackUrl = (base: string, name: string) => `${base}/channels/${name}/master.m3u8`;

export function createView(channel: Channel, base: string) {
  const { id, name, type, url, opts } = channel;
  return { id, name, type, url, ...(opts ? { opts } : {}), playback: playbackUrl(base, name) };
}

export function listView(channel: Channel, base: string) {
  return { id: channel.id, name: channel.name, type: channel.type, url: playbackUrl(base, channel.name) };
}

/** The two views as the OpenAPI document shows them (core/openapi.ts). */
export const createViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(channelTypes),
  url: z.string(),
  opts: z
    .object({
      preroll: z
        .object({ url: z.string(), duration: z.string(), delivery: z.enum(prerollDeliveries).optional() })
        .optional(),
    })
    .optional(),
  playback: z.string().describe('the master playlist URL'),
});

export const listViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(channelTypes),
  url: z.string().describe('the master playlist URL'),
});
