import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realTimeSlotCount, takeSlot } from '../support/run/real-time-slots';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'onair-slots-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
};

describe('real-time slots', () => {
  it('gives each of the slots to one taker, and the next taker the first one given back', async () => {
    const dir = folder();
    const first = await takeSlot({ folder: dir, count: 2, timeoutMs: 1_000, pid: process.pid });
    await takeSlot({ folder: dir, count: 2, timeoutMs: 1_000, pid: process.pid });
    let third = false;
    const waiting = takeSlot({ folder: dir, count: 2, timeoutMs: 5_000, pid: process.pid }).then(() => {
      third = true;
    });
    await expect(takeSlot({ folder: dir, count: 2, timeoutMs: 300 })).rejects.toThrow(/2 real-time slots/);
    expect(third).toBe(false);
    first();
    await waiting;
    expect(third).toBe(true);
  });

  it('holds several slots at once or none: a waiter for two leaves the one free slot to a taker of one', async () => {
    const dir = folder();
    const two = await takeSlot({ folder: dir, count: 3, take: 2, timeoutMs: 1_000 });
    let gotTwo = false;
    const waiting = takeSlot({ folder: dir, count: 3, take: 2, timeoutMs: 5_000 }).then((release) => {
      gotTwo = true;
      return release;
    });
    const one = await takeSlot({ folder: dir, count: 3, take: 1, timeoutMs: 1_000 });
    expect(gotTwo).toBe(false);
    one();
    two();
    (await waiting)();
    expect(gotTwo).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pid'))).toEqual([]);
  });

  it('refuses to take more slots than there are', async () => {
    await expect(takeSlot({ folder: folder(), count: 2, take: 3, timeoutMs: 100 })).rejects.toThrow(
      /1 to 2 slots/,
    );
  });

  it('takes back a slot whose holder died without giving it back', async () => {
    const dir = folder();
    const gone = await deadPid();
    writeFileSync(join(dir, 'slot-0.pid'), String(gone));
    await takeSlot({ folder: dir, count: 1, timeoutMs: 1_000 });
    expect(readFileSync(join(dir, 'slot-0.pid'), 'utf8')).toBe(String(process.pid));
  });

  it('gives back nothing once its slot was taken back by the next holder', async () => {
    const dir = folder();
    const giveBackLate = await takeSlot({ folder: dir, count: 1, timeoutMs: 1_000, pid: await deadPid() });
    await takeSlot({ folder: dir, count: 1, timeoutMs: 1_000 });
    giveBackLate();
    expect(readFileSync(join(dir, 'slot-0.pid'), 'utf8')).toBe(String(process.pid));
  });

  it('is four by default, and a count out of 1–16 is refused', () => {
    expect(realTimeSlotCount({})).toBe(4);
    expect(realTimeSlotCount({ ONAIR_TEST_REAL_TIME_SLOTS: '2' })).toBe(2);
    expect(() => realTimeSlotCount({ ONAIR_TEST_REAL_TIME_SLOTS: '0' })).toThrow(/1 to 16/);
    expect(() => realTimeSlotCount({ ONAIR_TEST_REAL_TIME_SLOTS: 'many' })).toThrow(/1 to 16/);
  });
});
