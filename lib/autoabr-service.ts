/**
 * AutoABR in AWS: the API Lambda behind an HTTP API, the dispatcher Lambda (every minute, one at a
 * time) that starts one Fargate worker task per job, and the worker task definition (ffmpeg with
 * libvmaf >= 2, engine-container/worker.Dockerfile).
 */
import { Duration } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { apiFunction } from './api-function';
import { REPO_ROOT_EXCLUDES } from './engine-fleet';
import { ServiceHttpApi } from './http-api';
import type { State } from './state';

export interface AutoabrServiceProps {
  stage: string;
  state: State;
  cluster: ecs.Cluster;
  vpc: ec2.Vpc;
}

export class AutoabrServiceConstruct extends Construct {
  readonly api: ServiceHttpApi;

  constructor(scope: Construct, id: string, props: AutoabrServiceProps) {
    super(scope, id);
    const { state, stage } = props;
    const jobs = state.tables.autoabrJobs;
    const queue = state.queues.autoabrJobs;
    const dlq = queue.deadLetterQueue!.queue;
    const bucket = state.buckets.autoabr;
    const env = {
      ONAIR_STAGE: stage,
      TABLE_AUTOABR_JOBS: state.env.TABLE_AUTOABR_JOBS!,
      QUEUE_AUTOABR_JOBS: state.env.QUEUE_AUTOABR_JOBS!,
      QUEUE_AUTOABR_JOBS_DLQ: dlq.queueUrl,
      BUCKET_AUTOABR: state.env.BUCKET_AUTOABR!,
    };
    const grantQueue = (grantee: iam.IGrantable, q: sqs.IQueue) => {
      q.grantSendMessages(grantee);
      q.grantConsumeMessages(grantee);
    };

    const apiFn = apiFunction(this, 'Handler', {
      entry: 'functions/autoabr/entry/api-handler.ts',
      environment: env,
    });
    jobs.grantReadWriteData(apiFn);
    queue.grantSendMessages(apiFn);
    bucket.grantReadWrite(apiFn);
    // Route paths only: the table is data; no dependency is built at synth.
    this.api = new ServiceHttpApi(this, 'autoabr', { fn: apiFn, routes: [], stage, catchAll: true });

    const worker = new ecs.FargateTaskDefinition(this, 'Worker', { cpu: 4096, memoryLimitMiB: 8192 });
    worker.addContainer('worker', {
      containerName: 'worker',
      image: ecs.ContainerImage.fromAsset('.', {
        file: 'engine-container/worker.Dockerfile',
        exclude: REPO_ROOT_EXCLUDES,
      }),
      environment: env,
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'autoabr-worker',
        logGroup: new logs.LogGroup(this, 'WorkerLogs', { retention: logs.RetentionDays.ONE_MONTH }),
      }),
    });
    jobs.grantReadWriteData(worker.taskRole);
    grantQueue(worker.taskRole, queue);
    grantQueue(worker.taskRole, dlq);
    bucket.grantReadWrite(worker.taskRole);

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
        AUTOABR_ECS_CLUSTER: props.cluster.clusterArn,
        AUTOABR_ECS_TASK_DEFINITION: worker.taskDefinitionArn,
        AUTOABR_ECS_CONTAINER: 'worker',
        AUTOABR_ECS_SUBNETS: props.vpc.publicSubnets.map((s) => s.subnetId).join(','),
        AUTOABR_ECS_SECURITY_GROUPS: workerSg.securityGroupId,
        AUTOABR_ECS_ASSIGN_PUBLIC_IP: 'true',
      },
    });
    // One tick at a time: the worker cap is counted, then enforced, by a single dispatcher.
    (dispatcher.node.defaultChild as { reservedConcurrentExecutions?: number }).reservedConcurrentExecutions =
      1;
    jobs.grantReadWriteData(dispatcher);
    grantQueue(dispatcher, queue);
    grantQueue(dispatcher, dlq);
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
  }
}
