/**
 * The as-run table (`asRun` of core/resources.ts): one item per entry, keyed by the engine's channel id
 * and the entry's start. Engines write, in batches (every task the same entries: a put of the same item
 * is harmless), the APIs read a channel's range a page at a time, the billing export reads a day through
 * the `byDay` index. Items expire by TTL `retentionDays` after they end.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { batchPut, queryPage } from '../dynamo/queries';
import type { Page, PageRequest } from '../paging';
import type { AsRunEntry } from './asrun-entry';

const DAY_MS = 86_400_000;

/** The UTC day an instant falls on, `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** `byDay`'s sort key: channel then start, so a day's entries come channel by channel, in order. */
const channelStart = (channelId: string, startMs: number): string =>
  `${channelId}#${String(startMs).padStart(15, '0')}`;

/** A channel's range: the cursor can only continue inside the caller's channel and range. */
export const ASRUN_KEY = ['channelId', 'startMs'] as const;
export const asRunPageKey = (channelId: string, fromMs: number, toMs: number) =>
  z.object({ channelId: z.literal(channelId), startMs: z.number().int().gte(fromMs).lt(toMs) }).strict();

/** A day's entries of every channel (the billing export). */
const DAY_KEY = ['channelId', 'startMs', 'day', 'channelStart'] as const;

/** An entry with the channel it aired on. */
export interface ChannelEntry {
  channelId: string;
  entry: AsRunEntry;
}

export interface AsRunStore {
  /** Entries of any channels, written in batches of 25 whatever their channel (an engine writes many at once). */
  put(entries: readonly ChannelEntry[]): Promise<void>;
  /** Entries that started in [fromMs, toMs), oldest first. */
  range(
    channelId: string,
    fromMs: number,
    toMs: number,
    page: PageRequest<Record<string, string | number>>,
  ): Promise<Page<AsRunEntry>>;
  /** Every channel's entries that started on a UTC day, channel by channel. */
  day(day: string, page: PageRequest<Record<string, string | number>>): Promise<Page<ChannelEntry>>;
}

const ENTRY_FIELDS = [
  'startMs',
  'endMs',
  'durationMs',
  'kind',
  'id',
  'title',
  'eventId',
  'reason',
  'adBreak',
  'live',
] as const;

function toEntry(item: Record<string, unknown>): AsRunEntry {
  const entry: Record<string, unknown> = {};
  for (const f of ENTRY_FIELDS) if (item[f] !== undefined) entry[f] = item[f];
  return entry as unknown as AsRunEntry;
}

export function dynamoAsRunStore(ddb: DynamoDBDocumentClient, table: string, retentionDays = 30): AsRunStore {
  return {
    async put(entries) {
      await batchPut(
        ddb,
        table,
        entries.map(({ channelId, entry: e }) => ({
          ...e,
          channelId,
          day: utcDay(e.startMs),
          channelStart: channelStart(channelId, e.startMs),
          expiresAt: Math.ceil((e.endMs + retentionDays * DAY_MS) / 1000),
        })),
      );
    },
    async range(channelId, fromMs, toMs, { limit, after }) {
      const { items, next } = await queryPage(
        ddb,
        {
          TableName: table,
          KeyConditionExpression: 'channelId = :c AND startMs BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':c': channelId, ':from': fromMs, ':to': toMs - 1 },
        },
        { limit, after, keyAttributes: ASRUN_KEY },
      );
      return {
        items: items.map(toEntry),
        ...(next ? { next: next as Record<string, string | number> } : {}),
      };
    },
    async day(day, { limit, after }) {
      const { items, next } = await queryPage(
        ddb,
        {
          TableName: table,
          IndexName: 'byDay',
          KeyConditionExpression: '#day = :d',
          ExpressionAttributeNames: { '#day': 'day' },
          ExpressionAttributeValues: { ':d': day },
        },
        { limit, after, keyAttributes: DAY_KEY },
      );
      return {
        items: items.map((i) => ({ channelId: String(i.channelId), entry: toEntry(i) })),
        ...(next ? { next: next as Record<string, string | number> } : {}),
      };
    },
  };
}
