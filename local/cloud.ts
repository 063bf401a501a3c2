/**
 * The local cloud: DynamoDB Local + fauxqs (S3, SQS) on loopback, provisioned from the same resource
 * definitions CDK deploys. Returns the environment that points the AWS SDK at it.
 */
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import { type Fauxqs, startFauxqs } from './fauxqs';
import { freePort } from './ports';
import { provision } from './provision';

export interface LocalCloudOptions {
  /** Folder for DynamoDB Local's files; omitted = in memory (a throwaway run). */
  dataDir?: string;
  ports?: { dynamodb?: number; fauxqs?: number };
}

export interface LocalCloud {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startLocalCloud(options: LocalCloudOptions = {}): Promise<LocalCloud> {
  const [ddbPort, fauxqsPort] = [
    options.ports?.dynamodb || (await freePort()),
    options.ports?.fauxqs || (await freePort()),
  ];
  let ddb: DynamoDbLocal | undefined;
  let fauxqs: Fauxqs | undefined;
  const stop = async () => {
    await Promise.allSettled([ddb?.stop(), fauxqs?.stop()]);
  };
  try {
    [ddb, fauxqs] = await Promise.all([
      startDynamoDbLocal(ddbPort, options.dataDir),
      startFauxqs(fauxqsPort),
    ]);
    const resources = await provision({ dynamodb: ddb.endpoint, s3: fauxqs.endpoint, sqs: fauxqs.endpoint });
    const env: Record<string, string> = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint,
      AWS_ENDPOINT_URL_S3: fauxqs.endpoint,
      AWS_ENDPOINT_URL_SQS: fauxqs.endpoint,
      ...resources,
    };
    return { env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
