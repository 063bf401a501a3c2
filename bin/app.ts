/**
 * The CDK app: `npx cdk deploy -c stage=test` (default) or `-c stage=prod`; other settings as context
 * (lib/stack-config.ts). `-c nag=true` runs cdk-nag's AwsSolutions checks on the synth.
 */
import { App, Aspects } from 'aws-cdk-lib';
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

if (String(app.node.tryGetContext('nag')) === 'true') {
  // A dev dependency, loaded only when asked for.
  const { AwsSolutionsChecks } = await import('cdk-nag');
  Aspects.of(app).add(new AwsSolutionsChecks());
}
