/**
 * The rehearsal's local cloud: DynamoDB Local and fauxqs (S3, SQS) provisioned from the template, and the
 * SSM and Secrets Manager stand-ins. Returns the lookup that resolves the template to it.
 */
import { SSMClient } from '@aws-sdk/client-ssm';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { startFauxqs } from '../../local/fauxqs';
import {
  defaultLookup,
  type Overrides,
  type PhysicalLookup,
  type Template,
  withOverrides,
} from './interim-lookup';
import { provisionFromTemplate } from './provision-template';
import type { JsonService } from './stand-ins/json-service';
import { generatePassword, startSecretsManager } from './stand-ins/secrets-manager';
import { startSsm } from './stand-ins/ssm';
import type { Steps } from './steps';

export interface RehearsalCloud {
  account: string;
  region: string;
  /** Where each service really is (the recording proxy forwards here). */
  services: { dynamodb: string; s3: string; sqs: string; ssm: string; secretsmanager: string };
  overrides: Overrides;
  lookup(): PhysicalLookup;
  addOverrides(more: Overrides): void;
  secrets: Map<string, string>;
  standIns: JsonService[];
  /** An SSM client for the operator (outside the template's principals). */
  operatorSsm(): SSMClient;
}

export async function startRehearsalCloud(template: Template, steps: Steps): Promise<RehearsalCloud> {
  const account = '000000000000';
  const region = 'us-east-1';
  const [ddb, fauxqs] = await Promise.all([startDynamoDbLocal(), startFauxqs()]);
  steps.cleanup('DynamoDB Local', () => ddb.stop());
  steps.cleanup('fauxqs', () => fauxqs.stop());
  const base = defaultLookup(template, { account, region });
  const overrides: Overrides = await provisionFromTemplate(
    template,
    { dynamodb: ddb.endpoint, s3: fauxqs.endpoint, sqs: fauxqs.endpoint },
    base,
    { account, region },
  );
  const secrets = new Map<string, string>();
  for (const [id, r] of Object.entries(template.Resources)) {
    if (r.Type !== 'AWS::SecretsManager::Secret') continue;
    const spec = (r.Properties?.GenerateSecretString ?? {}) as Parameters<typeof generatePassword>[0];
    secrets.set(base.ref(id), generatePassword(spec));
  }
  const ssm = await startSsm({ account, region });
  steps.cleanup('SSM stand-in', () => ssm.close());
  const secretsManager = await startSecretsManager(secrets);
  steps.cleanup('Secrets Manager stand-in', () => secretsManager.close());
  return {
    account,
    region,
    services: {
      dynamodb: ddb.endpoint,
      s3: fauxqs.endpoint,
      sqs: fauxqs.endpoint,
      ssm: ssm.url,
      secretsmanager: secretsManager.url,
    },
    overrides,
    lookup: () => withOverrides(base, overrides),
    addOverrides: (more) => Object.assign(overrides, more),
    secrets,
    standIns: [ssm, secretsManager],
    operatorSsm: () =>
      new SSMClient({
        region,
        endpoint: ssm.url,
        credentials: { accessKeyId: 'operator', secretAccessKey: 'x' },
      }),
  };
}
