/** The channel service in AWS: one Lambda behind an HTTP API, the signing key in SSM Parameter Store. */
import { Construct } from 'constructs';
import { channelRoutes } from '../functions/channel/routes';
import { apiFunction } from './api-function';
import { ServiceHttpApi } from './http-api';
import { signingKeyAccess } from './signing-key-access';
import type { State } from './state';

export interface ChannelServiceProps {
  stage: string;
  state: State;
  playbackBaseUrl: string;
  keyParameterName: string;
  keyParameterArn: string;
}

export class ChannelServiceConstruct extends Construct {
  readonly api: ServiceHttpApi;

  constructor(scope: Construct, id: string, props: ChannelServiceProps) {
    super(scope, id);
    const { state, stage } = props;
    const fn = apiFunction(this, 'Handler', {
      entry: 'functions/channel/handler.ts',
      environment: {
        ONAIR_STAGE: stage,
        PLAYBACK_BASE_URL: props.playbackBaseUrl,
        JWT_KEY_PARAMETER: props.keyParameterName,
        TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
        TABLE_RATE_LIMITS: state.env.TABLE_RATE_LIMITS!,
        QUEUE_CHANNEL_EVENTS: state.env.QUEUE_CHANNEL_EVENTS!,
      },
    });
    state.tables.channels.grantReadWriteData(fn);
    state.tables.rateLimits.grantReadWriteData(fn);
    state.queues.channelEvents.grantSendMessages(fn);
    fn.addToRolePolicy(signingKeyAccess(props.keyParameterArn));
    // Route paths and methods only: the table is data, the dependencies are never built at synth.
    const routes = channelRoutes(() => Promise.reject(new Error('not at synth time')));
    this.api = new ServiceHttpApi(this, 'channel', { fn, routes, stage });
  }
}
