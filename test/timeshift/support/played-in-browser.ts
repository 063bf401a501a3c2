/**
 * The played engine (played-engine.ts) watched in hls.js in Chromium, as the timeshift playback suites
 * watch it: the engine started before the suite's tests where Chromium exists and closed after them,
 * and what every such viewing must be, whatever it asked for (catch-up, start-over).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type BrowserPlayback,
  chromiumAvailable,
  describePlaybackErrors,
  isSegmentLoadError,
} from '../../support/browser';
import { type PlayedEngine, type PlayedEngineOptions, startPlayedEngine } from './played-engine';

export const noChromium = !chromiumAvailable();

/** Call in the suite's describe: `played()` is the engine once its tests run. */
export function usePlayedEngine(options: PlayedEngineOptions): () => PlayedEngine {
  let played: PlayedEngine | undefined;
  beforeAll(async () => {
    if (noChromium) return;
    played = await startPlayedEngine(options);
  }, 180_000);
  afterAll(async () => {
    await played?.close();
  });
  return () => played!;
}

/**
 * Asserts what every viewing of a played engine must be: it started, no fatal error, every segment
 * loaded. Returns the viewing's errors for the suite's own failure messages.
 */
export function expectWatched(play: BrowserPlayback): string {
  const context = describePlaybackErrors(play);
  expect(play.started, context).toBe(true);
  expect(play.fatalErrors, context).toEqual([]);
  expect(play.errors.filter(isSegmentLoadError), context).toEqual([]);
  return context;
}
