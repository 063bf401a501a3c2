/** One onair deployment (stage test or prod): state, the services' APIs, the engine fleet. */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ChannelServiceConstruct } from './channel-service';
import { EngineFleet } from './engine-fleet';
import { State } from './state';

export interface OnairStackProps extends StackProps {
  stage: 'test' | 'prod';
}

export class OnairStack extends Stack {
  constructor(scope: Construct, id: string, props: OnairStackProps) {
    super(scope, id, props);
    const state = new State(this, 'State', { stage: props.stage });
    const engine = new EngineFleet(this, 'EngineFleet', { stage: props.stage, state });
    new ChannelServiceConstruct(this, 'ChannelService', {
      stage: props.stage,
      state,
      playbackBaseUrl: engine.playbackBaseUrl,
    });
  }
}
