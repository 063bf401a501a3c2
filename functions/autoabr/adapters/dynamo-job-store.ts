/**
 * Jobs in DynamoDB (table autoabrJobs). Every write by a worker is conditional on the attempt it runs:
 * once an attempt is declared over (heartbeat timeout, retry), a late write from it fails instead of
 * resurrecting the job. The table also holds one pointer per job name (`id = name#<name>`, the latest
 * job of that name) so results can show that job's status and find its result bucket; pointers carry
 * no `status`, so they stay out of the byStatus index.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, queryAll, queryPage } from '../../../core/dynamo/queries';
import { ACTIVE_JOB_KEY, type ActiveJobKey, type JobItem, type JobStatus } from '../domain/job';
import type { ModelName } from '../domain/models';
import {
  CANCELLED,
  type CancelOutcome,
  type FinishOutcome,
  type JobPage,
  type JobPageKey,
  type JobStore,
} from '../ports/job-store';

/** Tenant ids hold no `/` (core/auth/tokens.ts TENANT_ID), job names no `/`: the keys cannot collide. */
const namePointer = (name: string, tenant?: string) =>
  tenant === undefined ? `name#${name}` : `name#${tenant}/${name}`;

export class DynamoJobStore implements JobStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(job: JobItem): Promise<void> {
    try {
      await this.ddb.send(
        new PutCommand({ TableName: this.table, Item: job, ConditionExpression: 'attribute_not_exists(id)' }),
      );
    } catch (err) {
      // The SDK retries a put whose answer timed out; when that first attempt landed, the retry finds
      // this very job (ids are random UUIDs): the job was created, and the request must say so.
      if (!isConditionFailure(err) || !(await this.holds(job))) throw err;
    }
    // The pointer only moves forward: a slower, older create never hides a newer job of the same name.
    try {
      await this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { id: namePointer(job.name, job.tenant), jobId: job.id, createdAt: job.createdAt },
          ConditionExpression: 'attribute_not_exists(id) OR createdAt <= :c',
          ExpressionAttributeValues: { ':c': job.createdAt },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  /** Whether the table holds this job as created (a retried create's own first attempt). */
  private async holds(job: JobItem): Promise<boolean> {
    const stored = await this.get(job.id);
    return stored?.createdAt === job.createdAt && stored.name === job.name && stored.tenant === job.tenant;
  }

  async get(id: string): Promise<JobItem | undefined> {
    const res = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { id }, ConsistentRead: true }),
    );
    const item = res.Item as JobItem | undefined;
    return item && typeof item.status === 'string' ? item : undefined;
  }

  async latestByName(name: string, tenant?: string): Promise<JobItem | undefined> {
    const res = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { id: namePointer(name, tenant) } }),
    );
    const jobId = res.Item?.jobId;
    return typeof jobId === 'string' ? this.get(jobId) : undefined;
  }

  async listActive(): Promise<JobItem[]> {
    return (await queryAll(this.ddb, this.activeQuery())) as unknown as JobItem[];
  }

  async pageActive({ limit, after }: { limit: number; after?: ActiveJobKey }): Promise<JobPage> {
    const page = await queryPage(this.ddb, this.activeQuery(), {
      limit,
      after,
      keyAttributes: ACTIVE_JOB_KEY,
    });
    return { items: page.items as unknown as JobItem[], next: page.next as ActiveJobKey | undefined };
  }

  async pageByStatus(status: JobStatus, { limit, after }: { limit: number; after?: JobPageKey }) {
    const page = await queryPage(
      this.ddb,
      {
        TableName: this.table,
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :status',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':status': status },
        ScanIndexForward: false,
      },
      { limit, after, keyAttributes: ACTIVE_JOB_KEY },
    );
    return { items: page.items as unknown as JobItem[], next: page.next as JobPageKey | undefined };
  }

  async cancel(seen: JobItem, now: number): Promise<CancelOutcome> {
    if (seen.status !== 'ACTIVE') return { refused: 'finished' };
    const cancelled = await this.update(
      seen.id,
      '#phase = :phase AND #attempts = :attempts',
      { status: 'INACTIVE', phase: 'FAILED', error: CANCELLED, finishedAt: now, updatedAt: now },
      { ':phase': seen.phase, ':attempts': seen.attempts },
      ['receiptHandle'],
    );
    return cancelled ? { cancelled } : { refused: 'moved' };
  }

  private activeQuery() {
    return {
      TableName: this.table,
      IndexName: 'byStatus',
      KeyConditionExpression: '#s = :active',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':active': 'ACTIVE' },
    };
  }

  /**
   * SET/REMOVE on dotted paths (`progress.done`) under a condition; the item after the update, or
   * undefined when the condition did not hold.
   */
  private async update(
    id: string,
    condition: string,
    set: Record<string, unknown>,
    conditionValues: Record<string, unknown> = {},
    remove: string[] = [],
  ): Promise<JobItem | undefined> {
    const names: Record<string, string> = {};
    const path = (dotted: string) =>
      dotted
        .split('.')
        .map((part) => {
          const alias = `#${part}`;
          names[alias] = part;
          return alias;
        })
        .join('.');
    for (const alias of condition.match(/#\w+/g) ?? []) names[alias] = alias.slice(1);
    const values: Record<string, unknown> = { ...conditionValues };
    const sets = Object.entries(set).map(([k, v], i) => {
      values[`:v${i}`] = v;
      return `${path(k)} = :v${i}`;
    });
    const removes = remove.map(path);
    try {
      const res = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id },
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(id) AND ${condition}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return res.Attributes as JobItem;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  private running(id: string, attempt: number, set: Record<string, unknown>, remove: string[] = []) {
    return this.update(
      id,
      '#phase = :running AND #attempts = :attempt',
      set,
      { ':running': 'RUNNING', ':attempt': attempt },
      remove,
    );
  }

  claim(id: string, attempt: number, receiptHandle: string, now: number): Promise<JobItem | undefined> {
    return this.update(
      id,
      '#phase = :queued AND #attempts = :previous',
      {
        phase: 'RUNNING',
        attempts: attempt,
        startedAt: now,
        heartbeatAt: now,
        updatedAt: now,
        receiptHandle,
      },
      { ':queued': 'QUEUED', ':previous': attempt - 1 },
      ['worker'],
    );
  }

  async setWorker(id: string, attempt: number, worker: string): Promise<boolean> {
    return (await this.running(id, attempt, { worker })) !== undefined;
  }

  async heartbeat(id: string, attempt: number, now: number): Promise<boolean> {
    return (await this.running(id, attempt, { heartbeatAt: now })) !== undefined;
  }

  async setTotal(
    id: string,
    attempt: number,
    total: number,
    modelErrors: Partial<Record<ModelName, string>>,
    now: number,
  ): Promise<boolean> {
    return (
      (await this.running(id, attempt, {
        progress: { done: 0, total },
        modelErrors,
        heartbeatAt: now,
        updatedAt: now,
      })) !== undefined
    );
  }

  async progress(id: string, attempt: number, done: number, now: number): Promise<boolean> {
    return (
      (await this.running(id, attempt, { 'progress.done': done, heartbeatAt: now, updatedAt: now })) !==
      undefined
    );
  }

  async finish(id: string, attempt: number, outcome: FinishOutcome): Promise<boolean> {
    const set: Record<string, unknown> = {
      status: 'INACTIVE',
      phase: outcome.phase,
      finishedAt: outcome.now,
      updatedAt: outcome.now,
    };
    if (outcome.error !== undefined) set.error = outcome.error;
    const remove = outcome.error === undefined ? ['receiptHandle', 'error'] : ['receiptHandle'];
    return (await this.running(id, attempt, set, remove)) !== undefined;
  }

  async requeue(id: string, attempt: number, error: string, now: number): Promise<boolean> {
    return (
      (await this.running(id, attempt, { phase: 'QUEUED', error, updatedAt: now }, [
        'receiptHandle',
        'worker',
      ])) !== undefined
    );
  }

  async failQueued(id: string, error: string, now: number): Promise<boolean> {
    return (
      (await this.update(
        id,
        '#phase = :queued',
        { status: 'INACTIVE', phase: 'FAILED', error, finishedAt: now, updatedAt: now },
        { ':queued': 'QUEUED' },
      )) !== undefined
    );
  }
}
