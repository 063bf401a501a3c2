/**
 * The job queue (SQS queue autoabrJobs). A message only says "job <id> wants a worker"; everything else
 * is in DynamoDB. Whoever ends an attempt settles its message: delete (done, or failed for good),
 * release (retry later) or dead-letter (retries exhausted: kept in `<queue>-dlq` for an operator).
 */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';

export interface ReceivedJob {
  /** undefined when the body is not a job message (it is then dead-lettered). */
  jobId: string | undefined;
  body: string;
  receiptHandle: string;
}

export interface JobQueue {
  send(jobId: string, delaySeconds?: number): Promise<void>;
  receive(max: number, leaseSeconds: number): Promise<ReceivedJob[]>;
  /** Keeps a message invisible for another `leaseSeconds` from now (the worker's heartbeat). */
  extend(receiptHandle: string, leaseSeconds: number): Promise<void>;
  /** Makes a message visible again after `delaySeconds`. */
  release(receiptHandle: string, delaySeconds: number): Promise<void>;
  delete(receiptHandle: string): Promise<void>;
  deadLetter(receiptHandle: string, body: string, reason: string): Promise<void>;
}

export const jobMessage = (jobId: string): string => JSON.stringify({ jobId });

export function parseJobMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { jobId?: unknown };
    return typeof parsed.jobId === 'string' && parsed.jobId ? parsed.jobId : undefined;
  } catch {
    return undefined;
  }
}

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
