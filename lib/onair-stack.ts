/** One onair deployment (stage test or prod): state, the services' APIs, the engine fleet. */
import { Arn, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AutoabrServiceConstruct } from './autoabr-service';
import { ChannelServiceConstruct } from './channel-service';
import { EngineFleet } from './engine-fleet';
import { ScheduleServiceConstruct } from './schedule-service';
import { State } from './state';

export interface OnairStackProps extends StackProps {
  stage: 'test' | 'prod';
}

export class OnairStack extends Stack {
  constructor(scope: Construct, id: string, props: OnairStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const state = new State(this, 'State', { stage });
    // The token signing key (SSM SecureString), created by the first service that needs it.
    const keyParameterName = `/onair/${stage}/jwt-signing-key`;
    const keyParameterArn = Arn.format(
      { service: 'ssm', resource: 'parameter', resourceName: keyParameterName.slice(1) },
      this,
    );

    const schedule = new ScheduleServiceConstruct(this, 'ScheduleService', {
      stage,
      state,
      keyParameterName,
      keyParameterArn,
    });
    const engine = new EngineFleet(this, 'EngineFleet', {
      stage,
      state,
      environment: {
        SCHEDULE_SERVICE_API_URL: `${schedule.api.api.apiEndpoint}/api/v1`,
        JWT_KEY_PARAMETER: keyParameterName,
      },
      keyParameterArn,
    });
    new AutoabrServiceConstruct(this, 'AutoabrService', {
      stage,
      state,
      cluster: engine.cluster,
      vpc: engine.vpc,
    });
    new ChannelServiceConstruct(this, 'ChannelService', {
      stage,
      state,
      playbackBaseUrl: engine.playbackBaseUrl,
      keyParameterName,
      keyParameterArn,
    });
  }
}
