/** The channel service in AWS: one Lambda behind an HTTP API, reading the signing keys (signing-keys.ts). */
import { Construct } from 'constructs';
import { channelRoutes } from '../functions/channel/routes';
import { apiFunction } from './api-function';
import { grantQueue, grantTable, READ_ITEMS, SEND, WRITE_ITEMS } from './grants';
import { ServiceHttpApi } from './http-api';
import type { SigningKeys } from './signing-keys';
import type { ApiThrottle } from './stack-config';
import type { State } from './state';

export interface ChannelServiceProps {
  stage: string;
  state: State;
  playbackBaseUrl: string;
  /** The channel API issues tokens: it reads the private keys. */
  signingKeys: SigningKeys;
  apiThrottle: ApiThrottle;
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
        JWT_KEY_PARAMETER: props.signingKeys.prefix,
        TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
        TABLE_RATE_LIMITS: state.env.TABLE_RATE_LIMITS!,
        TABLE_PLAYOUT_LOG: state.env.TABLE_PLAYOUT_LOG!,
        TABLE_ASRUN: state.env.TABLE_ASRUN!,
        QUEUE_CHANNEL_EVENTS: state.env.QUEUE_CHANNEL_EVENTS!,
      },
    });
    grantTable(state.tables.channels, fn, READ_ITEMS, WRITE_ITEMS);
    grantTable(state.tables.rateLimits, fn, READ_ITEMS, WRITE_ITEMS);
    // Read only: a channel's EPG is what the engine logged it played (functions/channel/epg/).
    grantTable(state.tables.playoutLog, fn, READ_ITEMS);
    // Read only: GET /channel/{id}/asrun (the engine tasks write it).
    grantTable(state.tables.asRun, fn, ['dynamodb:Query']);
    grantQueue(state.queues.channelEvents, fn, SEND);
    props.signingKeys.grantRead(fn);
    // Route paths and methods only: the table is data, the dependencies are never built at synth.
    const routes = channelRoutes(() => Promise.reject(new Error('not at synth time')));
    this.api = new ServiceHttpApi(this, 'channel', {
      fn,
      routes,
      stage,
      throttle: props.apiThrottle,
      authorization:
        'The function verifies the onair ES256 token (x-jwt) on every channel route, as it does locally; /token (test stage only, rate limited) and the JWKS are public by design',
    });
  }
}
