/** `npm start`'s fleet dispatcher: long-polls the channel-events queue and logs each sizing decision. */
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { documentClient, sqsClient } from '../../core/aws';
import { logger } from '../../core/logger';
import { queues, queueUrl, tableName, tables } from '../../core/resources';
import { dynamoChannelStore } from '../channel/stores/channel-store';
import { fleetPolicyFromEnv } from './config';
import { type FleetDeps, sizeFleet } from './fleet-dispatcher';
import { type FleetSizer, LoggingFleetSizer } from './fleet-sizer';
import { dynamoScheduleChannelCount } from './schedule-channels';

export function startFleetDispatcher(sizer: FleetSizer = new LoggingFleetSizer()): { stop(): Promise<void> } {
  const deps: FleetDeps = {
    channels: dynamoChannelStore(documentClient(), tableName(tables.channels)),
    scheduleChannels: dynamoScheduleChannelCount(documentClient(), tableName(tables.scheduleChannels)),
    sizer,
    policy: fleetPolicyFromEnv(),
  };
  const url = queueUrl(queues.channelEvents);
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const res = await sqsClient().send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
          { abortSignal: abort.signal },
        );
        const messages = res.Messages ?? [];
        if (!messages.length) continue;
        const types = messages.map(
          (m) => (JSON.parse(m.Body ?? '{}') as { type?: string }).type ?? 'unknown',
        );
        await sizeFleet(deps, types.join(','));
        await sqsClient().send(
          new DeleteMessageBatchCommand({
            QueueUrl: url,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
      } catch (err) {
        if (abort.signal.aborted) break;
        logger.warn('fleet dispatcher poll failed; retrying', { err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
  return {
    stop: async () => {
      abort.abort();
      await loop;
    },
  };
}
