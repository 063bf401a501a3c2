/**
 * The playout engine in AWS: a Fargate service behind an ALB, CloudFront in front (its domain is the
 * playback host; its cache policy follows the engine's Cache-Control), and the fleet dispatcher: a
 * Lambda on the channel-events queue that sets the service's desired count from the channel count.
 */
import { CfnOutput, Duration } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as ecsPatterns from 'aws-cdk-lib/aws-ecs-patterns';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { apiFunction } from './api-function';
import { signingKeyAccess } from './signing-key-access';
import type { State } from './state';

export interface EngineFleetProps {
  stage: 'test' | 'prod';
  state: State;
  /** Environment of the engine process beyond the state's (e.g. the schedule plugin's URL). */
  environment?: Record<string, string>;
  /** The signing key: the engine mints its own token for the schedule API. */
  keyParameterArn: string;
}

export const REPO_ROOT_EXCLUDES = [
  'node_modules',
  'cdk.out',
  '.data',
  '.cache',
  '.git',
  '.scratch',
  'coverage',
];

export class EngineFleet extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly playbackBaseUrl: string;
  readonly cluster: ecs.Cluster;
  readonly vpc: ec2.Vpc;

  constructor(scope: Construct, id: string, props: EngineFleetProps) {
    super(scope, id);
    const { state, stage } = props;
    // Public subnets only: tasks reach DynamoDB and ECR directly, no NAT gateway to pay for.
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC }],
    });
    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: this.vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });

    const service = new ecsPatterns.ApplicationLoadBalancedFargateService(this, 'Engine', {
      cluster: this.cluster,
      cpu: 1024,
      memoryLimitMiB: 2048,
      desiredCount: stage === 'prod' ? 2 : 1,
      assignPublicIp: true,
      taskSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      publicLoadBalancer: true,
      minHealthyPercent: 100,
      circuitBreaker: { rollback: true },
      taskImageOptions: {
        image: ecs.ContainerImage.fromAsset('.', {
          file: 'engine-container/Dockerfile',
          exclude: REPO_ROOT_EXCLUDES,
        }),
        containerPort: 8000,
        environment: {
          port: '8000',
          ONAIR_STAGE: stage,
          TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
          TABLE_PLAYOUT_LOG: state.env.TABLE_PLAYOUT_LOG!,
          ...props.environment,
        },
        logDriver: ecs.LogDrivers.awsLogs({
          streamPrefix: 'engine',
          logGroup: new logs.LogGroup(this, 'EngineLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        }),
      },
    });
    service.targetGroup.configureHealthCheck({
      path: '/health',
      interval: Duration.seconds(10),
      healthyThresholdCount: 2,
    });
    service.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '10');
    state.tables.channels.grantReadData(service.taskDefinition.taskRole);
    state.tables.playoutLog.grantReadWriteData(service.taskDefinition.taskRole);
    service.taskDefinition.taskRole.addToPrincipalPolicy(signingKeyAccess(props.keyParameterArn));

    // Cache exactly as long as the engine's Cache-Control says (media playlists: cacheTTL seconds).
    const cachePolicy = new cloudfront.CachePolicy(this, 'FollowOrigin', {
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(1),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    this.distribution = new cloudfront.Distribution(this, 'Playback', {
      comment: `onair ${stage} playback`,
      defaultBehavior: {
        origin: new origins.LoadBalancerV2Origin(service.loadBalancer, {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTP_ONLY,
        }),
        cachePolicy,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
      },
    });
    this.playbackBaseUrl = `https://${this.distribution.distributionDomainName}`;
    // The slate ships in the image's static directory and is fetched (and played) through CloudFront.
    service.taskDefinition.defaultContainer?.addEnvironment(
      'ENGINE_SLATE_URI',
      `${this.playbackBaseUrl}/slate/master.m3u8`,
    );

    const dispatcher = apiFunction(this, 'FleetDispatcher', {
      entry: 'functions/fleet/handler.ts',
      timeout: Duration.seconds(30),
      environment: {
        ONAIR_STAGE: stage,
        TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
        ENGINE_CLUSTER: this.cluster.clusterName,
        ENGINE_SERVICE: service.service.serviceName,
      },
    });
    dispatcher.addEventSource(
      new SqsEventSource(state.queues.channelEvents, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(5),
      }),
    );
    state.tables.channels.grantReadData(dispatcher);
    dispatcher.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['ecs:UpdateService'], resources: [service.service.serviceArn] }),
    );

    new CfnOutput(this, 'PlaybackBaseUrl', { value: this.playbackBaseUrl });
  }
}
