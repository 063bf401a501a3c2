/**
 * An HLS interstitial break as hls.js played it (the page's record of its interstitial events,
 * test/support/browser.ts): the suites that play one (a Loop channel's preroll, a schedule entry's ad
 * break) end their viewing and read the break the same way. Import it whole, as `adBreak`.
 */
import { type BrowserPlayback, describePlaybackErrors, type InterstitialRecord } from '../../support/browser';

/** A page expression for `until`: the channel has played 4 s of its own content after the break. */
export const RESUMED_AND_PLAYING = `(() => {
  const r = window.__report;
  const resumed = r.interstitials.find((e) => e.type === 'primaryResumed');
  const back = resumed && r.mediaEvents.find((e) => e.type === 'playing' && e.atMs >= resumed.atMs);
  const last = r.samples[r.samples.length - 1];
  return !!back && !!last && last.atMs > back.atMs && last.currentTime >= back.currentTime + 4;
})()`;

/** The steps of a whole break, in the order hls.js takes them. */
export const WHOLE = ['started', 'assetStarted', 'assetEnded', 'ended', 'primaryResumed'];

export interface PlayedBreak {
  /** Every interstitial event but INTERSTITIALS_UPDATED. */
  steps: InterstitialRecord[];
  /** The first break hls.js started. */
  started: InterstitialRecord | undefined;
  /** That break's steps, through the primary's resumption after it. */
  sequence: string[];
}

export function played(play: BrowserPlayback): PlayedBreak {
  const steps = play.raw.interstitials.filter((e) => e.type !== 'updated');
  const started = steps.find((e) => e.type === 'started');
  // INTERSTITIALS_PRIMARY_RESUMED names no event: it is the step after the break's end.
  const sequence = started
    ? steps.filter((e) => e.id === started.id || e.type === 'primaryResumed').map((e) => e.type)
    : [];
  return { steps, started, sequence };
}

/** One line of the steps, for the test's output. */
export const describeSteps = (steps: readonly InterstitialRecord[]): string =>
  steps.map((e) => `${(e.atMs / 1000).toFixed(1)}s ${e.type} ${e.id}`).join(', ');

/** The break's events, the viewing's errors and `more` (the suite's own record), for a failure message. */
export const context = (play: BrowserPlayback, more: string): string =>
  `interstitial events: ${JSON.stringify(play.raw.interstitials)}\n${describePlaybackErrors(play)}\n${more}`;
