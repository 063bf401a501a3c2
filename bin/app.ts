/** The CDK app: `npx cdk deploy -c stage=test` (default) or `-c stage=prod`. */
import { App } from 'aws-cdk-lib';
import { OnairStack } from '../lib/onair-stack';

const app = new App();
const stage = app.node.tryGetContext('stage') ?? 'test';
if (stage !== 'test' && stage !== 'prod')
  throw new Error(`context stage must be test or prod, got "${stage}"`);

new OnairStack(app, `onair-${stage}`, {
  stage,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: `onair ${stage}: VOD-to-live channels, schedules and VMAF measurement`,
});
