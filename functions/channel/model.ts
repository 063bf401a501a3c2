/** A channel as the channel service stores it; the engine fleet reads the same records. */
import type { ChannelType } from './channel-schema';

export interface Channel {
  /** `<tenant>.<name>` (channel-id.ts), derived from tenant and name. */
  id: string;
  tenant: string;
  /** Unique in the deployment: the playback URL holds only the name. */
  name: string;
  type: ChannelType;
  url: string;
  opts?: { preroll?: { url: string; duration: string } };
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
