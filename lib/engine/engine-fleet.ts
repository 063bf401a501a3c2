/**
 * The playout engine in AWS: the Fargate service behind an internal ALB (engine-service.ts),
 * CloudFront in front through a VPC origin (playback-distribution.ts), and the fleet dispatcher that
 * sizes the service from the channel count (fleet-dispatcher.ts).
 */
import { CfnOutput } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import { Construct } from 'constructs';
import { BATCH_WRITE, grantTable, READ_ITEMS, WRITE_ITEMS } from '../grants';
import type { SigningKeys } from '../signing-keys';
import type { StackConfig } from '../stack-config';
import type { State } from '../state';
import { EngineService } from './engine-service';
import { FleetDispatcher } from './fleet-dispatcher';
import { PlaybackDistribution } from './playback-distribution';

export interface EngineFleetProps {
  config: StackConfig;
  state: State;
  vpc: ec2.Vpc;
  /** Environment of the engine process beyond the state's (e.g. the schedule plugin's URL). */
  environment?: Record<string, string>;
  /** The engine mints its own token for the schedule API. */
  signingKeys: SigningKeys;
}

export class EngineFleet extends Construct {
  readonly cluster: ecs.Cluster;
  readonly engine: EngineService;
  readonly playback: PlaybackDistribution;
  readonly dispatcher: FleetDispatcher;

  constructor(scope: Construct, id: string, props: EngineFleetProps) {
    super(scope, id);
    const { state, config } = props;
    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: props.vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });
    this.engine = new EngineService(this, 'Service', {
      vpc: props.vpc,
      cluster: this.cluster,
      size: config.engineSize,
      environment: {
        ONAIR_STAGE: config.stage,
        TABLE_CHANNELS: state.env.TABLE_CHANNELS!,
        TABLE_PLAYOUT_LOG: state.env.TABLE_PLAYOUT_LOG!,
        TABLE_ASRUN: state.env.TABLE_ASRUN!,
        ASRUN_RETENTION_DAYS: String(config.asRunRetentionDays),
        ENGINE_TIMESHIFT_RETENTION_H: String(config.timeshiftRetentionHours),
        JWT_KEY_PARAMETER: props.signingKeys.prefix,
        ...props.environment,
      },
    });
    grantTable(state.tables.channels, this.engine.taskRole, READ_ITEMS);
    grantTable(state.tables.playoutLog, this.engine.taskRole, READ_ITEMS, WRITE_ITEMS);
    // Every task puts the as-run entries it builds from the shared log, in batches (host/asrun-recorder.ts).
    grantTable(state.tables.asRun, this.engine.taskRole, BATCH_WRITE);
    props.signingKeys.grantRead(this.engine.taskRole);
    // Tasks starting in the deploy that creates the keys find them there.
    this.engine.service.service.node.addDependency(props.signingKeys);

    this.playback = new PlaybackDistribution(this, {
      stage: config.stage,
      loadBalancer: this.engine.loadBalancer,
      playbackDomain: config.playbackDomain,
    });
    // The slate ships in the image's static directory and is fetched (and played) through CloudFront.
    this.engine.service.taskDefinition.defaultContainer?.addEnvironment(
      'ENGINE_SLATE_URI',
      `${this.playback.baseUrl}/slate/master.m3u8`,
    );

    this.dispatcher = new FleetDispatcher(this, 'FleetDispatcher', {
      stage: config.stage,
      state,
      cluster: this.cluster,
      service: this.engine.service.service,
    });

    new CfnOutput(this, 'PlaybackBaseUrl', { value: this.playback.baseUrl });
    new CfnOutput(this, 'PlaybackDistributionDomain', {
      value: this.playback.distribution.distributionDomainName,
      description: 'CNAME target for playbackDomain',
    });
    new CfnOutput(this, 'EngineResetKeySecret', {
      value: this.engine.resetKey.secretArn,
      description:
        'aws secretsmanager get-secret-value --secret-id <this> --query SecretString --output text',
    });
  }

  get playbackBaseUrl(): string {
    return this.playback.baseUrl;
  }
}
