import { describe, expect, it } from 'vitest';
import { desiredEngineTasks } from '../../functions/fleet/desired-tasks';

const prod = { stage: 'prod' as const, channelsPerTask: 500, maxTasks: 20 };
const test = { ...prod, stage: 'test' as const };

describe('engine fleet size', () => {
  it('runs no engine task without channels', () => {
    expect(desiredEngineTasks(0, prod)).toBe(0);
  });
  it('runs at least two tasks in production as soon as one channel exists', () => {
    expect(desiredEngineTasks(1, prod)).toBe(2);
  });
  it('runs one task in the test stage for a few channels', () => {
    expect(desiredEngineTasks(3, test)).toBe(1);
  });
  it('adds a task per channelsPerTask channels', () => {
    expect(desiredEngineTasks(1001, prod)).toBe(3);
    expect(desiredEngineTasks(1500, test)).toBe(3);
  });
  it('never exceeds maxTasks', () => {
    expect(desiredEngineTasks(1_000_000, prod)).toBe(20);
  });
});
