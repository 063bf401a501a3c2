/** One onair deployment (stage test or prod): state, the services' APIs, the engine fleet, alarms. */
import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Alarms } from './alarms';
import { AsRunExport } from './asrun/asrun-export';
import { AutoabrServiceConstruct } from './autoabr-service';
import { ChannelServiceConstruct } from './channel-service';
import { ConsoleSite } from './console-site';
import { EngineFleet } from './engine/engine-fleet';
import { suppressAcceptedFindings } from './nag-suppressions';
import { Network } from './network';
import { ScheduleServiceConstruct } from './schedule-service';
import { SigningKeys } from './signing-keys';
import { type Stage, stackConfig } from './stack-config';
import { State } from './state';

export interface OnairStackProps extends StackProps {
  stage: Stage;
}

export class OnairStack extends Stack {
  constructor(scope: Construct, id: string, props: OnairStackProps) {
    // prod: CloudFormation refuses to delete the stack until an operator turns this off.
    super(scope, id, {
      ...props,
      terminationProtection: props.terminationProtection ?? props.stage === 'prod',
    });
    const config = stackConfig(props.stage, (key) => this.node.tryGetContext(key));
    const { stage } = config;
    Tags.of(this).add('project', 'onair');
    Tags.of(this).add('stage', stage);

    const state = new State(this, 'State', { stage });
    const signingKeys = new SigningKeys(this, 'SigningKeys', { stage });
    const { vpc } = new Network(this, 'Network');
    const { apiThrottle } = config;
    const schedule = new ScheduleServiceConstruct(this, 'ScheduleService', {
      stage,
      state,
      signingKeys,
      apiThrottle,
    });
    const engine = new EngineFleet(this, 'EngineFleet', {
      config,
      state,
      vpc,
      signingKeys,
      environment: { SCHEDULE_SERVICE_API_URL: `${schedule.api.api.apiEndpoint}/api/v1` },
    });
    const autoabr = new AutoabrServiceConstruct(this, 'AutoabrService', {
      stage,
      state,
      cluster: engine.cluster,
      vpc,
      workerSize: config.workerSize,
      extraBuckets: config.autoabrBuckets,
      signingKeys,
      apiThrottle,
    });
    const channel = new ChannelServiceConstruct(this, 'ChannelService', {
      stage,
      state,
      playbackBaseUrl: engine.playbackBaseUrl,
      signingKeys,
      apiThrottle,
    });

    const asRunExport = new AsRunExport(this, 'AsRunExport', { state });

    const site = new ConsoleSite(this, 'Console', {
      stage,
      distribution: engine.playback.distribution,
      playbackBaseUrl: engine.playbackBaseUrl,
      apis: { channel: channel.api, schedule: schedule.api, autoabr: autoabr.api },
      extraOrigins: config.consoleOrigins,
    });
    new CfnOutput(this, 'ConsoleUrl', { value: site.url });

    const alarms = new Alarms(this, 'Alarms', { stage, email: config.alarmEmail });
    alarms.apiErrorRate('Channel', channel.api.api);
    alarms.apiErrorRate('Schedule', schedule.api.api);
    alarms.apiErrorRate('Autoabr', autoabr.api.api);
    alarms.unhealthyTargets(engine.engine.service.targetGroup);
    for (const [name, queue] of Object.entries(state.queues))
      alarms.deadLetters(name, queue.deadLetterQueue!.queue);
    alarms.failedAutoabrJobs(autoabr.jobLogGroups);
    alarms.playback5xxRate(engine.playback.distribution);
    alarms.noEngineRunning(engine.engine.service.service);
    alarms.scheduledFunctionErrors('AutoScheduler', schedule.scheduler);
    alarms.scheduledFunctionErrors('AutoabrDispatcher', autoabr.dispatcherFn);
    alarms.scheduledFunctionErrors('FleetDispatcher', engine.dispatcher.fn);
    alarms.scheduledFunctionErrors('AsRunExport', asRunExport.fn);

    suppressAcceptedFindings(this);
  }
}
