/**
 * Request bodies of the schedule API (docs/schedule-api.md) and their rules:
 * - id and channelId: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (they
 *   appear in paths and in the `<tenant>#<channelId>` key).
 * - title: 1-256 characters after trimming, no control or bidirectional control characters.
 * - url: an absolute http(s) URL of at most 2,048 characters.
 * - config.scheduleRetention: hours (0-8760) an entry is kept after it ended; absent = the default.
 * - audioTracks, subtitleTracks, closedCaptions, profile, slate: the channel's media shape
 *   (core/media-shape.ts, shared with the channel API and WebHook answers; docs/media.md).
 * - adDelivery (channel) and adBreaks (VOD entry): api/ad-breaks.ts.
 * - tenant: optional; when present it must equal the host the request was sent to (tenant.ts).
 * Path ids (`/channels/{id}`, `/mrss/{id}`) follow the same rule as body ids: `scheduleId`.
 * Unknown fields are refused (400 naming the field), so a typo never passes silently.
 */
import { z } from 'zod';
import { statusFieldsSchema } from '../../../core/channel-status/status';
import { mediaShapeFields } from '../../../core/media-shape';
import { playbackUrlSchema } from '../../../core/time/playback-url';
import { httpUrl, isoInstant, plainText } from '../../../core/validation';
import { SCHEDULE_ID } from '../model';
import { adBreaksSchema, adDeliverySchema } from './ad-breaks';
import { MAX_TENANT_LENGTH } from './tenant';

export const MAX_RETENTION_HOURS = 8760;

export const scheduleId = z
  .string()
  .regex(SCHEDULE_ID, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
const id = scheduleId;
const tenant = z.string().max(MAX_TENANT_LENGTH).optional();

export const createChannelSchema = z
  .object({
    id,
    tenant,
    title: plainText(256),
    ...mediaShapeFields,
    adDelivery: adDeliverySchema.optional(),
  })
  .strict();

export const createFeedSchema = z
  .object({
    id,
    tenant,
    url: httpUrl,
    channelId: id,
    config: z
      .object({ scheduleRetention: z.number().finite().min(0).max(MAX_RETENTION_HOURS).optional() })
      .strict()
      .optional(),
  })
  .strict();

/** A manual schedule entry (docs/schedule-api.md): `end` after `start`; a VOD may leave `end` out. */
export const createEntrySchema = z
  .object({
    title: plainText(256),
    type: z.enum(['LIVE', 'VOD']),
    url: httpUrl,
    start: isoInstant,
    end: isoInstant.optional(),
    adBreaks: adBreaksSchema.optional(),
  })
  .strict()
  .refine((b) => b.adBreaks === undefined || b.type === 'VOD', {
    message: 'only a VOD entry has ad breaks',
    path: ['adBreaks'],
  })
  .refine((b) => b.end !== undefined || b.type === 'VOD', {
    message: 'a LIVE entry needs an end',
    path: ['end'],
  })
  .refine((b) => b.end === undefined || Date.parse(b.end) > Date.parse(b.start), {
    message: 'must be after start',
    path: ['end'],
  });

export type CreateEntryBody = z.infer<typeof createEntrySchema>;
export type CreateChannelBody = z.infer<typeof createChannelSchema>;
export type CreateFeedBody = z.infer<typeof createFeedSchema>;

/** What the API answers, as the OpenAPI document shows it (core/openapi.ts). */
export const channelViewSchema = z.object({
  id: z.string(),
  tenant: z.string(),
  title: z.string(),
  ...mediaShapeFields,
  adDelivery: adDeliverySchema.optional(),
  playback: playbackUrlSchema,
  scheduleVersion: z
    .number()
    .int()
    .optional()
    .describe('moves whenever an entry of the channel is written or removed'),
  liveVersion: z.number().int().optional().describe('moves whenever a LIVE entry is written or removed'),
  ...statusFieldsSchema,
  status: statusFieldsSchema.status.optional().describe('absent only in the every-tenant list (`?tenant=*`)'),
});

export const changesSchema = z.object({
  stamp: z.number().int().describe('moves after every change an engine must see'),
});

export const entrySchema = z.object({
  id: z.string(),
  channelId: z.string(),
  title: z.string(),
  start_time: z.number().int().describe('Unix milliseconds'),
  end_time: z.number().int().describe('Unix milliseconds'),
  start: z.string().describe('ISO 8601 UTC'),
  end: z.string().describe('ISO 8601 UTC'),
  url: z.string(),
  duration: z.number().describe('seconds'),
  type: z.enum(['VOD', 'LIVE']),
  adBreaks: adBreaksSchema.optional(),
});

export const feedViewSchema = z.object({
  id: z.string(),
  tenant: z.string(),
  url: z.string(),
  channelId: z.string(),
  config: z.object({ scheduleRetention: z.number() }),
  status: z
    .object({ lastReadAt: z.string(), entries: z.number().int(), lastError: z.string().optional() })
    .optional(),
});

/** `?limit=&cursor=` of every list, and `?start=&end=` / `?date=` of a schedule (core/epg/time-range.ts). */
export const pageQuery = {
  limit: z.string().describe('page size'),
  cursor: z.string().describe('the `x-next-cursor` of the previous page'),
};
export const rangeQuery = {
  date: z.string().describe('a UTC day, YYYY-MM-DD'),
  start: z.string().describe('ISO 8601 instant with a zone'),
  end: z.string().describe('ISO 8601 instant with a zone (exclusive)'),
};
export const entryTypeSchema = z.enum(['VOD', 'LIVE']);
export const entryTypeQuery = {
  type: entryTypeSchema.describe('only entries of this type; with LIVE, `end` may be left out (no end)'),
};

/** Source URLs accepted although they did not answer as HLS (core/fetch/hls-probe.ts). */
export const warningsSchema = z
  .array(z.object({ field: z.string(), code: z.string(), message: z.string() }))
  .optional()
  .describe('the source URLs that did not answer as HLS when the entry was made');
