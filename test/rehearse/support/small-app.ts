/**
 * A small synthesized stack with the shapes the IAM rehearsal meets: a Lambda reading a table and a
 * TLS-only bucket and consuming a queue, and a Fargate task definition with a task role, an execution role and a secret.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { CfnTemplate } from '../../../scripts/rehearse/iam/template';

export function smallApp(): CfnTemplate {
  const stack = new Stack(new App(), 'Small', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new dynamodb.TableV2(stack, 'Channels', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
  });
  const bucket = new s3.Bucket(stack, 'Media', { enforceSSL: true });
  const reader = new lambda.Function(stack, 'Reader', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => {}'),
  });
  table.grantReadData(reader);
  bucket.grantRead(reader);
  reader.addEventSource(new SqsEventSource(new sqs.Queue(stack, 'Events')));
  const task = new ecs.FargateTaskDefinition(stack, 'Worker');
  task.addContainer('worker', {
    image: ecs.ContainerImage.fromRegistry('public.example/worker'),
    logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'worker' }),
    secrets: { KEY: ecs.Secret.fromSecretsManager(new secretsmanager.Secret(stack, 'Key')) },
  });
  table.grantReadWriteData(task.taskRole);
  return Template.fromStack(stack).toJSON() as CfnTemplate;
}

/** The logical id CDK gave the construct at `path` (the path's parts, then 8 hex digits of hash). */
export function idStartingWith(template: CfnTemplate, prefix: string): string {
  const ids = Object.keys(template.Resources).filter((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id));
  if (ids.length !== 1) throw new Error(`${ids.length} resources start with ${prefix}: ${ids.join(', ')}`);
  return ids[0]!;
}
