/**
 * What should wake someone: each alarm notifies one SNS topic (output AlarmTopicArn; subscribe to it,
 * or pass -c alarmEmail=...). Alarms: an API answering 5xx to more than 5% of its requests, engine
 * targets unhealthy for 5 minutes, any message in a dead-letter queue, any AutoABR job that failed
 * for good (the worker and dispatcher log `job failed`; a metric filter counts those lines).
 */
import { CfnOutput, Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

const FIVE_MINUTES = Duration.minutes(5);

export class Alarms extends Construct {
  readonly topic: sns.Topic;
  private readonly namespace: string;

  constructor(scope: Construct, id: string, props: { stage: string; email?: string }) {
    super(scope, id);
    this.namespace = `onair/${props.stage}`;
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `onair ${props.stage} alarms`,
      enforceSSL: true,
    });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn });
  }

  /** More than 5% of at least 10 requests in 5 minutes answered 5xx. */
  apiErrorRate(name: string, api: IHttpApi): void {
    const rate = new cloudwatch.MathExpression({
      label: `${name} API 5xx %`,
      expression: 'IF(FILL(requests, 0) >= 10, 100 * FILL(errors, 0) / requests, 0)',
      usingMetrics: {
        requests: api.metricCount({ statistic: 'Sum', period: FIVE_MINUTES }),
        errors: api.metricServerError({ period: FIVE_MINUTES }),
      },
      period: FIVE_MINUTES,
    });
    this.notify(`${name}Api5xxRate`, rate, 5, `${name} API: more than 5% of requests answered 5xx`);
  }

  /** An engine target failing its health check for 5 minutes in a row. */
  unhealthyTargets(targetGroup: elbv2.IApplicationTargetGroup): void {
    const metric = targetGroup.metrics.unhealthyHostCount({
      statistic: 'Maximum',
      period: Duration.minutes(1),
    });
    this.notify('EngineUnhealthyTargets', metric, 0, 'engine tasks failing /health for 5 minutes', 5);
  }

  /** Anything at all in a dead-letter queue: a message some consumer gave up on. */
  deadLetters(name: string, dlq: sqs.IQueue): void {
    const metric = dlq.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: FIVE_MINUTES,
    });
    this.notify(`${name}DeadLetters`, metric, 0, `${name}: messages in the dead-letter queue`);
  }

  /** AutoABR jobs that ended FAILED, counted from the `job failed` log lines of these log groups. */
  failedAutoabrJobs(logGroups: logs.ILogGroup[]): void {
    const metricName = 'AutoabrJobsFailed';
    logGroups.forEach((logGroup, i) => {
      new logs.MetricFilter(this, `AutoabrJobFailedFilter${i}`, {
        logGroup,
        metricNamespace: this.namespace,
        metricName,
        filterPattern: logs.FilterPattern.stringValue('$.msg', '=', 'job failed'),
        metricValue: '1',
      });
    });
    const metric = new cloudwatch.Metric({
      namespace: this.namespace,
      metricName,
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
    this.notify('AutoabrJobsFailed', metric, 0, 'AutoABR jobs failed (after their last attempt)');
  }

  private notify(
    id: string,
    metric: cloudwatch.IMetric,
    threshold: number,
    description: string,
    evaluationPeriods = 1,
  ): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
  }
}
