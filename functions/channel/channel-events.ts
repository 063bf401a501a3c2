/** Channel lifecycle events on the channel-events queue; the engine fleet's dispatcher consumes them. */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface ChannelEvent {
  type: 'channel.created' | 'channel.deleted';
  channelId: string;
  name: string;
  tenant: string;
  at: string;
}

export class ChannelEvents {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async publish(event: ChannelEvent): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(event) }),
    );
  }
}
