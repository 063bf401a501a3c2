/**
 * The console in AWS: its build (console/build.ts, made at synth) in a private S3 bucket, served under
 * `/console/` by the playback CloudFront (origin access control: the bucket admits only that
 * distribution), with `config.json` naming the APIs. A folder path (`/console/`, `/console/api/`) is
 * served its `index.html` by a CloudFront Function: S3 behind CloudFront has no index document. The
 * APIs allow exactly the console's origin, plus any `consoleOrigins` the operator adds (CORS,
 * answered by API Gateway).
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { buildConsole } from '../console/build';
import type { ConsoleConfig } from '../console/src/config';
import { API_CORS } from '../core/http';
import type { ServiceHttpApi } from './http-api';

export interface ConsoleSiteProps {
  stage: string;
  distribution: cloudfront.Distribution;
  /** https://<playback host>: the console's origin. */
  playbackBaseUrl: string;
  apis: { channel: ServiceHttpApi; schedule: ServiceHttpApi; autoabr: ServiceHttpApi };
  extraOrigins: readonly string[];
}

export const CONSOLE_PATH = 'console/';

/**
 * A CloudFront Function (viewer request) on the console's behavior: S3 behind an origin access control
 * has no index document, so `/console/` and `/console/api/` are asked for as `…/index.html`.
 */
export const INDEX_DOCUMENT_FUNCTION = `function handler(event) {
  var request = event.request;
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`;

export class ConsoleSite extends Construct {
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    const bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    props.distribution.addBehavior(
      `/${CONSOLE_PATH}*`,
      origins.S3BucketOrigin.withOriginAccessControl(bucket),
      {
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: new cloudfront.CachePolicy(this, 'ShortCache', {
          // A deploy replaces the files under the same names: a minute of staleness at most.
          defaultTtl: Duration.minutes(1),
          maxTtl: Duration.minutes(5),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
        }),
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'IndexDocument', {
              code: cloudfront.FunctionCode.fromInline(INDEX_DOCUMENT_FUNCTION),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
              comment: 'console: a folder path asks for its index.html',
            }),
          },
        ],
      },
    );
    const api = (a: ServiceHttpApi) => a.api.apiEndpoint;
    new s3deploy.BucketDeployment(this, 'Deploy', {
      destinationBucket: bucket,
      destinationKeyPrefix: CONSOLE_PATH,
      sources: [
        s3deploy.Source.asset(buildConsole(mkdtempSync(join(tmpdir(), 'onair-console-')))),
        s3deploy.Source.jsonData('config.json', {
          channelApi: api(props.apis.channel),
          scheduleApi: `${api(props.apis.schedule)}/api/v1`,
          autoabrApi: api(props.apis.autoabr),
          playback: props.playbackBaseUrl,
          stage: props.stage,
        } satisfies ConsoleConfig),
      ],
      distribution: props.distribution,
      distributionPaths: [`/${CONSOLE_PATH}*`],
    });
    this.url = `${props.playbackBaseUrl}/${CONSOLE_PATH}`;
    const allowed = [props.playbackBaseUrl, ...props.extraOrigins];
    for (const a of Object.values(props.apis)) allowOrigins(a, allowed);
    this.acceptFindings(bucket);
  }

  private acceptFindings(bucket: s3.Bucket): void {
    NagSuppressions.addResourceSuppressions(bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The bucket holds the console build only, read by CloudFront alone; CloudFront is where viewers are seen',
      },
    ]);
    NagSuppressions.addResourceSuppressionsByPath(
      Stack.of(this),
      Stack.of(this)
        .node.findAll()
        .filter((c) => /Custom::(CDKBucketDeployment|S3AutoDeleteObjects)/.test(c.node.id))
        .map((c) => c.node.path),
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            "CDK's own deployment and auto-delete functions log with the AWS managed basic execution role",
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "CDK's deployment function copies the build from the asset bucket into the console bucket (object wildcards of those two buckets)",
        },
        {
          id: 'AwsSolutions-L1',
          reason: "The runtime of CDK's own deployment function is chosen by aws-cdk-lib",
        },
      ],
      true,
    );
  }
}

/** CORS on an HTTP API for these origins: API Gateway answers preflights and adds the headers. */
function allowOrigins(api: ServiceHttpApi, allowed: string[]): void {
  (api.api.node.defaultChild as CfnApi).corsConfiguration = {
    allowOrigins: allowed,
    allowMethods: [...API_CORS.allowMethods],
    allowHeaders: [...API_CORS.allowHeaders],
    exposeHeaders: [...API_CORS.exposeHeaders],
    maxAge: API_CORS.maxAgeSeconds,
  };
}
