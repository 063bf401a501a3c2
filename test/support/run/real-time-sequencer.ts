/**
 * The order files start in. The real-time suites (real-time-suites.ts) run a few at once, each holding
 * a slot (real-time-slots.ts), so:
 * - as many as the slots hold start first (a light one holding half a slot), longest first, so none is
 *   left alone at the end;
 * - the rest of them are spread evenly among the other integration files, longest first too: a worker
 *   that reaches one waits for a slot while the others go on with what computes, and a slot is never
 *   left idle for want of a worker that has reached a real-time suite;
 * - the other integration files start with those that compute for a minute or more, then keep vitest's
 *   order (durations it cached on an earlier run, file size on a clean clone);
 * - the unit files, seconds each, come last: among them a waiting real-time suite would find every
 *   other worker done with them and waiting too.
 */
// With extensions, as vitest.config.ts imports this file: Vite's native config loader resolves no other.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { realTimeSlotCount } from './real-time-slots.ts';
import { halfSlotsOf, LONG_COMPUTING_SUITES, REAL_TIME_SUITES } from './real-time-suites.ts';

/** Files in `order` first, in its order; the rest after, in the order given (a stable sort). */
export function listedFirst<T>(
  files: readonly T[],
  name: (file: T) => string,
  order: readonly string[],
): T[] {
  const rank = (file: T) => {
    const at = order.indexOf(name(file));
    return at === -1 ? order.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export interface RunOrder {
  realTime: readonly string[];
  longComputing: readonly string[];
  slots: number;
  /** Half slots a real-time file holds: 1 for a light one, 2 otherwise (the default). */
  halfSlotsOf?: (file: string) => number;
}

const isIntegration = (file: string) => file.endsWith('.int.test.ts');

/** The order above: the real-time files the slots hold, the rest of them spread evenly, then the unit files. */
export function realTimeOrder<T>(files: readonly T[], name: (file: T) => string, order: RunOrder): T[] {
  const realTime = listedFirst(
    files.filter((f) => order.realTime.includes(name(f))),
    name,
    order.realTime,
  );
  const others = files.filter((f) => !order.realTime.includes(name(f)));
  const computing = listedFirst(
    others.filter((f) => isIntegration(name(f))),
    name,
    order.longComputing,
  );
  const unit = others.filter((f) => !isIntegration(name(f)));
  // The longest run of files from the start whose half slots fit in the slots.
  const halves = (f: T) => order.halfSlotsOf?.(name(f)) ?? 2;
  let held = 0;
  let first = 0;
  while (first < realTime.length && held + halves(realTime[first]!) <= 2 * order.slots)
    held += halves(realTime[first++]!);
  const waiting = realTime.slice(first);
  // Waiting file i goes after the computing files up to (i + 1) / (waiting + 1) of them: even gaps, the
  // last gap after the last real-time file.
  const at = (i: number) => Math.floor(((i + 1) * computing.length) / (waiting.length + 1));
  const out = realTime.slice(0, first);
  let next = 0;
  waiting.forEach((file, i) => {
    out.push(...computing.slice(next, at(i)), file);
    next = at(i);
  });
  return [...out, ...computing.slice(next), ...unit];
}

export default class RealTimeSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return realTimeOrder(await super.sort(files), (f) => relative(root, f.moduleId), {
      realTime: REAL_TIME_SUITES,
      longComputing: LONG_COMPUTING_SUITES,
      slots: realTimeSlotCount(),
      halfSlotsOf,
    });
  }
}
