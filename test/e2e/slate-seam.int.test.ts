/**
 * The engine's default slate between a packager's CMAF programme and itself, watched in hls.js in
 * Chromium: the slate is mapped onto the channel's ladder by picture size, and Chromium decodes every
 * frame of it, so the player crosses both seams (programme → slate → programme) on each rung with no
 * fatal error. Runs where /usr/bin/chromium exists (CI installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from '../../local/system';
import { startWebhook } from '../support/answering-webhook';
import { CHROMIUM_PATH, chromiumAvailable, describeErrors, playInBrowser } from '../support/browser';
import { ensureFixtures, type FixturePaths } from '../support/fixtures';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { isPlayersHaltNote } from '../support/stall-kinds';
import { type StaticServer, startStaticServer } from '../support/static-server';

const noChromium = !chromiumAvailable();
const skipReason = noChromium ? ` (skipped: no Chromium at ${CHROMIUM_PATH})` : '';

let system: RunningSystem;
let origin: StaticServer;
let fixtures: FixturePaths;

async function post(path: string, body: unknown, jwt?: string): Promise<Response> {
  return fetch(`${system.urls.channel}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(jwt ? { 'x-jwt': `Bearer ${jwt}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe(`the engine's default slate between CMAF programmes in hls.js${skipReason}`, () => {
  beforeAll(async () => {
    if (noChromium) return;
    fixtures = await ensureFixtures();
    origin = await startStaticServer(fixtures.root);
    // The engine plays its own default slate (engine-container/static/slate/), as `npm start` does.
    system = await startSystem({
      sharedDynamoDb: sharedDynamoDb(),
      ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
      services: ['channel', 'engine'],
      env: { LOG_LEVEL: 'silent' },
    });
  });

  afterAll(async () => {
    await system?.stop();
    await origin?.close();
  });

  it.skipIf(noChromium)(
    'plays into the default slate and back out of it on every rung with every frame decoded and no error',
    async () => {
      const cmaf = { id: 'cmaf', title: 'CMAF', hlsUrl: `${origin.url}/${fixtures.cmaf.path}` };
      // Nothing to play for 8 s after each programme: the engine fills it with its default slate.
      const hook = await startWebhook((n) =>
        n % 2 === 0 ? cmaf : { id: `gap-${n}`, type: 'gap', desiredDurationMs: 8000 },
      );
      try {
        const auth = await post('/token', { company: 'Viewers', email: 'slate@viewers.test' });
        const { token } = (await auth.json()) as { token: string };
        const res = await post('/channel', { name: 'slate-seam', type: 'WebHook', url: hook.url }, token);
        expect(res.status).toBe(201);
        const { playback } = (await res.json()) as { playback: string };
        await waitOnAir(playback);

        // Each rung on its own, until the player has crossed programme → slate → programme on it (the
        // slate with 16 reference frames this replaced stopped the player at the first seam).
        for (const level of [0, 1]) {
          const play = await playInBrowser(playback, {
            seconds: 90,
            // Held on the rung: never up from the lowest, never below the highest.
            hlsConfig:
              level === 0
                ? { startLevel: 0, abrBandWidthUpFactor: 0 }
                : { startLevel: 1, minAutoBitrate: fixtures.cmaf.recipe.ladder[1]!.kbps * 1000 },
            until: `window.__report.frags.filter((f) => f.level === ${level})
              .map((f) => (f.url.includes('/slate/') ? 's' : 'c')).join('').match(/cs+c/) !== null`,
          });
          const context = `level ${level}, errors:\n${describeErrors(play.errors) || '(none)'}\npage: ${play.pageErrors.join('; ') || '(none)'}\nmedia: ${JSON.stringify(play.raw.mediaEvents.filter((e) => e.type === 'error'))}`;
          const path = play.raw.frags
            .filter((f) => f.level === level)
            .map((f) => (f.url.includes('/slate/') ? 's' : 'c'))
            .join('');
          console.info(
            `level ${level}: playing at ${play.raw.firstPlayingAtMs} ms, played ${play.playedSeconds.toFixed(1)} s, fragments ${path}, errors:\n${describeErrors(play.errors) || '(none)'}`,
          );
          expect(path, context).toMatch(/cs+c/);
          // The slate's own rung of the same picture size stands in for this one (180p, 360p).
          const slateRung = `/slate/${fixtures.cmaf.recipe.ladder[level]!.name}/`;
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
          // bufferAppendNoProgress on its audio). Only hls.js's notes on a halt judged the player's remain.
          expect(
            play.errors.filter((e) => !isPlayersHaltNote(e, play.judgedStalls)),
            context,
          ).toEqual([]);
          expect(play.pageErrors, context).toEqual([]);
        }
      } finally {
        await hook.close();
      }
    },
    300_000,
  );
});
