/**
 * How many engine tasks a deployment needs for its channels. One engine process carries up to
 * `channelsPerTask` Loop channels (see the engine benchmark); production runs at least two tasks
 * whenever any channel exists, so losing one task (or an AZ) never takes channels off air.
 */
export interface FleetPolicy {
  stage: 'test' | 'prod';
  channelsPerTask: number;
  maxTasks: number;
}

export function desiredEngineTasks(channelCount: number, policy: FleetPolicy): number {
  if (channelCount <= 0) return 0;
  const floor = policy.stage === 'prod' ? 2 : 1;
  return Math.min(policy.maxTasks, Math.max(floor, Math.ceil(channelCount / policy.channelsPerTask)));
}
