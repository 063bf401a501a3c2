/**
 * Which timeline a TS VOD has on a channel. hls.js plays a TS item from its earliest timestamp (the
 * audio's lead) to its latest one, but on a channel whose audio comes from its own renditions (demuxed)
 * the main timeline is the video's: the audio's overhang past the video's end (a whole AAC frame) is
 * never played there, and the next item starts where the video ended. Listing the overhang on such a
 * channel moved every later item earlier on the player's timeline (11 ms for each slate after a CMAF
 * VOD, measured in hls.js), so there the VOD is listed with its lead only. Decided by the ladder, which
 * every item carries: the same on every engine.
 */
import type { OutputLadder } from '../ladder/output-ladder';
import { withoutAudioTail } from '../vod/audio-lead';
import { type ParsedVod, referenceTrack } from '../vod/parsed-vod';
import { firstStartingAtOrAfter, indexBoundFor, startAt } from '../vod/track';
import type { ItemDraft } from './item';

/** True when players take the channel's audio from its audio renditions, not from the variants. */
const hasDemuxedAudio = (ladder: OutputLadder): boolean => ladder.audio.length > 0;

/** The VOD as the channel's players play it. */
export function vodOnLadder(vod: ParsedVod, ladder: OutputLadder): ParsedVod {
  return hasDemuxedAudio(ladder) ? withoutAudioTail(vod) : vod;
}

/**
 * A draft planned on the VOD as loaded, ending where the VOD ends on the channel's timeline: a loop
 * (the slate) ends after as many segments as planned, each repetition its overhang shorter.
 */
export function draftOnLadder(draft: ItemDraft, vod: ParsedVod, ladder: OutputLadder): ItemDraft {
  const tailMs = vod.audioPadding?.tailMs ?? 0;
  if (!tailMs || !hasDemuxedAudio(ladder)) return draft;
  const ref = referenceTrack(vod);
  if (draft.loop) {
    const end = firstStartingAtOrAfter(ref, draft.durationMs, 1, indexBoundFor(ref, draft.durationMs, true));
    return { ...draft, durationMs: startAt(referenceTrack(withoutAudioTail(vod)), end) };
  }
  const totalMs = ref.totalMs;
  const endsAtEnd = (durationMs: number) => draft.offsetMs + durationMs === totalMs;
  const durationMs = endsAtEnd(draft.durationMs) ? draft.durationMs - tailMs : draft.durationMs;
  const full = draft.fullDurationMs;
  const fullDurationMs = full !== undefined && endsAtEnd(full) ? full - tailMs : full;
  if (durationMs === draft.durationMs && fullDurationMs === full) return draft;
  return { ...draft, durationMs, ...(fullDurationMs !== undefined ? { fullDurationMs } : {}) };
}
