/**
 * An API Gateway HTTP API whose routes are exactly a service's route table (the one the local gateway
 * serves), with access logs (one JSON line per request) in a log group of its own, and throttled per
 * stage (API Gateway answers 429 above the rate).
 */
import { CfnOutput } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { type Route, routesFor } from '../core/http';
import type { ApiThrottle } from './stack-config';

const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    time: '$context.requestTime',
    method: '$context.httpMethod',
    route: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    bytes: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export class ServiceHttpApi extends Construct {
  readonly api: HttpApi;

  constructor(
    scope: Construct,
    id: string,
    props: {
      fn: IFunction;
      routes: readonly Route[];
      stage: string;
      /** Default route throttling of the $default stage (stack-config.ts API_THROTTLE). */
      throttle: ApiThrottle;
      /** Why the routes have no API Gateway authorizer (cdk-nag AwsSolutions-APIG4). */
      authorization: string;
      /**
       * Route `/` and `/{proxy+}` to the function and let its router answer, for route tables API Gateway
       * cannot express (a significant trailing slash, as in AutoABR's `/autoabr/result/<output>/`).
       */
      catchAll?: boolean;
    },
  ) {
    super(scope, id);
    // The $default stage is made here rather than by the API, which cannot give it access logs.
    this.api = new HttpApi(this, 'Api', { apiName: `onair-${props.stage}-${id}`, createDefaultStage: false });
    this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(
          new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        ),
        format: ACCESS_LOG_FORMAT,
      },
    });
    const integration = new HttpLambdaIntegration('Integration', props.fn);
    if (props.catchAll) {
      for (const path of ['/', '/{proxy+}'])
        this.api.addRoutes({ path, methods: [HttpMethod.ANY], integration });
    } else {
      for (const route of routesFor(props.routes, props.stage)) {
        this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
      }
    }
    new CfnOutput(this, 'Url', { value: this.api.apiEndpoint });
    NagSuppressions.addResourceSuppressions(
      this.api,
      [{ id: 'AwsSolutions-APIG4', reason: props.authorization }],
      true,
    );
  }
}
