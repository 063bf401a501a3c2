/** Channel lifecycle events on the channel-events queue; the engine fleet's dispatcher consumes them. */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Channel } from './model';

export interface ChannelEvent {
  type: 'channel.created' | 'channel.deleted';
  channelId: string;
  name: string;
  tenant: string;
  at: string;
}

export interface ChannelEvents {
  publish(event: ChannelEvent): Promise<void>;
}

export const channelEvent = (type: ChannelEvent['type'], channel: Channel, nowMs: number): ChannelEvent => ({
  type,
  channelId: channel.id,
  name: channel.name,
  tenant: channel.tenant,
  at: new Date(nowMs).toISOString(),
});

export function sqsChannelEvents(sqs: SQSClient, queueUrl: string): ChannelEvents {
  return {
    async publish(event) {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
    },
  };
}
