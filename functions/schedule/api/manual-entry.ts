/**
 * A manual schedule entry from a POST body: instants to Unix ms, a VOD without `end` lasts its VOD's
 * duration (measured through the guarded fetch, like the auto-scheduler's), and the entry's id marks it
 * manual (model.ts MANUAL_ENTRY_PREFIX).
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../core/errors';
import { MANUAL_ENTRY_PREFIX, type ScheduleEntry } from '../model';
import type { DurationResolver } from '../scheduler/vod-duration';
import type { CreateEntryBody } from './schemas';

export async function manualEntry(
  channelId: string,
  body: CreateEntryBody,
  vodDurationMs: DurationResolver,
): Promise<ScheduleEntry> {
  const startMs = Date.parse(body.start);
  let endMs: number;
  if (body.end !== undefined) endMs = Date.parse(body.end);
  else {
    const durationMs = await vodDurationMs(body.url).catch(() => {
      throw badRequest('the VOD could not be read to find its duration; give an end', 'url');
    });
    endMs = startMs + durationMs;
  }
  return {
    id: `${MANUAL_ENTRY_PREFIX}${randomUUID()}`,
    channelId,
    title: body.title,
    start_time: startMs,
    end_time: endMs,
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    url: body.url,
    duration: (endMs - startMs) / 1000,
    type: body.type,
  };
}
