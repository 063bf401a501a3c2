import { describe, expect, it } from 'vitest';
import { isPortInUse, PortInUseError, startOnPort } from '../../local/ports';

/** A start function whose first `collisions` calls find their port taken; it records the ports tried. */
function colliding(collisions: number) {
  const tried: number[] = [];
  const start = async (port: number) => {
    tried.push(port);
    if (tried.length <= collisions) throw new PortInUseError(port);
    return `listening on ${port}`;
  };
  return { start, tried };
}

describe('startOnPort', () => {
  it('starts on the port it is given, once, and reports a collision there to the caller', async () => {
    const { start, tried } = colliding(1);
    await expect(startOnPort(8100, start)).rejects.toThrow(PortInUseError);
    expect(tried).toEqual([8100]);
  });

  it('with port 0, tries another free port after each collision', async () => {
    const { start, tried } = colliding(2);
    const started = await startOnPort(0, start);
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBeGreaterThan(1);
    expect(tried.every((port) => port > 0)).toBe(true);
    expect(started).toBe(`listening on ${tried[2]}`);
  });

  it('gives up after the allowed attempts', async () => {
    const { start, tried } = colliding(10);
    await expect(startOnPort(0, start, 3)).rejects.toThrow(PortInUseError);
    expect(tried).toHaveLength(3);
  });

  it('does not retry a failure other than a collision', async () => {
    let calls = 0;
    const start = async () => {
      calls++;
      throw new Error('java: command not found');
    };
    await expect(startOnPort(0, start)).rejects.toThrow('java: command not found');
    expect(calls).toBe(1);
  });

  it("counts Node's EADDRINUSE as a collision", () => {
    expect(isPortInUse(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }))).toBe(true);
    expect(isPortInUse(new Error('other'))).toBe(false);
  });
});
