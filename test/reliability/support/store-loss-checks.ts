/** What must hold after a store-loss run, the same for every store. */
import { expect } from 'vitest';
import { waitFor } from '../../../core/wait-for';
import { LOG_INTERVAL_MS } from '../../../engine-container/src/channel/outage/outage';
import { describeErrors } from '../../support/browser';
import { describeStalls, streamHaltProblems } from '../../support/stall-kinds';
import { OUTAGE_MS, type StoreLossRun } from './store-loss';

export async function expectPlayedThrough(run: StoreLossRun, logLines: string[], vodFolder: string) {
  const { play, violations, variant } = run;
  expect(violations).toEqual([]);
  expect(play.started).toBe(true);
  expect(play.fatalErrors, describeErrors(play.fatalErrors)).toEqual([]);
  // At most one halt of the stream's making; one a starved player made of its own is printed.
  // (streamHaltProblems also counts halts recorded without the buffers to judge them by.)
  expect(streamHaltProblems(play).length, describeStalls(play.judgedStalls)).toBeLessThanOrEqual(1);
  // It played on through the outage on the slate the engine kept alone, not only on the log it had ahead.
  expect(play.raw.frags.some((f) => f.url.includes('/slate/'))).toBe(true);
  const errorLines = logLines.filter((l) => l.includes('"level":"error"'));
  // A line a minute for the channel, and one for each other reader of the store: bounded, not a flood.
  expect(errorLines.length, errorLines.slice(0, 5).join('')).toBeLessThanOrEqual(12);
  // The channel's own: one as the outage begins, then one a minute (the revived store may fail once more).
  const channelLines = errorLines.filter((l) => l.includes('"msg":"channel playout failed'));
  expect(channelLines.length, channelLines.join('')).toBeLessThanOrEqual(
    Math.ceil(OUTAGE_MS / LOG_INTERVAL_MS) + 1,
  );
  // Back on its own content: the newest segment comes from the VOD again, not the slate.
  await waitFor(
    async () => (await (await fetch(variant)).text()).trim().split('\n').at(-1) ?? '',
    (last) => last.includes(`/${vodFolder}/`),
    { timeoutMs: 60_000, intervalMs: 1000, what: 'the channel back on its VOD' },
  );
}
