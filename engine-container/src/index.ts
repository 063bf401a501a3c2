/** The playout engine's public API. */

export type { FetchLike } from '../../core/fetch/bounded-fetch';
export { type EngineConfig, type EngineOptions, resolveConfig } from './config';
export { Engine } from './engine';
export { type ChannelRuntime, EngineCore } from './engine-core';
export type { EngineEvent, EngineEvents, EngineEventType } from './events';
export type { OutputLadder } from './ladder/output-ladder';
export type { ItemKind, PlayoutItem } from './playout/item';
export {
  hasLeases,
  InMemoryPlayoutLogStore,
  type LeaseOps,
  type LeasingLogStore,
  type PlayoutLogStore,
} from './playout/log-store';
export { computeWindow, type PlaylistWindow, type WindowSegment } from './playout/window';
export { applyFilter, FilterError, parseFilter } from './render/filter';
export { renderMediaPlaylist } from './render/media-playlist';
export * from './stores/index';
export type {
  AdBreak,
  AdDelivery,
  AudioTrack,
  ChangeReporter,
  Channel,
  ChannelOptions,
  ChannelProfile,
  ClosedCaption,
  IAssetManager,
  IChannelManager,
  IStreamSwitchManager,
  Preroll,
  ScheduleEvent,
  SubtitleTrack,
  UpcomingContent,
  VodRequest,
  VodResponse,
} from './types';
export { loadVod, VodLoadError } from './vod/load-vod';
