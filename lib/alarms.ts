/**
 * What should wake someone: each alarm notifies one SNS topic (output AlarmTopicArn; subscribe to it,
 * or pass -c alarmEmail=...). Alarms: an API answering 5xx to more than 5% of its requests, engine
 * targets unhealthy for 5 minutes, no engine task running, any message in a dead-letter queue, any
 * AutoABR job that failed for good (the worker and dispatcher log `job failed`; a metric filter counts
 * those lines), any error of a scheduled function, and playback answering 5xx to more than 5% of
 * requests (CloudFront's metrics exist in us-east-1 only, so that alarm is made only in a stack
 * deployed there: a CloudFormation condition on the region).
 */
import { Aws, CfnCondition, CfnOutput, type CfnResource, Duration, Fn } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
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

  /**
   * More than 5% of playback requests answered 5xx for 5 minutes. CloudFront publishes its metrics in
   * us-east-1 only and an alarm reads its own region's metrics: elsewhere the alarm is not created.
   */
  playback5xxRate(distribution: cloudfront.IDistribution): void {
    const metric = new cloudwatch.Metric({
      namespace: 'AWS/CloudFront',
      metricName: '5xxErrorRate',
      dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
      statistic: 'Average',
      period: Duration.minutes(1),
    });
    const alarm = this.notify(
      'Playback5xxRate',
      metric,
      5,
      'playback: more than 5% of requests answered 5xx',
      5,
    );
    const inUsEast1 = new CfnCondition(this, 'InUsEast1', {
      // The region at deploy, even when the synth knows it: the template itself says when the alarm exists.
      expression: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
    });
    (alarm.node.defaultChild as CfnResource).cfnOptions.condition = inUsEast1;
  }

  /**
   * No engine task running for 2 minutes while the service wants one (Container Insights'
   * RunningTaskCount and DesiredTaskCount): every channel is off air. With no channel at all the fleet
   * dispatcher sets the desired count to 0, which is not an outage.
   */
  noEngineRunning(service: ecs.IBaseService): void {
    const metric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'ECS/ContainerInsights',
        metricName,
        dimensionsMap: { ClusterName: service.cluster.clusterName, ServiceName: service.serviceName },
        statistic: 'Maximum',
        period: Duration.minutes(1),
      });
    const down = new cloudwatch.MathExpression({
      label: 'engine wanted, none running',
      expression: 'IF(FILL(desired, 0) >= 1 AND FILL(running, 0) < 1, 1, 0)',
      usingMetrics: { desired: metric('DesiredTaskCount'), running: metric('RunningTaskCount') },
      period: Duration.minutes(1),
    });
    this.notify('NoEngineRunning', down, 1, 'no engine task running: channels are off air', 2, {
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /** Any error of a function run on a schedule (nobody else sees it fail). */
  scheduledFunctionErrors(name: string, fn: lambda.IFunction): void {
    const metric = fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES });
    this.notify(`${name}Errors`, metric, 1, `${name}: the scheduled function failed`, 1, {
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
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
    options: Pick<cloudwatch.AlarmProps, 'comparisonOperator' | 'treatMissingData'> = {},
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
      ...options,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    return alarm;
  }
}
