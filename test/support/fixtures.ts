/**
 * Test media fixtures (see scripts/fixtures/recipes.ts for what each one is). `ensureFixtures()` makes
 * any that are missing or out of date (once per process, safely across parallel test workers) and
 * returns where they are. Serve `root` with startStaticServer and request `<fixture>.path`.
 */
import path from 'node:path';
import { logger } from '../../core/logger';
import { generateFixtures } from '../../scripts/fixtures/generate';
import type { HlsRecipe } from '../../scripts/fixtures/recipes';
import * as recipes from '../../scripts/fixtures/recipes';

export interface HlsFixture {
  name: string;
  /** Absolute path of the fixture's folder. */
  dir: string;
  /** Absolute path of its master playlist. */
  master: string;
  /** Master playlist path relative to the fixtures root, for URLs: `vod-a/master.m3u8`. */
  path: string;
  /** The recipe it was made from: durations, segment length, ladder, audio and subtitles. */
  recipe: HlsRecipe;
}

export interface FixturePaths {
  /** The fixtures folder (default `.cache/fixtures`). */
  root: string;
  /** 2 TS variants (320x180, 640x360), muxed AAC, 2 s segments, 20 s, testsrc2 + 440 Hz. */
  vodA: HlsFixture;
  /** 3 TS variants (256x144, 480x270, 854x480), muxed AAC, 4 s segments, 24 s, SMPTE bars + 660 Hz. */
  vodB: HlsFixture;
  /** 2 fMP4 variants (EXT-X-MAP), muxed AAC, 2 s segments, 12 s. */
  vodFmp4: HlsFixture;
  /** A 6 s "ad" at 320x180, beeping, 2 s segments. */
  preroll: HlsFixture;
  /** A 4 s "please stand by" card at 320x180, silent audio, 2 s segments. */
  slate: HlsFixture;
  /** Video-only variants + AUDIO renditions en/sv + a SUBTITLES (WebVTT) rendition en, 2 s segments, 12 s. */
  demuxed: HlsFixture;
  /** CMAF (fMP4): video-only variants + AUDIO renditions en/sv + WebVTT renditions en/sv, 2 s segments, 12 s. */
  cmaf: HlsFixture;
  /** 2 TS variants with muxed AAC whose master declares EIA-608 captions (CC1, English), 12 s. */
  captioned: HlsFixture;
  /** Absolute path of a 3 s 640x360 25 fps H.264 (crf 18) + AAC clip: the VMAF reference. */
  referenceMp4: string;
}

let pending: Promise<FixturePaths> | undefined;

function hls(root: string, recipe: HlsRecipe): HlsFixture {
  const dir = path.join(root, recipe.name);
  return {
    name: recipe.name,
    dir,
    master: path.join(dir, 'master.m3u8'),
    path: `${recipe.name}/master.m3u8`,
    recipe,
  };
}

export function ensureFixtures(): Promise<FixturePaths> {
  pending ??= generateFixtures({
    onResult: (r) => {
      if (r.action === 'generated')
        logger.info('fixture generated', { fixture: r.name, ms: r.ms, key: r.key });
    },
  })
    .then(({ root }) => ({
      root,
      vodA: hls(root, recipes.vodA),
      vodB: hls(root, recipes.vodB),
      vodFmp4: hls(root, recipes.vodFmp4),
      preroll: hls(root, recipes.preroll),
      slate: hls(root, recipes.slate),
      demuxed: hls(root, recipes.demuxed),
      cmaf: hls(root, recipes.cmaf),
      captioned: hls(root, recipes.captioned),
      referenceMp4: path.join(root, recipes.reference.name),
    }))
    .catch((e: unknown) => {
      pending = undefined; // let a later call try again
      throw e;
    });
  return pending;
}
