/**
 * At most a few real-time suites at once, across the run's worker processes. A real-time suite plays
 * or waits on the wall clock (hls.js in Chromium, an ffmpeg live source, an outage) and asserts on what
 * it saw in time; each keeps about a third of a core busy. Six at once on two cores starved them (late
 * switches, stalls, timed-out reloads) while the machine was 100 % busy for the whole run, before the
 * players judged their halts and one Chromium served every play. Three at once passed but left the
 * run waiting on them with the cores 68 % busy (vitest 565 s, their floor 561 s); four passed in 443 s
 * (83 % busy), and 491 s with half a core taken by a busy loop (96 %); five passed three local runs
 * (394 s, and 411 s and 427 s beside a busy loop) but failed a clean-clone run on a player's halt:
 * 2026-11-29. Four keeps a margin.
 *
 * A slot is a file `slot-<n>.pid` in the run's folder holding its holder's pid, linked into place (one
 * taker wins), so a slot whose holder died without giving it back is taken back. A taker may hold
 * several at once (real-time-setup.ts makes two files of each slot, so a light suite holds half of one).
 */
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../../core/process/is-alive.ts';
import { waitFor } from '../../../core/wait-for.ts';

/** The most real-time suites at once: `ONAIR_TEST_REAL_TIME_SLOTS` (1–16), 4 by default. */
export function realTimeSlotCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ONAIR_TEST_REAL_TIME_SLOTS;
  if (raw === undefined || raw === '') return 4;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new Error(`ONAIR_TEST_REAL_TIME_SLOTS must be a whole number from 1 to 16, got "${raw}"`);
  return n;
}

const holderOf = (file: string): number | undefined => {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // released meanwhile
  }
};

/**
 * Takes the slot in `file` for `pid` if it is free or its holder is gone; true when taken. The slot
 * file is made whole beside it and linked into place, so it always names its holder; a dead holder's
 * file is removed under a lock (`<file>.reap`), so two waiters cannot both take it back.
 */
function tryTake(file: string, pid: number): boolean {
  const own = `${file}.${pid}`;
  writeFileSync(own, String(pid));
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(own, { force: true });
  }
  const holder = holderOf(file);
  if (holder === undefined || isAlive(holder)) return false;
  try {
    mkdirSync(`${file}.reap`);
  } catch {
    return false; // another waiter is taking it back
  }
  try {
    const again = holderOf(file);
    if (again !== undefined && !isAlive(again)) rmSync(file, { force: true });
  } finally {
    rmSync(`${file}.reap`, { recursive: true, force: true });
  }
  return false; // free now: the next probe takes it
}

export interface SlotOptions {
  folder: string;
  count: number;
  /** How many of the slots to hold at once (1 by default): all of them, or none while waiting. */
  take?: number;
  /** Give up after this long: a hang elsewhere, not a queue. */
  timeoutMs: number;
  pid?: number;
}

/**
 * Takes `take` of the slots in `files` for `pid`, or none: what it took is given back when it cannot
 * take them all, so two waiters each holding part of what both need never wait on each other.
 */
function tryTakeAll(files: readonly string[], take: number, pid: number): string[] | undefined {
  const taken: string[] = [];
  for (const file of files) {
    if (taken.length === take) break;
    if (tryTake(file, pid)) taken.push(file);
  }
  if (taken.length === take) return taken;
  for (const file of taken) rmSync(file, { force: true });
  return undefined;
}

/**
 * Waits until `take` slots are free and takes them; the function returned gives them back (each only
 * while it is still this holder's). A holder that ends without giving them back (its worker killed after
 * a failed hook) leaves a dead pid, which the next waiter takes back.
 */
export async function takeSlot(options: SlotOptions): Promise<() => void> {
  const pid = options.pid ?? process.pid;
  const take = options.take ?? 1;
  if (!Number.isInteger(take) || take < 1 || take > options.count)
    throw new Error(`a real-time suite takes 1 to ${options.count} slots, not ${take}`);
  const files = Array.from({ length: options.count }, (_, n) => join(options.folder, `slot-${n}.pid`));
  const what = `${take === 1 ? 'one' : take} of ${options.count} real-time slots`;
  const taken = await waitFor(
    () => tryTakeAll(files, take, pid),
    (held) => held !== undefined,
    { timeoutMs: options.timeoutMs, intervalMs: 250, what },
  );
  return () => {
    for (const file of taken!) if (holderOf(file) === pid) rmSync(file, { force: true });
  };
}
