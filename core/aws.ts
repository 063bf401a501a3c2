/**
 * AWS SDK v3 clients, created once per process. Endpoints come from the SDK's standard
 * `AWS_ENDPOINT_URL_<SERVICE>` variables, so the same code talks to AWS or to the local cloud.
 * S3 uses path-style addressing whenever a custom endpoint is configured (S3-compatible stores
 * rarely resolve virtual-host bucket names).
 *
 * Every client is bounded in time (awsTimeouts): a store that is frozen or gone fails a call within
 * about maxAttempts x requestTimeout instead of hanging the request until Lambda kills it, and the
 * HTTP edge turns that failure into a retryable 503 (core/store-errors.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readInt } from './env';

export interface AwsTimeouts {
  /** AWS_CONNECT_TIMEOUT_MS: to open a connection. */
  connectionTimeoutMs: number;
  /** AWS_REQUEST_TIMEOUT_MS: from sending a call to its answer's headers; also the longest silence mid-answer. */
  requestTimeoutMs: number;
  /** AWS_MAX_ATTEMPTS: tries per call, the first included (the SDK retries network errors, throttling, 5xx). */
  maxAttempts: number;
}

/**
 * Defaults keep the worst case of one call (2 x 4 s, plus the SDK's sub-second backoff) far inside the
 * API Lambdas' 29 s, and leave room for the calls a request makes after a slow one.
 */
export function awsTimeouts(env: Record<string, string | undefined> = process.env): AwsTimeouts {
  return {
    connectionTimeoutMs: readInt('AWS_CONNECT_TIMEOUT_MS', 1000, { min: 100, max: 10_000 }, env),
    requestTimeoutMs: readInt('AWS_REQUEST_TIMEOUT_MS', 4000, { min: 100, max: 20_000 }, env),
    maxAttempts: readInt('AWS_MAX_ATTEMPTS', 2, { min: 1, max: 5 }, env),
  };
}

/**
 * The bounded configuration every client gets. `streaming` clients (S3: objects of any size) are
 * bounded by connection and silence only, because a whole large upload may rightly take longer than
 * a request timeout; a frozen server is silent, so it still fails within requestTimeoutMs.
 */
export function awsClientConfig(options: { streaming?: boolean } = {}, timeouts = awsTimeouts()) {
  const { connectionTimeoutMs, requestTimeoutMs, maxAttempts } = timeouts;
  const whole = options.streaming ? {} : { requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true };
  return {
    maxAttempts,
    requestHandler: { connectionTimeout: connectionTimeoutMs, socketTimeout: requestTimeoutMs, ...whole },
  };
}

/**
 * Region and credentials for a service whose settings say other than the SDK's defaults; `{}` is the
 * defaults. Passed to the client, never written into the environment (which every service shares).
 */
export interface ClientSettings {
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** A profile of the shared credentials file; the SDK then skips credentials from the environment. */
  profile?: string;
}

let ddb: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let s3: S3Client | undefined;
let ssm: SSMClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  ddb ??= createDocumentClient();
  return ddb;
}

/**
 * A long poll (ReceiveMessage with WaitTimeSeconds) is silent while it waits: its wait must stay below
 * AWS_REQUEST_TIMEOUT_MS, or the call must pass its own `requestTimeout` to send().
 */
export function sqsClient(): SQSClient {
  sqs ??= createSqsClient();
  return sqs;
}

export function s3Client(): S3Client {
  s3 ??= createS3Client();
  return s3;
}

export function ssmClient(): SSMClient {
  ssm ??= new SSMClient(awsClientConfig());
  return ssm;
}

/** A client of its own, for a service with its own settings (otherwise use `documentClient()`). */
export function createDocumentClient(settings: ClientSettings = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({ ...awsClientConfig(), ...settings }), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

export function createSqsClient(settings: ClientSettings = {}): SQSClient {
  // With a custom endpoint, send there rather than to the host inside each queue URL.
  return new SQSClient({
    ...awsClientConfig(),
    ...settings,
    useQueueUrlAsEndpoint: !(process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL),
  });
}

export function createS3Client(settings: ClientSettings = {}): S3Client {
  return new S3Client({
    ...awsClientConfig({ streaming: true }),
    ...settings,
    forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL),
  });
}
