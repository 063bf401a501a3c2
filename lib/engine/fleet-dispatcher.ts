/**
 * The fleet dispatcher (functions/fleet): sets the engine service's desired count from the number of
 * channels of both services. It runs on the channel-events queue and every two minutes (schedule
 * channels are created without a channel event). Each run recounts from the tables and sets an
 * absolute count, so runs at once agree: no reserved concurrency.
 */
import { Duration } from 'aws-cdk-lib';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { apiFunction } from '../api-function';
import { grantTable, READ_ITEMS, SCAN } from '../grants';
import type { State } from '../state';

export interface FleetDispatcherProps {
  stage: string;
  state: State;
  cluster: ecs.ICluster;
  service: ecs.FargateService;
}

export class FleetDispatcher extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: FleetDispatcherProps) {
    super(scope, id);
    const { state } = props;
    this.fn = apiFunction(this, 'Handler', {
      entry: 'functions/fleet/handler.ts',
      timeout: Duration.seconds(30),
      environment: {
        ONAIR_STAGE: props.stage,
        TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
        TABLE_SCHEDULE_CHANNELS: state.env.TABLE_SCHEDULE_CHANNELS!,
        ENGINE_CLUSTER: props.cluster.clusterName,
        ENGINE_SERVICE: props.service.serviceName,
      },
    });
    this.fn.addEventSource(
      new SqsEventSource(state.queues.channelEvents, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(5),
      }),
    );
    new events.Rule(this, 'Recount', {
      schedule: events.Schedule.rate(Duration.minutes(2)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
    // It counts: channels by their byKind index, schedule channels by a Scan (functions/fleet/).
    grantTable(state.tables.channels, this.fn, READ_ITEMS);
    grantTable(state.tables.scheduleChannels, this.fn, SCAN);
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['ecs:UpdateService'], resources: [props.service.serviceArn] }),
    );
  }
}
