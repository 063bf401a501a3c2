/**
 * What the API shows of a channel: in full after a create, a read or a change, as a playback link in
 * a list; both with its status (core/channel-status/).
 */
import { z } from 'zod';
import { type StatusFields, statusFieldsSchema, statusView } from '../../core/channel-status/status';
import type { StatusReader } from '../../core/channel-status/status-store';
import { playbackUrlSchema } from '../../core/time/playback-url';
import { channelTypes, prerollDeliveries } from './channel-schema';
import type { Channel } from './model';

export const playbackUrl = (base: string, name: string) => `${base}/channels/${name}/master.m3u8`;

export function createView(channel: Channel, base: string, status: StatusFields = statusView(undefined)) {
  const { id, name, type, url, opts } = channel;
  return { id, name, type, url, ...(opts ? { opts } : {}), playback: playbackUrl(base, name), ...status };
}

export function listView(channel: Channel, base: string, status: StatusFields = statusView(undefined)) {
  return {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    url: playbackUrl(base, channel.name),
    ...status,
  };
}

/** Each channel's status (the engine plays a channel-service channel under its name). */
export async function statusesOf(reader: StatusReader, channels: readonly Channel[]) {
  const records = await reader.read(channels.map((c) => c.name));
  return channels.map((c) => statusView(records.get(c.name), c.createdAt));
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
    .passthrough()
    .optional(),
  playback: playbackUrlSchema,
  ...statusFieldsSchema,
});

export const listViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(channelTypes),
  url: z.string().describe('the master playlist URL'),
  ...statusFieldsSchema,
});
