/**
 * Lambda entry of the daily as-run export, invoked by an EventBridge rule after midnight UTC: the
 * previous day's billing files (daily-export.ts) into the as-run bucket. `{"day": "YYYY-MM-DD"}` in
 * the event exports that day instead (a re-run by hand).
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { dynamoAsRunStore } from '../../core/asrun/asrun-store';
import { documentClient, s3Client } from '../../core/aws';
import { logger } from '../../core/logger';
import { bucketName, buckets, tableName, tables } from '../../core/resources';
import { type CsvWriter, exportDay, previousUtcDay } from './daily-export';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function s3CsvWriter(bucket = bucketName(buckets.asRun)): CsvWriter {
  const s3 = s3Client();
  return {
    async put(key, csv) {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: csv, ContentType: 'text/csv; charset=utf-8' }),
      );
    },
  };
}

export async function handler(
  event: { day?: unknown } = {},
): Promise<{ day: string; channels: number; entries: number }> {
  const day = typeof event.day === 'string' && DAY.test(event.day) ? event.day : previousUtcDay(Date.now());
  const store = dynamoAsRunStore(documentClient(), tableName(tables.asRun));
  const result = await exportDay(store, s3CsvWriter(), day);
  logger.info('as-run exported', { day, ...result });
  return { day, ...result };
}
