/**
 * The engine's default slate between a packager's CMAF programme and itself, watched in hls.js in
 * Chromium: the slate is mapped onto the channel's ladder by picture size, and Chromium decodes every
 * frame of it, so the player crosses both seams (programme → slate → programme) on each rung with no
 * error of any kind the stream caused. Runs where /usr/bin/chromium exists (CI installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhook } from '../support/answering-webhook';
import {
  chromiumAvailable,
  chromiumSkipReason,
  describeErrors,
  describePlaybackErrors,
  playInBrowser,
} from '../support/browser';
import { channelUser, type FixtureSystem, startFixtureSystem } from '../support/fixture-system';
import { awaitAll } from '../support/promises/await-all';
import { isPlayersNote } from '../support/stall-kinds';

const noChromium = !chromiumAvailable();
const skipReason = chromiumSkipReason();

/** The system, the fixtures and their origin. */
let onair: FixtureSystem;

describe(`the engine's default slate between CMAF programmes in hls.js${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    // The engine plays its own default slate (engine-container/static/slate/), as `npm start` does.
    onair = await startFixtureSystem(['channel', 'engine']);
  });

  afterAll(async () => {
    await onair?.stop();
  });

  it.skipIf(noChromium)(
    'plays into the default slate and back out of it on every rung with every frame decoded and no error',
    async () => {
      const cmaf = { id: 'cmaf', title: 'CMAF', hlsUrl: `${onair.origin.url}/${onair.fixtures.cmaf.path}` };
      // Nothing to play for 8 s after each programme: the engine fills it with its default slate.
      const hook = await startWebhook((n) =>
        n % 2 === 0 ? cmaf : { id: `gap-${n}`, type: 'gap', desiredDurationMs: 8000 },
      );
      try {
        const user = await channelUser(onair.system, 'slate@viewers.test', 'Viewers');
        const { playback } = await user.channelOnAir({
          name: 'slate-seam',
          type: 'WebHook',
          url: hook.url,
        });

        // Each rung in a player of its own, the two at once (a player waits far more than it computes),
        // until it has crossed programme → slate → programme on it (the slate with 16 reference frames
        // this replaced stopped the player at the first seam).
        const playRung = async (level: number) => {
          const play = await playInBrowser(playback, {
            seconds: 90,
            // Held on the rung: never up from the lowest, never below the highest.
            hlsConfig:
              level === 0
                ? { startLevel: 0, abrBandWidthUpFactor: 0 }
                : { startLevel: 1, minAutoBitrate: onair.fixtures.cmaf.recipe.ladder[1]!.kbps * 1000 },
            until: `window.__report.frags.filter((f) => f.level === ${level})
              .map((f) => (f.url.includes('/slate/') ? 's' : 'c')).join('').match(/cs+c/) !== null`,
          });
          const context = `level ${level}, ${describePlaybackErrors(play)}\nmedia: ${JSON.stringify(play.raw.mediaEvents.filter((e) => e.type === 'error'))}`;
          const path = play.raw.frags
            .filter((f) => f.level === level)
            .map((f) => (f.url.includes('/slate/') ? 's' : 'c'))
            .join('');
          console.info(
            `level ${level}: playing at ${play.raw.firstPlayingAtMs} ms, played ${play.playedSeconds.toFixed(1)} s, fragments ${path}, errors:\n${describeErrors(play.errors) || '(none)'}`,
          );
          expect(path, context).toMatch(/cs+c/);
          // The slate's own rung of the same picture size stands in for this one (180p, 360p).
          const slateRung = `/slate/${onair.fixtures.cmaf.recipe.ladder[level]!.name}/`;
          const slates = play.raw.frags.filter((f) => f.level === level && f.url.includes('/slate/'));
          expect(
            slates.every((f) => f.url.includes(slateRung)),
            context,
          ).toBe(true);
          expect(play.fatalErrors, context).toEqual([]);
          // The decoder took every frame: the video element never went into error.
          expect(
            play.raw.mediaEvents.filter((e) => e.type === 'error'),
            context,
          ).toEqual([]);
          // No error of any kind the stream caused: never the decoder's refusal nor its aftermath, and
          // no fragment buffered twice (the slate's EXT-X-MAP range once came back as the whole file:
          // bufferAppendNoProgress on its audio). Only hls.js's notes of the player's own doing remain: on a
          // halt judged the player's, and its start-up seek from 0 (stall-kinds.ts isStartUpSeek).
          expect(
            play.errors.filter((e) => !isPlayersNote(e, play.judgedStalls)),
            context,
          ).toEqual([]);
          expect(play.pageErrors, context).toEqual([]);
        };
        await awaitAll([playRung(0), playRung(1)]);
      } finally {
        await hook.close();
      }
    },
    300_000,
  );
});
