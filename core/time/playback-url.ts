/**
 * A channel's playback URL as the APIs show it: one schema, so both OpenAPI documents say the same of
 * the time-shift parameters the playlist takes (docs/timeshift.md).
 */
import { z } from 'zod';

export const playbackUrlSchema = z
  .string()
  .describe(
    'the master playlist URL; with `?start=` (ISO 8601 or Unix seconds, within the retention) an EVENT playlist from then (start-over), with `&end=` a VOD of that range (catch-up), and `&from=programme` from the start of the programme on air at `start`',
  );
