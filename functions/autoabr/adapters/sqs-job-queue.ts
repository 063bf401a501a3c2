/**
 * The job queue on SQS (queue autoabrJobs); dead letters go to `<queue>-dlq` with the reason as a
 * message attribute.
 */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { jobMessage, parseJobMessage } from '../domain/job-message';
import type { JobQueue, ReceivedJob } from '../ports/job-queue';

/** The DLQ next to a queue: provisioning names it `<queue>-dlq` (locally and in the CDK stack). */
export const deadLetterUrl = (queueUrl: string): string => `${queueUrl}-dlq`;

export class SqsJobQueue implements JobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly url: string,
    private readonly dlqUrl: string = deadLetterUrl(url),
  ) {}

  async send(jobId: string, delaySeconds = 0): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.url,
        MessageBody: jobMessage(jobId),
        DelaySeconds: delaySeconds,
      }),
    );
  }

  async receive(max: number, leaseSeconds: number): Promise<ReceivedJob[]> {
    const res = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.url,
        MaxNumberOfMessages: Math.max(1, Math.min(10, max)),
        VisibilityTimeout: leaseSeconds,
        WaitTimeSeconds: 0,
      }),
    );
    return (res.Messages ?? [])
      .filter((m) => m.ReceiptHandle)
      .map((m) => ({
        jobId: parseJobMessage(m.Body ?? ''),
        body: m.Body ?? '',
        receiptHandle: m.ReceiptHandle!,
      }));
  }

  async extend(receiptHandle: string, leaseSeconds: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.url,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: leaseSeconds,
      }),
    );
  }

  async release(receiptHandle: string, delaySeconds: number): Promise<void> {
    await this.extend(receiptHandle, delaySeconds);
  }

  async delete(receiptHandle: string): Promise<void> {
    await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.url, ReceiptHandle: receiptHandle }));
  }

  async deadLetter(receiptHandle: string, body: string, reason: string): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.dlqUrl,
        MessageBody: body,
        MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
      }),
    );
    await this.delete(receiptHandle);
  }
}
