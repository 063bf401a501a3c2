/**
 * What an operator may set per deployment besides the stage, as CDK context (`-c key=value` or cdk.json), read and
 * checked once, before any resource is made, so a typo fails the synth with the key's name.
 *   autoabrBuckets       comma-separated S3 buckets AutoABR may read references/settings from and write
 *                        results to, beyond its own bucket
 *   playbackDomain       a custom playback host name, with playbackCertificateArn (ACM, us-east-1):
 *                        viewers then get TLS 1.2+ (the default CloudFront domain cannot be held to it)
 *   alarmEmail           an address subscribed to the alarm topic
 *   consoleOrigins       comma-separated https origins allowed (CORS) besides the console's own
 *                        (the playback CloudFront, where /console/ is served)
 *   engineCpu/engineMemory, workerCpu/workerMemory   Fargate sizes (validated pairs)
 *   apiRateLimit/apiBurstLimit   API Gateway throttling of each API's $default stage (requests/s and
 *                        burst), by default API_THROTTLE[stage]
 *   asRunRetentionDays   days the as-run log is kept in DynamoDB (its TTL), by default ASRUN_RETENTION_DAYS[stage]
 *   timeshiftRetentionHours   how far back start-over and catch-up reach (the playout log's TTL), 24 by default
 */
import { type FargateSize, fargateSize } from './fargate-size';

export type Stage = 'test' | 'prod';

export interface ApiThrottle {
  /** Steady requests per second, per API. */
  rateLimit: number;
  /** Requests admitted at once above the steady rate. */
  burstLimit: number;
}

/**
 * Each API's default throttling per stage: far below the account's API Gateway quota (10,000 rps per
 * region, shared by every API of the account), so one runaway client cannot use it all up.
 */
export const API_THROTTLE: Record<Stage, ApiThrottle> = {
  test: { rateLimit: 50, burstLimit: 100 },
  prod: { rateLimit: 500, burstLimit: 1000 },
};

/** Days the as-run log stays queryable (the daily CSV files in S3 are kept beyond). */
export const ASRUN_RETENTION_DAYS: Record<Stage, number> = { test: 7, prod: 90 };

export interface StackConfig {
  stage: Stage;
  autoabrBuckets: string[];
  playbackDomain?: { domainName: string; certificateArn: string };
  /** Origins the APIs allow besides the console's own (CORS). */
  consoleOrigins: string[];
  alarmEmail?: string;
  engineSize: FargateSize;
  workerSize: FargateSize;
  apiThrottle: ApiThrottle;
  asRunRetentionDays: number;
  timeshiftRetentionHours: number;
}

/** Reads one context value: a string from the command line, any JSON value from cdk.json. */
export type ContextReader = (key: string) => unknown;

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function list(value: unknown): string[] {
  if (value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return items.map((s) => s.trim()).filter(Boolean);
}

function optionalString(read: ContextReader, key: string, pattern: RegExp, what: string) {
  const value = read(key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !pattern.test(value))
    throw new Error(`context ${key} must be ${what}, got ${JSON.stringify(value)}`);
  return value;
}

function integer(read: ContextReader, key: string, fallback: number): number {
  const value = read(key);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new Error(`context ${key} must be an integer, got ${JSON.stringify(value)}`);
  return n;
}

function size(read: ContextReader, prefix: string, cpu: number, memory: number): FargateSize {
  return fargateSize(integer(read, `${prefix}Cpu`, cpu), integer(read, `${prefix}Memory`, memory));
}

function apiThrottle(read: ContextReader, stage: Stage): ApiThrottle {
  const rateLimit = integer(read, 'apiRateLimit', API_THROTTLE[stage].rateLimit);
  const burstLimit = integer(read, 'apiBurstLimit', API_THROTTLE[stage].burstLimit);
  if (rateLimit < 1 || burstLimit < 1)
    throw new Error(
      `context apiRateLimit and apiBurstLimit must be at least 1, got ${rateLimit}/${burstLimit}`,
    );
  return { rateLimit, burstLimit };
}

function asRunRetention(read: ContextReader, stage: Stage): number {
  const days = integer(read, 'asRunRetentionDays', ASRUN_RETENTION_DAYS[stage]);
  if (days < 1 || days > 3650) throw new Error(`context asRunRetentionDays must be 1..3650, got ${days}`);
  return days;
}

function timeshiftRetention(read: ContextReader): number {
  const hours = integer(read, 'timeshiftRetentionHours', 24);
  if (hours < 1 || hours > 2160)
    throw new Error(`context timeshiftRetentionHours must be 1..2160, got ${hours}`);
  return hours;
}

export function stackConfig(stage: Stage, read: ContextReader): StackConfig {
  const autoabrBuckets = list(read('autoabrBuckets'));
  const badBucket = autoabrBuckets.find((b) => !BUCKET.test(b));
  if (badBucket) throw new Error(`context autoabrBuckets: "${badBucket}" is not an S3 bucket name`);
  const domainName = optionalString(read, 'playbackDomain', HOST, 'a host name');
  const certificateArn = optionalString(
    read,
    'playbackCertificateArn',
    CERTIFICATE,
    'an ACM ARN in us-east-1',
  );
  if (Boolean(domainName) !== Boolean(certificateArn))
    throw new Error('context playbackDomain and playbackCertificateArn go together');
  const alarmEmail = optionalString(read, 'alarmEmail', EMAIL, 'an email address');
  const consoleOrigins = list(read('consoleOrigins'));
  const badOrigin = consoleOrigins.find((o) => !/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(o));
  if (badOrigin) throw new Error(`context consoleOrigins: "${badOrigin}" is not an https origin`);
  return {
    stage,
    autoabrBuckets,
    consoleOrigins,
    ...(domainName && certificateArn ? { playbackDomain: { domainName, certificateArn } } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    engineSize: size(read, 'engine', 1024, 2048),
    workerSize: size(read, 'worker', 4096, 8192),
    apiThrottle: apiThrottle(read, stage),
    asRunRetentionDays: asRunRetention(read, stage),
    timeshiftRetentionHours: timeshiftRetention(read),
  };
}
