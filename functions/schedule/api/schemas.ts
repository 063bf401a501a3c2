/**
 * Request bodies of the schedule API (docs/schedule-api.md) and their rules:
 * - id and channelId: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (they
 *   appear in paths and in the `<tenant>#<channelId>` key).
 * - title: 1-256 characters after trimming.
 * - url: an absolute http(s) URL of at most 2,048 characters.
 * - config.scheduleRetention: hours (0-8760) an entry is kept after it ended; absent = the default.
 * - tenant: optional; when present it must equal the host the request was sent to.
 * Unknown fields are refused (400 naming the field), so a typo never passes silently.
 */
import { z } from 'zod';
import { httpUrl } from '../../../core/validation';

export const SCHEDULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_RETENTION_HOURS = 8760;

const id = z
  .string()
  .regex(SCHEDULE_ID, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');

export const createChannelSchema = z
  .object({
    id,
    tenant: z.string().optional(),
    title: z.string().trim().min(1, 'must not be empty').max(256),
  })
  .strict();

export const createFeedSchema = z
  .object({
    id,
    tenant: z.string().optional(),
    url: httpUrl,
    channelId: id,
    config: z
      .object({ scheduleRetention: z.number().finite().min(0).max(MAX_RETENTION_HOURS).optional() })
      .strict()
      .optional(),
  })
  .strict();

export type CreateChannelBody = z.infer<typeof createChannelSchema>;
export type CreateFeedBody = z.infer<typeof createFeedSchema>;
