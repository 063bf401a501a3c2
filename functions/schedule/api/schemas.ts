/**
 * Request bodies of the schedule API (docs/schedule-api.md) and their rules:
 * - id and channelId: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (they
 *   appear in paths and in the `<tenant>#<channelId>` key).
 * - title: 1-256 characters after trimming, no control or bidirectional control characters.
 * - url: an absolute http(s) URL of at most 2,048 characters.
 * - config.scheduleRetention: hours (0-8760) an entry is kept after it ended; absent = the default.
 * - tenant: optional; when present it must equal the host the request was sent to (tenant.ts).
 * Path ids (`/channels/{id}`, `/mrss/{id}`) follow the same rule as body ids: `scheduleId`.
 * Unknown fields are refused (400 naming the field), so a typo never passes silently.
 */
import { z } from 'zod';
import { httpUrl, isoInstant, plainText } from '../../../core/validation';
import { SCHEDULE_ID } from '../model';
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
  })
  .strict()
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
