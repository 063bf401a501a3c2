/**
 * The daily billing export (functions/asrun/): the as-run table's entries of one UTC day, one CSV per
 * channel in the as-run bucket, on the local cloud (DynamoDB Local, fauxqs S3).
 */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRunCsv } from '../../core/asrun/asrun-csv';
import type { AsRunEntry } from '../../core/asrun/asrun-entry';
import { dynamoAsRunStore } from '../../core/asrun/asrun-store';
import { documentClient, s3Client } from '../../core/aws';
import { bucketName, buckets, tableName, tables } from '../../core/resources';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';

let cloud: LocalCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, 120_000);

afterAll(async () => {
  await cloud?.stop();
});

const DAY = Date.UTC(2026, 10, 25);
const entry = (startMs: number, durationMs: number, kind: AsRunEntry['kind'], id: string): AsRunEntry => ({
  startMs,
  endMs: startMs + durationMs,
  durationMs,
  kind,
  id,
  title: `Title of ${id}, "quoted"`,
});

async function read(key: string): Promise<string> {
  const obj = await s3Client().send(new GetObjectCommand({ Bucket: bucketName(buckets.asRun), Key: key }));
  return obj.Body!.transformToString();
}

describe('the daily as-run export', () => {
  it('writes one CSV per channel with the entries that started that UTC day, and nothing of the next day', async () => {
    const store = dynamoAsRunStore(documentClient(), tableName(tables.asRun));
    const news = [
      entry(DAY + 1000, 6000, 'preroll', 'ad-1'),
      entry(DAY + 7000, 600_000, 'vod', 'ep-1'),
      entry(DAY + 86_399_000, 60_000, 'vod', 'ep-2'),
    ];
    const tv = [entry(DAY + 3_600_000, 1_800_000, 'live', 'match')];
    const of = (channelId: string, entries: AsRunEntry[]) => entries.map((e) => ({ channelId, entry: e }));
    await store.put([
      ...of('news', [...news, entry(DAY + 86_400_000, 60_000, 'vod', 'tomorrow')]),
      ...of('dGVuYW50~tv', tv),
    ]);
    const { handler } = await import('../../functions/asrun/export-handler');

    expect(await handler({ day: '2026-11-25' })).toEqual({ day: '2026-11-25', channels: 2, entries: 4 });

    expect(await read('asrun/2026-11-25/news.csv')).toBe(asRunCsv('news', news));
    expect(await read('asrun/2026-11-25/dGVuYW50~tv.csv')).toBe(asRunCsv('dGVuYW50~tv', tv));
    const listed = await s3Client().send(
      new ListObjectsV2Command({ Bucket: bucketName(buckets.asRun), Prefix: 'asrun/' }),
    );
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
      'asrun/2026-11-25/dGVuYW50~tv.csv',
      'asrun/2026-11-25/news.csv',
    ]);
  });

  it('quotes titles with commas and quotes as RFC 4180 says', () => {
    const csv = asRunCsv('news', [entry(DAY, 1000, 'vod', 'ep, 1')]);
    expect(csv.split('\n')[1]).toContain('"ep, 1","Title of ep, 1, ""quoted"""');
  });
});
