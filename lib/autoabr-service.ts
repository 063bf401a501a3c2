/**
 * AutoABR in AWS: the API Lambda behind an HTTP API, the dispatcher Lambda (every minute) that starts
 * one Fargate worker task per job, and the worker task definition (ffmpeg with libvmaf >= 2,
 * engine-container/worker.Dockerfile, linux/amd64). Besides its own bucket (output AutoabrBucket),
 * AutoABR may use the buckets the operator lists (context autoabrBuckets): references and settings
 * are read from them, results written to them.
 */
import { CfnOutput, Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { apiFunction } from './api-function';
import { imageFromRepo, X86_64_LINUX } from './engine/engine-service';
import type { FargateSize } from './fargate-size';
import { CONSUME, grantQueue, grantTable, READ_ITEMS, SEND, SETTLE, WRITE_ITEMS } from './grants';
import { ServiceHttpApi } from './http-api';
import { ECR_AUTH_TOKEN, PLAIN_ENVIRONMENT } from './nag-suppressions';
import type { SigningKeys } from './signing-keys';
import type { ApiThrottle } from './stack-config';
import type { State } from './state';

export interface AutoabrServiceProps {
  stage: string;
  state: State;
  cluster: ecs.Cluster;
  vpc: ec2.Vpc;
  workerSize: FargateSize;
  /** Operator buckets beyond AutoABR's own (context autoabrBuckets). */
  extraBuckets: string[];
  /** The channel service's token keys: the API verifies `x-jwt` (AUTOABR_REQUIRE_AUTH) with the public ones. */
  signingKeys: SigningKeys;
  apiThrottle: ApiThrottle;
}

/**
 * A worker's first heartbeat comes after its image is pulled and started; a cold pull of the ffmpeg
 * image takes more than a minute, so anything shorter ends healthy attempts before they begin.
 */
export const WORKER_HEARTBEAT_TIMEOUT_MS = 180_000;

/** What each part of the service is built from. */
interface Parts {
  props: AutoabrServiceProps;
  env: Record<string, string>;
  jobs: dynamodb.ITableV2;
  queue: sqs.IQueue;
  dlq: sqs.IQueue;
  extraBuckets: s3.IBucket[];
}

export class AutoabrServiceConstruct extends Construct {
  readonly api: ServiceHttpApi;
  /** Where `job failed` is logged: the worker's and the dispatcher's log groups. */
  readonly jobLogGroups: logs.ILogGroup[];
  /** The dispatcher, run every minute. */
  readonly dispatcherFn: NodejsFunction;

  constructor(scope: Construct, id: string, props: AutoabrServiceProps) {
    super(scope, id);
    const { state } = props;
    const queue = state.queues.autoabrJobs;
    const dlq = queue.deadLetterQueue!.queue;
    const parts: Parts = {
      props,
      jobs: state.tables.autoabrJobs,
      queue,
      dlq,
      extraBuckets: props.extraBuckets.map((name) => s3.Bucket.fromBucketName(this, `Bucket-${name}`, name)),
      env: {
        ONAIR_STAGE: props.stage,
        TABLE_AUTOABR_JOBS: state.env.TABLE_AUTOABR_JOBS!,
        QUEUE_AUTOABR_JOBS: state.env.QUEUE_AUTOABR_JOBS!,
        QUEUE_AUTOABR_JOBS_DLQ: dlq.queueUrl,
        BUCKET_AUTOABR: state.env.BUCKET_AUTOABR!,
      },
    };
    const apiFn = this.apiFunction(parts);
    this.api = new ServiceHttpApi(this, 'autoabr', {
      fn: apiFn,
      routes: [],
      stage: props.stage,
      throttle: props.apiThrottle,
      catchAll: true,
      authorization:
        'AUTOABR_REQUIRE_AUTH=true: the function verifies the onair ES256 token (x-jwt, the autoabr scope) on every route but the health check, and scopes jobs and results to the token tenant',
    });
    const { worker, workerLogs } = this.workerTaskDefinition(parts);
    const dispatcher = this.dispatcher(parts, worker);
    this.dispatcherFn = dispatcher;
    this.jobLogGroups = [workerLogs, dispatcher.logGroup];
    this.acceptFindings(apiFn, worker);
    new CfnOutput(this, 'AutoabrBucket', { value: state.buckets.autoabr.bucketName });
  }

  private apiFunction({ props, env, jobs, queue, extraBuckets }: Parts): NodejsFunction {
    const fn = apiFunction(this, 'Handler', {
      entry: 'functions/autoabr/entry/api-handler.ts',
      environment: {
        ...env,
        AUTOABR_REQUIRE_AUTH: 'true',
        // Verifies tokens only: the public keys, never the private ones.
        JWT_PUBLIC_KEY_PARAMETER: props.signingKeys.publicPrefix,
      },
    });
    props.signingKeys.grantReadPublic(fn);
    grantTable(jobs, fn, READ_ITEMS, WRITE_ITEMS);
    grantQueue(queue, fn, SEND);
    props.state.buckets.autoabr.grantReadWrite(fn);
    // The API reads settings documents and results; it writes only to AutoABR's own bucket.
    for (const bucket of extraBuckets) bucket.grantRead(fn);
    return fn;
  }

  private workerTaskDefinition({ props, env, jobs, queue, dlq, extraBuckets }: Parts) {
    const worker = new ecs.FargateTaskDefinition(this, 'Worker', {
      cpu: props.workerSize.cpu,
      memoryLimitMiB: props.workerSize.memoryLimitMiB,
      runtimePlatform: X86_64_LINUX,
    });
    const workerLogs = new logs.LogGroup(this, 'WorkerLogs', { retention: logs.RetentionDays.ONE_MONTH });
    worker.addContainer('worker', {
      containerName: 'worker',
      image: imageFromRepo('engine-container/worker.Dockerfile'),
      environment: env,
      logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'autoabr-worker', logGroup: workerLogs }),
    });
    grantTable(jobs, worker.taskRole, READ_ITEMS, WRITE_ITEMS);
    // The dispatcher received the job message; the worker extends it, deletes it, queues a retry, or
    // dead-letters it.
    grantQueue(queue, worker.taskRole, SETTLE, SEND);
    grantQueue(dlq, worker.taskRole, SEND);
    for (const bucket of [props.state.buckets.autoabr, ...extraBuckets])
      bucket.grantReadWrite(worker.taskRole);
    return { worker, workerLogs };
  }

  /**
   * No reserved concurrency: ticks are a minute apart and time out at 55 s, so they overlap only when
   * EventBridge delivers one twice. Each job is claimed by a conditional write (never started twice);
   * the worker cap is then soft: an overlap can start up to twice AUTOABR_MAX_WORKERS (docs/deploy.md).
   */
  private dispatcher({ props, env, jobs, queue, dlq }: Parts, worker: ecs.FargateTaskDefinition) {
    const workerSg = new ec2.SecurityGroup(this, 'WorkerSg', {
      vpc: props.vpc,
      description: 'AutoABR workers: outbound only',
      allowAllOutbound: true,
    });
    const dispatcher = apiFunction(this, 'Dispatcher', {
      entry: 'functions/autoabr/entry/dispatcher-handler.ts',
      timeout: Duration.seconds(55),
      environment: {
        ...env,
        AUTOABR_HEARTBEAT_TIMEOUT_MS: String(WORKER_HEARTBEAT_TIMEOUT_MS),
        AUTOABR_ECS_CLUSTER: props.cluster.clusterArn,
        AUTOABR_ECS_TASK_DEFINITION: worker.taskDefinitionArn,
        AUTOABR_ECS_CONTAINER: 'worker',
        AUTOABR_ECS_SUBNETS: props.vpc.publicSubnets.map((s) => s.subnetId).join(','),
        AUTOABR_ECS_SECURITY_GROUPS: workerSg.securityGroupId,
        AUTOABR_ECS_ASSIGN_PUBLIC_IP: 'true',
      },
    });
    grantTable(jobs, dispatcher, READ_ITEMS, WRITE_ITEMS);
    grantQueue(queue, dispatcher, CONSUME, SEND);
    grantQueue(dlq, dispatcher, SEND);
    dispatcher.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['ecs:RunTask'], resources: [worker.taskDefinitionArn] }),
    );
    dispatcher.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [worker.taskRole.roleArn, worker.obtainExecutionRole().roleArn],
      }),
    );
    new events.Rule(this, 'DispatchEveryMinute', {
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(dispatcher, { retryAttempts: 0 })],
    });
    return dispatcher;
  }

  private acceptFindings(apiFn: NodejsFunction, worker: ecs.FargateTaskDefinition): void {
    NagSuppressions.addResourceSuppressions(worker, [PLAIN_ENVIRONMENT]);
    NagSuppressions.addResourceSuppressions(worker.obtainExecutionRole(), [ECR_AUTH_TOKEN], true);
    NagSuppressions.addResourceSuppressions(
      [apiFn, worker.taskRole],
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "S3 grants cover the objects of AutoABR's buckets (its own and context autoabrBuckets) with the bucket grant's action groups: references, settings and results live under any key of them",
          appliesTo: [
            { regex: '/^Action::s3:[A-Za-z]+\\*$/g' },
            { regex: '/^Resource::<StateBucketautoabr[A-Za-z0-9]+\\.Arn>\\/\\*$/g' },
            { regex: '/^Resource::arn:<AWS::Partition>:s3:::[a-z0-9.-]+\\/\\*$/g' },
          ],
        },
      ],
      true,
    );
  }
}
