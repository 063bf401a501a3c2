/**
 * The schedule service in AWS: its API Lambda behind an HTTP API (authentication required), and the
 * auto-scheduler Lambda run every minute by an EventBridge rule.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { createScheduleRoutes } from '../functions/schedule/api/routes';
import { apiFunction } from './api-function';
import { BATCH_WRITE, grantTable, READ_ITEMS, SCAN, WRITE_ITEMS } from './grants';
import { ServiceHttpApi } from './http-api';
import type { SigningKeys } from './signing-keys';
import type { ApiThrottle } from './stack-config';
import type { State } from './state';

export interface ScheduleServiceProps {
  stage: string;
  state: State;
  /** The schedule API verifies the channel service's tokens: with their public keys. */
  signingKeys: SigningKeys;
  apiThrottle: ApiThrottle;
}

export class ScheduleServiceConstruct extends Construct {
  readonly api: ServiceHttpApi;
  /** The auto-scheduler, run every minute. */
  readonly scheduler: NodejsFunction;

  constructor(scope: Construct, id: string, props: ScheduleServiceProps) {
    super(scope, id);
    const { state, stage } = props;
    const tablesEnv = {
      TABLE_SCHEDULE_CHANNELS: state.env.TABLE_SCHEDULE_CHANNELS!,
      TABLE_SCHEDULE_FEEDS: state.env.TABLE_SCHEDULE_FEEDS!,
      TABLE_SCHEDULE_ENTRIES: state.env.TABLE_SCHEDULE_ENTRIES!,
      // In a deployment, feeds and VODs on private addresses are refused (SSRF guard).
      SCHEDULE_BLOCK_PRIVATE_URLS: 'true',
    };
    const grantTables = (grantee: iam.IGrantable) => {
      // Channels are listed across tenants (Scan); feeds and entries are deleted in batches.
      grantTable(state.tables.scheduleChannels, grantee, READ_ITEMS, WRITE_ITEMS, SCAN);
      grantTable(state.tables.scheduleFeeds, grantee, READ_ITEMS, WRITE_ITEMS, BATCH_WRITE);
      grantTable(state.tables.scheduleEntries, grantee, READ_ITEMS, WRITE_ITEMS, BATCH_WRITE);
    };

    const apiFn = apiFunction(this, 'Handler', {
      entry: 'functions/schedule/handler.ts',
      environment: {
        ...tablesEnv,
        ONAIR_STAGE: stage,
        SCHEDULE_REQUIRE_AUTH: 'true',
        // Verifies tokens only: the public keys, never the private ones.
        JWT_PUBLIC_KEY_PARAMETER: props.signingKeys.publicPrefix,
        TABLE_ASRUN: state.env.TABLE_ASRUN!,
        // Channel statuses, written by the engine next to the playout log (core/channel-status/).
        TABLE_PLAYOUT_LOG: state.env.TABLE_PLAYOUT_LOG!,
      },
    });
    grantTables(apiFn);
    // Read only: GET /api/v1/channels/{id}/asrun (the engine tasks write it).
    grantTable(state.tables.asRun, apiFn, ['dynamodb:Query']);
    grantTable(state.tables.playoutLog, apiFn, READ_ITEMS);
    props.signingKeys.grantReadPublic(apiFn);
    const routes = createScheduleRoutes(() => {
      throw new Error('not at synth time');
    });
    this.api = new ServiceHttpApi(this, 'schedule', {
      fn: apiFn,
      routes,
      stage,
      throttle: props.apiThrottle,
      authorization:
        'SCHEDULE_REQUIRE_AUTH=true: the function verifies the onair ES256 token (x-jwt) on every route, the same check as the channel API',
    });

    const scheduler = apiFunction(this, 'AutoScheduler', {
      entry: 'functions/schedule/scheduler-handler.ts',
      timeout: Duration.minutes(5),
      environment: tablesEnv,
    });
    this.scheduler = scheduler;
    grantTables(scheduler);
    new events.Rule(this, 'EveryMinute', {
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(scheduler, { retryAttempts: 0 })],
    });
  }
}
