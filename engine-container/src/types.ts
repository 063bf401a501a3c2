/**
 * The contracts a host application implements: asset manager, channel manager, stream switch
 * manager, and the shapes they exchange. Times are Unix milliseconds; durations say their unit.
 */

export interface VodRequest {
  /** The channel id (one playout session per channel). */
  sessionId: string;
  category?: string;
  /** The channel id too: the playlist the asset manager should pick from. */
  playlistId: string;
  /**
   * Our extension: when the requested item will start on the channel's clock (Unix ms). An asset
   * manager that plays a schedule answers what is on air then; others may ignore it.
   */
  startMs?: number;
}

export interface Preroll {
  uri: string;
  /** Truncates the preroll (rounded up to whole segments); default: the whole preroll VOD. */
  durationMs?: number;
  /**
   * 'spliced' (default): its segments play in the channel's stream, between ad markers.
   * 'interstitial': the stream carries only an HLS interstitial (render/interstitial.ts) that a player
   * which supports them plays from the preroll's own playlist; others play the content alone.
   */
  delivery?: AdDelivery;
}

/**
 * Our extension: an ad break inside a VOD (a schedule entry's `adBreaks`: docs/ad-insertion.md "Ad
 * breaks of schedule entries"). `offsetMs` is where in the VOD's content the break falls (snapped to a
 * segment boundary of its reference rendition); the ad is `uri`'s playlist, `durationMs` of it.
 */
export interface AdBreak {
  offsetMs: number;
  durationMs: number;
  uri: string;
}

export type AdDelivery = 'spliced' | 'interstitial';

export interface VodResponse {
  id: string;
  title: string;
  /** Master or media playlist URL of the VOD. Absent is an error unless `type` is 'gap'. */
  uri?: string;
  /** Where to start inside the VOD, in seconds (snapped down to a segment start). */
  offset?: number;
  /** Start inside the VOD in milliseconds; wins over `offset`. */
  startOffset?: number;
  /** Truncates the VOD to this many milliseconds (rounded up to whole segments); for 'gap': the gap length. */
  desiredDuration?: number;
  /** 'gap': no VOD; play the slate for desiredDuration. */
  type?: 'gap';
  /** Becomes an EXT-X-DATERANGE on the item's first segment (id, start-date, duration, X- attributes). */
  timedMetadata?: Record<string, string | number>;
  /** How late (positive) the schedule says this item already is, in milliseconds. */
  diffMs?: number;
  /** Scheduled start of this item (Unix ms); used like diffMs when diffMs is absent. */
  unixTs?: number;
  /** Plays an ad before this VOD, decorated with cue tags. */
  preroll?: Preroll;
  /**
   * Our extension: ad breaks inside the VOD, in content order. Spliced, the VOD is cut at each break and
   * the ad plays between cue-out and cue-in; `startOffset` and `desiredDuration` then count the
   * programme (the content with its ads), so an item joined after a break starts where the programme
   * is. As interstitials, the content is not cut (playout/ad-break-plan.ts).
   */
  adBreaks?: AdBreak[];
  /** How adBreaks reach the viewer; default: the channel's `options.adDelivery`, else 'spliced'. */
  adDelivery?: AdDelivery;
  /**
   * Our extension: the channel's media shape, for a channel that declares none itself (a WebHook
   * channel's answer). Only the answer that starts the channel counts: its master never changes.
   */
  media?: ChannelMedia;
}

/** What an asset manager knows of a channel's content ahead of its first item (IAssetManager.upcomingContent). */
export interface UpcomingContent {
  /** The first VOD the channel plays at or after the request's startMs, however far ahead; absent while none is known. */
  vod?: VodResponse;
}

/**
 * Our extension, for a manager polled per channel (getSchedule, contentChangedFrom): the ids of the
 * channels whose answers may have changed since it was last called (each change is told once), else
 * undefined when it cannot tell. The engine then asks only those, and the channels it added since or
 * whose ask failed (schedule-poll.ts); a manager without it is asked for every channel every poll.
 */
export interface ChangeReporter {
  takeChangedChannels?(): Iterable<string> | undefined;
}

