import { describe, expect, it } from 'vitest';
import { longestFirst } from '../support/run/longest-first-sequencer';
import { formatSlowest, slowestFiles } from '../support/run/slowest-files-reporter';

describe('the order files start in', () => {
  it('puts the listed long files first, in the list’s order, and keeps the order of the rest', () => {
    const files = ['a.test.ts', 'long-2.test.ts', 'b.test.ts', 'long-1.test.ts', 'c.test.ts'];
    expect(longestFirst(files, (f) => f, ['long-1.test.ts', 'long-2.test.ts', 'absent.test.ts'])).toEqual([
      'long-1.test.ts',
      'long-2.test.ts',
      'a.test.ts',
      'b.test.ts',
      'c.test.ts',
    ]);
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
});
