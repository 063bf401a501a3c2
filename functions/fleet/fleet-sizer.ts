/** Where a fleet-size decision goes: the engine's ECS service in AWS, the log locally. */
import { ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { awsClientConfig } from '../../core/aws';
import { logger } from '../../core/logger';

export interface FleetSizer {
  resize(desiredCount: number, reason: Record<string, unknown>): Promise<void>;
}

/**
 * The ECS client of the fleet sizer, bounded like every client (core/aws.ts): a hung ECS endpoint fails
 * the resize, and with it the batch of channel events, which SQS delivers again.
 */
export const fleetEcsClient = (): ECSClient => new ECSClient(awsClientConfig());

export class EcsFleetSizer implements FleetSizer {
  constructor(
    private readonly ecs: ECSClient,
    private readonly cluster: string,
    private readonly service: string,
  ) {}

  async resize(desiredCount: number, reason: Record<string, unknown>): Promise<void> {
    await this.ecs.send(
      new UpdateServiceCommand({ cluster: this.cluster, service: this.service, desiredCount }),
    );
    logger.info('engine fleet resized', { desiredCount, service: this.service, ...reason });
  }
}

/** Local runs have one engine process; the decision is logged so it can be seen and checked. */
export class LoggingFleetSizer implements FleetSizer {
  readonly decisions: number[] = [];
  async resize(desiredCount: number, reason: Record<string, unknown>): Promise<void> {
    this.decisions.push(desiredCount);
    logger.info('engine fleet size decided (local: not applied)', { desiredCount, ...reason });
  }
}
