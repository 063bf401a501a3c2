/**
 * The local cloud: DynamoDB Local + fauxqs (S3, SQS) on loopback, provisioned from the same resource
 * definitions CDK deploys. Returns the environment that points the AWS SDK at it.
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localName, tables } from '../core/resources';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import { type Fauxqs, startFauxqs } from './fauxqs';
import { provision } from './provision';

export interface LocalCloudOptions {
  /** Folder for DynamoDB Local's files; omitted = in memory (a throwaway run). */
  dataDir?: string;
  /** Omitted or 0 = any free port (found without races, see local/ports.ts). */
  ports?: { dynamodb?: number; fauxqs?: number };
  /**
   * A DynamoDB Local already running, shared with other clouds (the test run's one, so its JVM starts
   * once per run rather than once per file): this cloud's tables carry `tablePrefix` and are deleted by
   * stop(). Omitted = a DynamoDB Local of its own.
   */
  sharedDynamoDb?: SharedDynamoDb;
}

export interface SharedDynamoDb {
  endpoint: string;
  tablePrefix: string;
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
  let ddb: Pick<DynamoDbLocal, 'endpoint' | 'stop'> | undefined;
  let fauxqs: Fauxqs | undefined;
  const stop = async () => {
    await Promise.allSettled([ddb?.stop(), fauxqs?.stop()]);
  };
  const { sharedDynamoDb } = options;
  try {
    // Both are started before either failure is looked at, so stop() can reach whichever did start.
    const [ddbStart, fauxqsStart] = await Promise.allSettled([
      sharedDynamoDb
        ? Promise.resolve(sharedTables(sharedDynamoDb))
        : startDynamoDbLocal({ port: options.ports?.dynamodb, dataDir: options.dataDir }),
      startFauxqs(options.ports?.fauxqs),
    ]);
    if (ddbStart.status === 'fulfilled') ddb = ddbStart.value;
    if (fauxqsStart.status === 'fulfilled') fauxqs = fauxqsStart.value;
    if (ddbStart.status === 'rejected') throw ddbStart.reason;
    if (fauxqsStart.status === 'rejected') throw fauxqsStart.reason;
    const endpoints = { dynamodb: ddb!.endpoint, s3: fauxqs!.endpoint, sqs: fauxqs!.endpoint };
    const resources = await provision(endpoints, sharedDynamoDb?.tablePrefix);
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

/** The shared DynamoDB Local as this cloud sees it: stopping it deletes this cloud's tables only. */
function sharedTables({ endpoint, tablePrefix }: SharedDynamoDb): Pick<DynamoDbLocal, 'endpoint' | 'stop'> {
  const stop = async () => {
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      // A table provisioning never reached is not there: that is no failure.
      await Promise.allSettled(
        Object.values(tables).map((t) =>
          client.send(new DeleteTableCommand({ TableName: tablePrefix + localName(t.id) })),
        ),
      );
    } finally {
      client.destroy();
    }
  };
  return { endpoint, stop };
}
