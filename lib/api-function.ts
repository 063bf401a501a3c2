/**
 * A Lambda function built from a handler file under functions/, bundled by the local esbuild (no Docker
 * at synth), Node 22, ESM, with the shared environment.
 */
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export interface ApiFunctionProps {
  entry: string;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
}

export function apiFunction(scope: Construct, id: string, props: ApiFunctionProps): NodejsFunction {
  return new NodejsFunction(scope, id, {
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
}
