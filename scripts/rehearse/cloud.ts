/**
 * The rehearsal's local cloud: DynamoDB Local and fauxqs (S3, SQS) provisioned from the template, and the
 * SSM and Secrets Manager stand-ins. Returns the lookup that resolves the template to it.
 */
import { SSMClient } from '@aws-sdk/client-ssm';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { startFauxqs } from '../../local/fauxqs';
import { defaultLookup, withOverrides } from './iam/default-lookup';
import type { AwsEnv } from './iam/record/aws-env';
import type { CfnResource, CfnTemplate, PhysicalLookup } from './iam/template';
import { provisionFromTemplate } from './provision-template';
import type { JsonService } from './stand-ins/json-service';
import { generatePassword, startSecretsManager } from './stand-ins/secrets-manager';
import { startSsm } from './stand-ins/ssm';
import type { Steps } from './steps';

/** A template as the rehearsal reads it: with each resource's Metadata (the asset path of a bundle). */
export interface RehearsedTemplate extends CfnTemplate {
  Resources: Record<string, CfnResource & { Metadata?: Record<string, unknown> }>;
}

/** Physical values the local cloud decided (a queue's URL, an API's URL), by logical id. */
export type Overrides = Record<string, { ref?: string; attrs?: Record<string, string> }>;

export interface RehearsalCloud {
  env: AwsEnv;
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

export async function startRehearsalCloud(
  template: RehearsedTemplate,
  steps: Steps,
): Promise<RehearsalCloud> {
  const [ddb, fauxqs] = await Promise.all([startDynamoDbLocal(), startFauxqs()]);
  steps.cleanup('DynamoDB Local', () => ddb.stop());
  steps.cleanup('fauxqs', () => fauxqs.stop());
  const base = defaultLookup(template);
  const { account, region } = base.env;
  const overrides: Overrides = await provisionFromTemplate(
    template,
    { dynamodb: ddb.endpoint, s3: fauxqs.endpoint, sqs: fauxqs.endpoint },
    base,
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
    env: base.env,
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
