/**
 * What invokes the non-API functions in AWS, rehearsed: EventBridge rate() rules (faster than their
 * rate, REHEARSAL_TICK_MS, so a run takes minutes, not hours) and SQS event source mappings (polled as
 * Lambda's poller does, with the function's role, and the batch deleted when the handler succeeds).
 * Invocations of one function never overlap. Handler errors are collected by the function's process.
 */
import { randomUUID } from 'node:crypto';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { PhysicalLookup } from '../iam/template';
import type { LambdaFunction } from './functions';
import type { LambdaProcess } from './process';

export const REHEARSAL_TICK_MS = 10_000;

export interface Triggers {
  /** Invocations so far, by function id. */
  counts: Map<string, number>;
  /** Runs every schedule once now and waits for it (a journey that needs the next tick now). */
  tickNow(functionId: string): Promise<void>;
  stop(): Promise<void>;
}

export function scheduledEvent(ruleArn: string, account: string, region: string): unknown {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account,
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [ruleArn],
    detail: {},
  };
}

export function startTriggers(options: {
  functions: LambdaFunction[];
  running: Map<string, LambdaProcess>;
  lookup: PhysicalLookup;
  account: string;
  region: string;
  /** The SQS endpoint the poller calls (the recording proxy), as the function's role. */
  sqsEndpoint: string;
}): Triggers {
  const { functions, running, lookup, account, region, sqsEndpoint } = options;
  const counts = new Map<string, number>();
  const timers: NodeJS.Timeout[] = [];
  const busy = new Map<string, Promise<void>>();
  const clients: SQSClient[] = [];
  let stopped = false;
  // One invocation at a time per function: the next waits for the one before.
  const serial = (id: string, work: () => Promise<void>): Promise<void> => {
    const next = (busy.get(id) ?? Promise.resolve()).then(work, work);
    busy.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  };
  const invoke = async (fn: LambdaFunction, event: unknown) => {
    counts.set(fn.id, (counts.get(fn.id) ?? 0) + 1);
    await running.get(fn.id)?.invoke(event, 120_000);
  };
  const schedule = (fn: LambdaFunction) => () =>
    serial(fn.id, async () => {
      for (const s of fn.schedules)
        await invoke(fn, scheduledEvent(lookup.getAtt(s.ruleId, 'Arn'), account, region));
    }).catch(() => undefined); // recorded as a handler error by the process
  for (const fn of functions) {
    if (fn.schedules.length === 0) continue;
    timers.push(setInterval(schedule(fn), REHEARSAL_TICK_MS));
  }
  const pollers = functions.flatMap((fn) =>
    fn.queues.map(async ({ queueId, batchSize }) => {
      const sqs = new SQSClient({
        region,
        endpoint: sqsEndpoint,
        credentials: { accessKeyId: fn.roleId, secretAccessKey: 'rehearsal' },
      });
      clients.push(sqs);
      const QueueUrl = lookup.ref(queueId);
      const eventSourceARN = lookup.getAtt(queueId, 'Arn');
      while (!stopped) {
        const received = await sqs
          .send(
            new ReceiveMessageCommand({
              QueueUrl,
              MaxNumberOfMessages: batchSize,
              WaitTimeSeconds: 1,
              MessageSystemAttributeNames: ['All'],
            }),
          )
          .catch(() => undefined);
        const messages = received?.Messages ?? [];
        if (messages.length === 0 || stopped) continue;
        const event = {
          Records: messages.map((m) => ({
            messageId: m.MessageId,
            receiptHandle: m.ReceiptHandle,
            body: m.Body,
            attributes: m.Attributes ?? {},
            messageAttributes: m.MessageAttributes ?? {},
            md5OfBody: m.MD5OfBody,
            eventSource: 'aws:sqs',
            eventSourceARN,
            awsRegion: region,
          })),
        };
        const ok = await serial(fn.id, () => invoke(fn, event)).then(
          () => true,
          () => false,
        );
        if (ok)
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl,
              Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          );
      }
    }),
  );
  return {
    counts,
    tickNow: (id) => {
      const fn = functions.find((f) => f.id === id);
      if (!fn) throw new Error(`no function ${id}`);
      return serial(fn.id, async () => {
        for (const s of fn.schedules)
          await invoke(fn, scheduledEvent(lookup.getAtt(s.ruleId, 'Arn'), account, region));
      });
    },
    stop: async () => {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...pollers, ...busy.values()]);
      for (const c of clients) c.destroy();
    },
  };
}
