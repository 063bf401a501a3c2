/**
 * The daily as-run export in AWS (functions/asrun/): a Lambda run at 00:30 UTC by an EventBridge rule,
 * reading the as-run table's `byDay` index and writing one CSV per channel of the previous day into the
 * as-run bucket (`asrun/<day>/<channel>.csv`), where billing tools pick them up.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { apiFunction } from '../api-function';
import { grantTable, READ_ITEMS } from '../grants';
import type { State } from '../state';

export class AsRunExport extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: { state: State }) {
    super(scope, id);
    const { state } = props;
    this.fn = apiFunction(this, 'Handler', {
      entry: 'functions/asrun/export-handler.ts',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      environment: {
        TABLE_ASRUN: state.env.TABLE_ASRUN!,
        BUCKET_ASRUN: state.env.BUCKET_ASRUN!,
      },
    });
    grantTable(state.tables.asRun, this.fn, READ_ITEMS);
    state.buckets.asRun.grantPut(this.fn);
    NagSuppressions.addResourceSuppressions(
      this.fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'The export writes one object per channel and day under asrun/ of its own bucket: keys are not known in advance',
        },
      ],
      true,
    );
    new events.Rule(this, 'Daily', {
      schedule: events.Schedule.cron({ minute: '30', hour: '0' }),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 2 })],
    });
  }
}
