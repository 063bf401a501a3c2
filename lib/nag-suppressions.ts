/**
 * cdk-nag (AwsSolutionsChecks, run on both stages by test/cdk) findings accepted across the stack,
 * each with its reason. Findings tied to one resource are accepted next to it (api-function.ts,
 * http-api.ts, state.ts, signing-keys.ts, autoabr-service.ts, engine/engine-service.ts,
 * engine/playback-distribution.ts); anything else cdk-nag reports fails the test.
 */
import type { Stack } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';

/** For the execution role of a task definition built from an image asset. */
export const ECR_AUTH_TOKEN = {
  id: 'AwsSolutions-IAM5',
  reason:
    'Task execution role: ecr:GetAuthorizationToken has no resource-level permissions, so it is granted on *; image pulls and log writes are scoped to the repository and log group',
  appliesTo: ['Resource::*'],
};

/** For a task definition: its environment holds resource names and URLs only. */
export const PLAIN_ENVIRONMENT = {
  id: 'AwsSolutions-ECS2',
  reason:
    'The environment holds table names, queue URLs and settings, nothing secret; the one secret (ENGINE_RESET_KEY) comes from Secrets Manager',
};

export function suppressAcceptedFindings(stack: Stack): void {
  NagSuppressions.addStackSuppressions(stack, [
    {
      id: 'AwsSolutions-IAM5',
      reason:
        "DynamoDB grants name one table and its own indexes (`<table>/index/*`): the services query their tables' GSIs (byKind, byTenant, byStatus)",
      appliesTo: [{ regex: '/^Resource::<StateTable[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
    },
  ]);
}
