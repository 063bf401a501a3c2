/** An API Gateway HTTP API whose routes are exactly a service's route table (the one the local gateway serves). */
import { CfnOutput } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { type Route, routesFor } from '../core/http';

export class ServiceHttpApi extends Construct {
  readonly api: HttpApi;

  constructor(
    scope: Construct,
    id: string,
    props: {
      fn: IFunction;
      routes: readonly Route[];
      stage: string;
      /**
       * Route `/` and `/{proxy+}` to the function and let its router answer, for route tables API Gateway
       * cannot express (a significant trailing slash, as in AutoABR's `/autoabr/result/<output>/`).
       */
      catchAll?: boolean;
    },
  ) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { apiName: `onair-${props.stage}-${id}` });
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
  }
}
