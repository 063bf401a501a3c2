/**
 * A manual schedule entry from a POST body: instants to Unix ms, a VOD without `end` lasts its VOD's
 * duration (measured through the guarded fetch, like the auto-scheduler's), and the entry's id marks it
 * manual (model.ts MANUAL_ENTRY_PREFIX).
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../core/errors';
import { type Probe, type SourceWarning, sourceWarning } from '../../../core/fetch/hls-probe';
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
    ...(body.adBreaks?.length ? { adBreaks: body.adBreaks } : {}),
  };
}

/**
 * The HLS check of an entry's source (docs/schedule-api.md "Entries"). A VOD must answer as HLS now: a
 * VOD without an end is refused when it cannot be measured, and one with an end by the same rule (400
 * naming `url`). A LIVE source often starts just before its event: accepted, with a warning.
 */
export async function checkEntrySource(body: CreateEntryBody, probe: Probe): Promise<SourceWarning[]> {
  // A VOD without an end is fetched to measure it (manualEntry): that is its check.
  if (body.type === 'VOD' && body.end === undefined) return [];
  const problem = await probe(body.url);
  if (!problem) return [];
  if (body.type === 'VOD') throw badRequest(`url does not answer as HLS (${problem})`, 'url');
  return [sourceWarning('url', problem)];
}
