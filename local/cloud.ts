/**
 * The local cloud: DynamoDB Local + fauxqs (S3, SQS) on loopback, provisioned from the same resource
 * definitions CDK deploys. Returns the environment that points the AWS SDK at it.
 */
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import { type Fauxqs, startFauxqs } from './fauxqs';
import { provision } from './provision';

export interface LocalCloudOptions {
  /** Folder for DynamoDB Local's files; omitted = in memory (a throwaway run). */
  dataDir?: string;
  /** Omitted or 0 = any free port (found without races, see local/ports.ts). */
  ports?: { dynamodb?: number; fauxqs?: number };
}

export interface LocalCloudEndpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

export interface LocalCloud {
  endpoints: LocalCloudEndpoints;
  /** AWS_* endpoints and credentials, and the names of every table, queue and bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startLocalCloud(options: LocalCloudOptions = {}): Promise<LocalCloud> {
  let ddb: DynamoDbLocal | undefined;
  let fauxqs: Fauxqs | undefined;
  const stop = async () => {
    await Promise.allSettled([ddb?.stop(), fauxqs?.stop()]);
  };
  try {
    // Both are started before either failure is looked at, so stop() can reach whichever did start.
    const [ddbStart, fauxqsStart] = await Promise.allSettled([
      startDynamoDbLocal({ port: options.ports?.dynamodb, dataDir: options.dataDir }),
      startFauxqs(options.ports?.fauxqs),
    ]);
    if (ddbStart.status === 'fulfilled') ddb = ddbStart.value;
    if (fauxqsStart.status === 'fulfilled') fauxqs = fauxqsStart.value;
    if (ddbStart.status === 'rejected') throw ddbStart.reason;
    if (fauxqsStart.status === 'rejected') throw fauxqsStart.reason;
    const endpoints = { dynamodb: ddb!.endpoint, s3: fauxqs!.endpoint, sqs: fauxqs!.endpoint };
    const resources = await provision(endpoints);
    const env: Record<string, string> = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      ...resources,
    };
    return { endpoints, env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
