/**
 * Channels in DynamoDB (table `channels` of resources.ts). A create is one transaction: put the channel
 * (its name must be free in the whole deployment) and increment the tenant's counter only while it is
 * below the tenant's limit. Concurrent creates therefore can never exceed the limit, and a refused create
 * writes nothing. A delete decrements the counter in the same transaction.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../../core/dynamo';
import { conflict, forbidden, notFound } from '../../core/errors';
import { tableName, tables } from '../../core/resources';
import type { ChannelType } from './channel-schema';

export interface Channel {
  id: string;
  tenant: string;
  name: string;
  type: ChannelType;
  url: string;
  opts?: { preroll?: { url: string; duration: string } };
  createdAt: number;
}

const channelKey = (name: string) => ({ pk: `CHANNEL#${name}`, sk: 'CHANNEL' });
const counterKey = (tenant: string) => ({ pk: `TENANT#${tenant}`, sk: 'COUNTER' });

/** Concurrent transactions on one tenant counter conflict; DynamoDB asks the loser to retry. */
const MAX_ATTEMPTS = 12;
const backoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** Math.min(attempt, 5)));

function reasons(err: unknown): string[] | undefined {
  if (!(err instanceof TransactionCanceledException)) return undefined;
  return (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

function toChannel(item: Record<string, unknown>): Channel {
  const { id, tenant, name, type, url, opts, createdAt } = item as unknown as Channel;
  return { id, tenant, name, type, url, ...(opts ? { opts } : {}), createdAt };
}

export class ChannelStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table = tableName(tables.channels),
  ) {}

  async create(channel: Channel, maxChannels: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table,
                  Item: { ...channelKey(channel.name), kind: 'channel', ...channel },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: this.table,
                  Key: counterKey(channel.tenant),
                  UpdateExpression: 'SET channelCount = if_not_exists(channelCount, :zero) + :one',
                  ConditionExpression: 'attribute_not_exists(channelCount) OR channelCount < :max',
                  ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': maxChannels },
                },
              },
            ],
          }),
        );
        return;
      } catch (err) {
        const codes = reasons(err);
        if (!codes) throw err;
        if (codes[0] === 'ConditionalCheckFailed')
          throw conflict(`a channel named "${channel.name}" already exists`);
        if (codes[1] === 'ConditionalCheckFailed') {
          throw forbidden('channel_limit', `this token allows at most ${maxChannels} channel(s)`);
        }
        if (attempt >= MAX_ATTEMPTS || !codes.includes('TransactionConflict')) throw err;
        await backoff(attempt);
      }
    }
  }

  /** Removes the tenant's channel `name`; 404 when it does not exist or belongs to another tenant. */
  async delete(tenant: string, name: string): Promise<Channel> {
    for (let attempt = 1; ; attempt++) {
      try {
        const existing = await this.get(name);
        if (!existing || existing.tenant !== tenant) throw notFound(`no channel ${tenant}-${name}`);
        await this.ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: this.table,
                  Key: channelKey(name),
                  ConditionExpression: 'tenant = :tenant',
                  ExpressionAttributeValues: { ':tenant': tenant },
                },
              },
              {
                Update: {
                  TableName: this.table,
                  Key: counterKey(tenant),
                  UpdateExpression: 'SET channelCount = channelCount - :one',
                  ConditionExpression: 'channelCount > :zero',
                  ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
                },
              },
            ],
          }),
        );
        return existing;
      } catch (err) {
        const codes = reasons(err);
        if (!codes) throw err;
        if (codes[0] === 'ConditionalCheckFailed') throw notFound(`no channel ${tenant}-${name}`);
        if (attempt >= MAX_ATTEMPTS || !codes.includes('TransactionConflict')) throw err;
        await backoff(attempt);
      }
    }
  }

  async get(name: string): Promise<Channel | undefined> {
    const res = await this.ddb.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': channelKey(name).pk, ':sk': 'CHANNEL' },
        ConsistentRead: true,
      }),
    );
    return res.Items?.[0] ? toChannel(res.Items[0]) : undefined;
  }

  async listByTenant(tenant: string): Promise<Channel[]> {
    return this.queryAll('byTenant', 'tenant', tenant);
  }

  /** Every channel of the deployment (the engine fleet's channel manager). */
  async listAll(): Promise<Channel[]> {
    return this.queryAll('byKind', 'kind', 'channel');
  }

  private async queryAll(index: string, key: string, value: string): Promise<Channel[]> {
    const items = await queryAll(this.ddb, {
      TableName: this.table,
      IndexName: index,
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': value },
    });
    return items.map(toChannel);
  }
}
