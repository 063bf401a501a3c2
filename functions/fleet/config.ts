import { readEnum, readInt } from '../../core/env';
import type { FleetPolicy } from './desired-tasks';

export function fleetPolicyFromEnv(): FleetPolicy {
  return {
    stage: readEnum('ONAIR_STAGE', ['test', 'prod'] as const, 'test'),
    channelsPerTask: readInt('ENGINE_CHANNELS_PER_TASK', 500, { min: 1 }),
    maxTasks: readInt('ENGINE_MAX_TASKS', 20, { min: 1 }),
  };
}
