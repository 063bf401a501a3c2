/**
 * The schedule service's data, as the API shows it and as the stores keep it. Times are Unix
 * milliseconds in data and ISO 8601 UTC in text, as everywhere in onair.
 */
import type { AdDelivery } from '../../core/asrun/asrun-entry';
import type { MediaShape } from '../../core/media-shape';

/** Channel and auto-scheduler ids (docs/schedule-api.md): they appear in paths and DynamoDB keys. */
export const SCHEDULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A schedule channel: `id` chosen by the caller, `tenant` = the API's host:port, and the media shape
 * it plays (audio/subtitle languages, captions, profile, slate: core/media-shape.ts).
 */
export interface ScheduleChannel extends MediaShape {
  id: string;
  tenant: string;
  title: string;
  /** How its entries' ad breaks reach the viewer; absent: spliced (docs/ad-insertion.md). */
  adDelivery?: AdDelivery;
}

/** An ad break of a VOD entry: `offset` ms into the entry, an ad of `duration` ms from `url`. */
export interface AdBreak {
  offset: number;
  duration: number;
  url: string;
}

export interface FeedConfig {
  /** Hours an entry is kept after it ended. */
  scheduleRetention: number;
}

/** An auto-scheduler ("mrss" in the API): binds an Atom feed to a channel. */
export interface Feed {
  id: string;
  tenant: string;
  url: string;
  channelId: string;
  config: FeedConfig;
}

/** One usable entry of a feed: what the auto-scheduler plays, with its measured duration. */
export interface FeedItem {
  /** The Atom entry id (often a UUID); the round-robin position is tracked by it. */
  id: string;
  title: string;
  /** HLS manifest URL of the VOD. */
  url: string;
  durationMs: number;
}

/** What the last fetch of a feed left behind: validators for a conditional GET, and its entries. */
export interface FeedFetchState {
  etag?: string;
  lastModified?: string;
  items?: FeedItem[];
  fetchedAt?: number;
  lastError?: string;
}

export type StoredFeed = Feed & FeedFetchState;

/** A schedule entry exactly as the API lists it (docs/schedule-api.md). */
export interface ScheduleEntry {
  id: string;
  channelId: string;
  title: string;
  start_time: number;
  end_time: number;
  start: string;
  end: string;
  url: string;
  /** Seconds: (end_time - start_time) / 1000. */
  duration: number;
  /** 'LIVE': a live HLS source the engine switches to (docs/live-mixing.md); only made with POST. */
  type: 'VOD' | 'LIVE';
  /** A VOD entry's ad breaks, in order of offset (api/ad-breaks.ts); absent when it has none. */
  adBreaks?: AdBreak[];
}

/** A schedule entry made with POST /channels/{id}/schedule: the auto-scheduler plans around it. */
export const MANUAL_ENTRY_PREFIX = 'm-';

/**
 * Where a channel's schedule ends and which feed entry was scheduled last. It lives on the channel
 * item, and every write of new entries moves it conditionally: that is what keeps concurrent
 * scheduler runs from overlapping.
 */
export interface ScheduleCursor {
  /** end_time of the last scheduled entry. */
  endTime: number;
  /** Atom id of the feed entry scheduled last. */
  lastItemId: string;
  /** Its index in the feed at that time (the fallback when that id left the feed). */
  lastItemIndex: number;
}

/** The partition of a channel's entries in the entries table. */
export const channelKey = (tenant: string, channelId: string): string => `${tenant}#${channelId}`;
