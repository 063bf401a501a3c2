import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listedFirst, realTimeOrder } from '../support/run/real-time-sequencer';
import {
  halfSlotsOf,
  LIGHT_REAL_TIME_SUITES,
  LONG_COMPUTING_SUITES,
  REAL_TIME_SUITES,
} from '../support/run/real-time-suites';
import {
  formatRealTimeFloor,
  formatSlowest,
  slowestFiles,
  spannedMs,
} from '../support/run/slowest-files-reporter';

describe('the order files start in', () => {
  it('puts the listed files first, in the list’s order, and keeps the order of the rest', () => {
    const files = ['a.test.ts', 'long-2.test.ts', 'b.test.ts', 'long-1.test.ts', 'c.test.ts'];
    expect(listedFirst(files, (f) => f, ['long-1.test.ts', 'long-2.test.ts', 'absent.test.ts'])).toEqual([
      'long-1.test.ts',
      'long-2.test.ts',
      'a.test.ts',
      'b.test.ts',
      'c.test.ts',
    ]);
  });

  it('starts as many real-time suites as there are slots, then spreads the rest evenly among the other integration files, and the unit files last', () => {
    const files = ['a', 'rt3', 'b', 'u1', 'c', 'rt1', 'd', 'long', 'rt4', 'e', 'u2', 'rt2', 'f', 'g'].map(
      (f) => (f.startsWith('u') ? `${f}.test.ts` : `${f}.int.test.ts`),
    );
    const order = realTimeOrder(files, (f) => f, {
      realTime: ['rt1', 'rt2', 'rt3', 'rt4'].map((f) => `${f}.int.test.ts`),
      longComputing: ['long.int.test.ts'],
      slots: 2,
    });
    expect(order.map((f) => f.split('.')[0])).toEqual([
      'rt1',
      'rt2',
      'long',
      'a',
      'rt3',
      'b',
      'c',
      'd',
      'rt4',
      'e',
      'f',
      'g',
      'u1',
      'u2',
    ]);
  });

  it('starts as many real-time suites as the slots hold when light ones hold half a slot', () => {
    const files = ['rt1', 'rt2', 'rt3', 'rt4', 'a', 'b'].map((f) => `${f}.int.test.ts`);
    const order = realTimeOrder(files, (f) => f, {
      realTime: ['rt1', 'rt2', 'rt3', 'rt4'].map((f) => `${f}.int.test.ts`),
      longComputing: [],
      slots: 2,
      halfSlotsOf: (f) => (f === 'rt1.int.test.ts' || f === 'rt2.int.test.ts' ? 1 : 2),
    });
    expect(order.map((f) => f.split('.')[0])).toEqual(['rt1', 'rt2', 'rt3', 'a', 'rt4', 'b']);
  });

  it('puts the others after the real-time suites when they are too few to space them', () => {
    const files = ['rt1.int.test.ts', 'a.int.test.ts', 'rt2.int.test.ts', 'rt3.int.test.ts'];
    const order = realTimeOrder(files, (f) => f, {
      realTime: ['rt1.int.test.ts', 'rt2.int.test.ts', 'rt3.int.test.ts'],
      longComputing: [],
      slots: 1,
    });
    expect(order).toEqual(['rt1.int.test.ts', 'rt2.int.test.ts', 'rt3.int.test.ts', 'a.int.test.ts']);
  });
});

describe('the real-time suites', () => {
  const integrationFiles = (readdirSync('test', { recursive: true }) as string[])
    .filter((f) => f.endsWith('.int.test.ts'))
    .map((f) => `test/${f}`);

  it('are listed by paths that exist, as are the long computing ones', () => {
    expect([...REAL_TIME_SUITES, ...LONG_COMPUTING_SUITES].filter((f) => !existsSync(f))).toEqual([]);
  });

  it('include every suite that plays in a browser or sends a live source', () => {
    const plays = integrationFiles.filter((f) =>
      /from '\.\.\/support\/(browser|live-source)'/.test(readFileSync(f, 'utf8')),
    );
    expect(plays.filter((f) => !REAL_TIME_SUITES.includes(f))).toEqual([]);
  });

  it('hold half a slot only when they are listed as real-time and light, and a file that is not one none', () => {
    expect(LIGHT_REAL_TIME_SUITES.filter((f) => !REAL_TIME_SUITES.includes(f))).toEqual([]);
    expect(halfSlotsOf(LIGHT_REAL_TIME_SUITES[0]!)).toBe(1);
    expect(halfSlotsOf('test/e2e/live-sources.int.test.ts')).toBe(2);
    expect(halfSlotsOf('test/cdk/stack.int.test.ts')).toBe(0);
  });
});

describe('the slowest-files report', () => {
  it('names the slowest files, slowest first, each with its seconds aligned', () => {
    const times = [
      { file: 'quick.test.ts', ms: 120 },
      { file: 'slow.int.test.ts', ms: 95_400 },
      { file: 'middle.test.ts', ms: 8_050 },
    ];
    expect(formatSlowest(slowestFiles(times, 2))).toEqual([
      'Slowest 2 test files (seconds in their worker):',
      '  95.4 s  slow.int.test.ts',
      '   8.1 s  middle.test.ts',
    ]);
  });

  it('says where each file’s seconds went: its import, its hooks and its tests', () => {
    const parts = { importMs: 2_060, hooksMs: 61_300, testsMs: 132_000 };
    expect(formatSlowest([{ file: 'outage.int.test.ts', ms: 195_360, parts }])).toEqual([
      'Slowest 1 test files (seconds in their worker):',
      '  195.4 s  outage.int.test.ts  (import 2.1, hooks 61.3, tests 132.0)',
    ]);
  });

  it('counts tests that ran at once by the wall-clock time they spanned together, not added up', () => {
    const spans = [
      { startTime: 1_000, duration: 50_000 },
      { startTime: 2_000, duration: 30_000 }, // inside the first
      { startTime: 40_000, duration: 20_000 }, // overlaps its end
      { startTime: 70_000, duration: 5_000 }, // after a gap
    ];
    expect(spannedMs(spans)).toBe(59_000 + 5_000);
    expect(spannedMs([])).toBe(0);
  });

  it('ends with the real-time suites’ own time and the shortest run their slots allow, a light one holding half a slot', () => {
    const times = [
      { file: 'plays.int.test.ts', ms: 200_000 },
      { file: 'computes.int.test.ts', ms: 90_000 },
      { file: 'outage.int.test.ts', ms: 100_400 },
    ];
    const share = (f: string) => ({ 'plays.int.test.ts': 1, 'outage.int.test.ts': 0.5 })[f] ?? 0;
    expect(formatRealTimeFloor(times, share, 2)).toBe(
      'Real-time suites: 2 files, 300 s of their own, 250 s in slots (1 light, holding half a slot), 2 slots: ' +
        'the run takes at least 125 s.',
    );
    expect(formatRealTimeFloor(times, () => 0, 3)).toBeUndefined();
  });
});
