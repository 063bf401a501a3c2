/** One onair deployment (stage test or prod): state, the services' APIs, the engine fleet. */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ChannelServiceConstruct } from './channel-service';
import { State } from './state';

export interface OnairStackProps extends StackProps {
  stage: 'test' | 'prod';
}

export class OnairStack extends Stack {
  constructor(scope: Construct, id: string, props: OnairStackProps) {
    super(scope, id, props);
    const state = new State(this, 'State', { stage: props.stage });
    new ChannelServiceConstruct(this, 'ChannelService', {
      stage: props.stage,
      state,
      playbackBaseUrl: 'https://playback.example.invalid',
    });
  }
}