export interface IAssetManager extends ChangeReporter {
  getNextVod(req: VodRequest): Promise<VodResponse>;
  /**
   * Our extension, asked once before a channel's first item: what the channel will play, so that its
   * ladder comes from its content and never from the slate that plays until then (a schedule channel
   * whose first entry starts later). Undefined (or not implemented): the asset manager does not know
   * the channel's content ahead, and the ladder comes from the first item it answers. `{}`: nothing is
   * known yet, and the channel stays off air until something is, unless it declares a profile
   * (docs/media.md "The channel's ladder").
   */
  upcomingContent?(req: VodRequest): Promise<UpcomingContent | undefined>;
  handleError?(err: Error, vodResponse?: VodResponse): void | Promise<void>;
  /**
   * Our extension: true when, after a LIVE event, the channel resumes the items the event cut into (from
   * where it cut them) instead of asking for new ones (docs/live-mixing.md "After the event"). Unset:
   * the engine asks getNextVod, as a schedule that says what is on at each moment wants.
   */
  resumesAfterLive?(req: VodRequest): boolean;
  /**
   * Our extension, asked for every channel every scheduleRefreshIntervalMs: the earliest instant from
   * which getNextVod's answers for the channel changed since it was last asked (a schedule edited after
   * the engine planned it), else undefined. The engine plans again, and cuts in, what its log has from
   * the first segment boundary it can still reach at or after that instant (docs/live-mixing.md).
   */
  contentChangedFrom?(req: VodRequest): Promise<number | undefined>;
  /**
   * Our extension: whether the channel's answers may change after they were given (a schedule edited at
   * short notice). Such a channel plans no further ahead than its lead; others plan a batch past it
   * (channel/wake.ts, planBatchMs). Unset: true when contentChangedFrom is implemented.
   */
  changesAhead?(req: VodRequest): boolean;
}

/** Does the asset manager tell when content changes (contentChangedFrom), rather than only when asked? */
export const reportsChanges = (assets: IAssetManager): boolean => assets.contentChangedFrom !== undefined;

/** IAssetManager.changesAhead, with its default: an asset manager that reports changes may change ahead. */
export const changesAhead = (assets: IAssetManager, req: VodRequest): boolean =>
  assets.changesAhead?.(req) ?? reportsChanges(assets);

export interface AudioTrack {
  language: string;
  name: string;
  default?: boolean;
}
export type SubtitleTrack = AudioTrack;

export interface ClosedCaption {
  lang: string;
  name: string;
  default?: boolean;
  auto?: boolean;
  /** HLS INSTREAM-ID, e.g. CC1. */
  id: string;
}

export interface ChannelProfile {
  resolution: [number, number];
  bw: number;
  /** Video codec and audio codec separated by a comma. */
  codecs: string;
  /** Audio channel layout, default '2'; '16/JOC' for immersive audio. */
  channels?: string;
}

export interface ChannelOptions {
  /** Passed to getNextVod as `category`. */
  category?: string;
  /** A preroll before every VOD of this channel (a VodResponse.preroll wins). */
  preroll?: Preroll;
  /** How the ad breaks of this channel's VODs reach the viewer (VodResponse.adDelivery wins). */
  adDelivery?: AdDelivery;
  [key: string]: unknown;
}

export interface Channel {
  id: string;
  name: string;
  /** Slate URI for this channel; overrides the engine's defaultSlateUri. */
  slate?: string;
  closedCaptions?: ClosedCaption[];
  profile?: ChannelProfile[];
  audioTracks?: AudioTrack[];
  subtitleTracks?: SubtitleTrack[];
  /**
   * Our extension: the channel's EXT-X-TARGETDURATION, whole seconds, instead of the one computed from
   * its media (forceTargetDuration still wins: channel/header.ts). Fixed with the channel's first item.
   */
  targetDuration?: number;
  options?: ChannelOptions;
}

/** What a channel declares about its renditions (docs/media.md). */
export type ChannelMedia = Pick<Channel, 'audioTracks' | 'subtitleTracks' | 'closedCaptions' | 'profile'>;

export interface IChannelManager {
  getChannels(): Channel[] | Promise<Channel[]>;
  _onAdd?(channel: Channel): void;
  _onDelete?(channelId: string): void;
}

export interface ScheduleEvent {
  eventId: string;
  assetId: string;
  title: string;
  /** 1 = LIVE, 2 = VOD. */
  type: number;
  start_time: number;
  end_time: number;
  uri: string;
  duration?: number;
}

export interface IStreamSwitchManager extends ChangeReporter {
  getSchedule(channelId: string): Promise<ScheduleEvent[]>;
}
