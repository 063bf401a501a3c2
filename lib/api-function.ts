/**
 * A Lambda function built from a handler file under functions/, bundled by the local esbuild (no Docker
 * at synth), Node 22, ESM, with the shared environment.
 */
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

export interface ApiFunctionProps {
  entry: string;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
}

export function apiFunction(scope: Construct, id: string, props: ApiFunctionProps): NodejsFunction {
  const fn = new NodejsFunction(scope, id, {
    entry: props.entry,
    handler: 'handler',
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize ?? 512,
    timeout: props.timeout ?? Duration.seconds(29),
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    logGroup: new logs.LogGroup(scope, `${id}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
    bundling: {
      format: OutputFormat.ESM,
      target: 'node22',
      mainFields: ['module', 'main'],
      sourceMap: true,
      minify: true,
      // Some CommonJS dependencies call require(); give the ESM bundle one.
      banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      externalModules: ['@aws-sdk/*'],
      forceDockerBundling: false,
    },
  });
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node 22 on purpose: the bundles target node22 and the engine image is node:22; a runtime move is a tested upgrade of all of them, not a drift',
      },
      {
        id: 'AwsSolutions-IAM4',
        reason: 'AWSLambdaBasicExecutionRole only lets the function write its own CloudWatch logs',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
    ],
    true,
  );
  return fn;
}
