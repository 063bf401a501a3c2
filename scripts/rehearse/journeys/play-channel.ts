/**
 * A channel plays through the containerized engine as a viewer's player sees it: hls.js in headless
 * Chromium (test/support/browser.ts) and ffmpeg (test/support/hls-client.ts), each for a few seconds.
 */
import {
  CHROMIUM_PATH,
  chromiumAvailable,
  describeErrors,
  isSegmentLoadError,
  playInBrowser,
} from '../../../test/support/browser';
import { playWithFfmpeg } from '../../../test/support/hls-client';
import { waitOnAir } from '../../../test/support/on-air';

export async function playsInHlsJs(masterUrl: string, seconds = 12): Promise<string> {
  if (!chromiumAvailable())
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: the rehearsal plays channels in hls.js`);
  await waitOnAir(masterUrl, 60_000);
  const play = await playInBrowser(masterUrl, { seconds, startTimeoutMs: 45_000 });
  const problems = [
    ...(play.started ? [] : ['never started']),
    ...play.fatalErrors.map((e) => `fatal: ${e.details}`),
    ...play.errors
      .filter((e) => e.type === 'mediaError' || isSegmentLoadError(e))
      .map((e) => `${e.type}: ${e.details}`),
    ...play.pageErrors,
  ];
  if (problems.length) throw new Error(`hls.js: ${problems.join('; ')}\n${describeErrors(play.errors)}`);
  return `hls.js played ${play.playedSeconds.toFixed(1)} s in ${play.wallSeconds.toFixed(1)} s, stalls ${play.stalls}, discontinuities ${play.discontinuitiesCrossed}`;
}

export async function playsInFfmpeg(masterUrl: string, seconds = 10): Promise<string> {
  const play = await playWithFfmpeg(masterUrl, { seconds });
  if (!play.ok) throw new Error(`ffmpeg: ${play.errors.join('; ') || 'failed'}\n${play.stderrTail}`);
  return `ffmpeg played ${play.playedSeconds.toFixed(1)} s`;
}
