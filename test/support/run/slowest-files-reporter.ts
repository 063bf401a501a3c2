/**
 * Prints the slowest test files at the end of every run, so the next lever on `npm test`'s time is in
 * plain sight. A file's time is what its worker spent on it: importing it, its hooks and its tests, less
 * a real-time suite's wait for its slot (real-time-setup.ts). Then the real-time suites' time in their
 * slots over the slots: with suites that take as long as they did, no run with that many slots is shorter.
 * Registered in vitest.config.ts beside the default reporter.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { realTimeSlotCount } from './real-time-slots.ts';
import { halfSlotsOf } from './real-time-suites.ts';

export interface FileTime {
  file: string;
  ms: number;
  /** Where `ms` went: importing the file, its hooks (system start and stop), its tests (wall clock). */
  parts?: { importMs: number; hooksMs: number; testsMs: number };
}

/** The `count` slowest files, slowest first. */
export function slowestFiles(times: readonly FileTime[], count: number): FileTime[] {
  return [...times].sort((a, b) => b.ms - a.ms).slice(0, count);
}

const s1 = (ms: number) => (ms / 1000).toFixed(1);

/**
 * The lines the reporter prints: a heading, then one file a line with its seconds, aligned, and where
 * they went. A suite's hooks grow most on a loaded machine (a system started while others compute).
 */
export function formatSlowest(slowest: readonly FileTime[]): string[] {
  const seconds = slowest.map((t) => s1(t.ms));
  const width = Math.max(0, ...seconds.map((s) => s.length));
  const parts = (t: FileTime) =>
    t.parts
      ? `  (import ${s1(t.parts.importMs)}, hooks ${s1(t.parts.hooksMs)}, tests ${s1(t.parts.testsMs)})`
      : '';
  return [
    `Slowest ${slowest.length} test files (seconds in their worker):`,
    ...slowest.map((t, i) => `  ${seconds[i]!.padStart(width)} s  ${t.file}${parts(t)}`),
  ];
}

/**
 * The real-time suites' own time, and the shortest run they allow a few at a time: each holds its
 * `slotShare` (real-time-suites.ts: 1, or ½ for a light one, 0 for a file that is not one) of `slots`
 * for as long as it takes. No real-time suite, nothing.
 */
export function formatRealTimeFloor(
  times: readonly FileTime[],
  slotShare: (file: string) => number,
  slots: number,
): string | undefined {
  const real = times.filter((t) => slotShare(t.file) > 0);
  if (real.length === 0) return undefined;
  const seconds = real.reduce((sum, t) => sum + t.ms, 0) / 1000;
  const slotSeconds = real.reduce((sum, t) => sum + t.ms * slotShare(t.file), 0) / 1000;
  const light = real.filter((t) => slotShare(t.file) < 1).length;
  return (
    `Real-time suites: ${real.length} file${real.length === 1 ? '' : 's'}, ${seconds.toFixed(0)} s of their own, ` +
    `${slotSeconds.toFixed(0)} s in slots (${light} light, holding half a slot), ${slots} slots: ` +
    `the run takes at least ${(slotSeconds / slots).toFixed(0)} s.`
  );
}

/**
 * The wall-clock time some tests took together: the union of their [start, start + duration] spans,
 * so tests that ran at once (`describe.concurrent`) count once, not added up.
 */
export function spannedMs(spans: readonly { startTime: number; duration: number }[]): number {
  const sorted = [...spans].sort((a, b) => a.startTime - b.startTime);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const { startTime, duration } of sorted) {
    const spanEnd = startTime + duration;
    if (spanEnd <= end) continue;
    total += spanEnd - Math.max(startTime, end);
    end = spanEnd;
  }
  return total;
}

function fileTime(module: TestModule, root: string): FileTime {
  const d = module.diagnostic();
  const slotWaitMs = module.meta().slotWaitMs ?? 0;
  const spans = [...module.children.allTests()].flatMap((test) => test.diagnostic() ?? []);
  const testsMs = spannedMs(spans);
  const importMs = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration;
  const hooksMs = Math.max(0, d.duration - slotWaitMs - testsMs);
  return {
    file: relative(root, module.moduleId),
    ms: importMs + d.duration - slotWaitMs,
    parts: { importMs, hooksMs, testsMs },
  };
}

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();
  private readonly count = 10;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const times = testModules.map((m) => fileTime(m, this.root));
    const floor = formatRealTimeFloor(times, (file) => halfSlotsOf(file) / 2, realTimeSlotCount());
    const lines = [...formatSlowest(slowestFiles(times, this.count)), ...(floor ? [floor] : [])];
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
