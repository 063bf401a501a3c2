/** A channel as the channel service stores it; the engine fleet reads the same records. */
import type { MediaShape } from '../../core/media-shape';
import type { ChannelType, PrerollDelivery } from './channel-schema';

export interface Channel {
  /** `<prefix>-<name>` (channel-id.ts), derived from tenant and name. */
  id: string;
  tenant: string;
  /** Unique in the deployment: the playback URL holds only the name. */
  name: string;
  type: ChannelType;
  url: string;
  /** The create request's opts as given: a preroll and the media shape (core/media-shape.ts). */
  opts?: { preroll?: { url: string; duration: string; delivery?: PrerollDelivery } } & MediaShape;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Live events (POST /channel/{id}/events): the engine switches the channel to each url in time. */
  events?: LiveEvent[];
}

export interface LiveEvent {
  id: string;
  url: string;
  start_time: number;
  end_time: number;
  start: string;
  end: string;
}
