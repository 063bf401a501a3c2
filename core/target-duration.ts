/**
 * A channel's EXT-X-TARGETDURATION as a channel setting (`targetDuration`, whole seconds): hls.js and
 * most players sit three target durations behind the live edge, so it sets the channel's latency. Set,
 * it is the channel's; unset, a channel whose content is known ahead (a Loop channel: its VOD, preroll
 * and slate) takes it from that content, and a channel whose content is not (a WebHook channel's
 * answers, a schedule channel's entries added later) takes MIXED_CONTENT_TARGET_DURATION_S, room for
 * the segments of most catalogues (engine-container/README.md "Target duration").
 */
import { z } from 'zod';

export const MIN_TARGET_DURATION_S = 1;
/** Three of them fill the default 60 s playlist window (RFC 8216 wants at least three in a live playlist). */
export const MAX_TARGET_DURATION_S = 20;

/** Covers Apple's 6 s segments and most catalogues; three of them are the 30 s latency it costs. */
export const MIXED_CONTENT_TARGET_DURATION_S = 10;

export const targetDurationField = z
  .number()
  .int('must be a whole number of seconds')
  .min(MIN_TARGET_DURATION_S)
  .max(MAX_TARGET_DURATION_S);
