/**
 * Channel events, published in process and streamed at /eventstream/<channelId> when
 * sessionEventStream is on. Payloads are JSON objects; `time` is ISO 8601 UTC. In-process subscribers
 * get the full detail (error messages, URIs); the stream sends each event's public form
 * (server/public-event.ts).
 */
import { EventEmitter } from 'node:events';
import { isoDate } from './util/iso-date';

export type EngineEventType =
  | 'item_started'
  | 'item_appended'
  | 'slate_inserted'
  | 'vod_error'
  | 'channel_reset'
  | 'channel_added'
  | 'channel_removed';

export interface EngineEvent {
  type: EngineEventType;
  channelId: string;
  time: string;
  data: Record<string, unknown>;
}

export class EngineEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly clock: () => number) {
    // Every event-stream client subscribes here: the default limit of 10 is meaningless for us.
    this.emitter.setMaxListeners(0);
  }

  emit(channelId: string, type: EngineEventType, data: Record<string, unknown> = {}): void {
    const event: EngineEvent = { type, channelId, time: isoDate(this.clock()), data };
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
