/**
 * A folder for the whole run (vitest globalSetup, vitest.config.ts), removed when the run ends: where
 * one file leaves what another would otherwise build again (the synthesized stack, test/cdk/synth.ts).
 * Only what is a pure function of the checkout goes here, so sharing it changes no test's outcome; and
 * the real-time slots (real-time-slots.ts), which change only when a file starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared folder; absent when the run made none (the unit project). */
    runFolder?: string;
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'onair-test-run-'));
  project.provide('runFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}

/** The run's shared folder, or undefined outside a run that made one. */
export function runFolder(): string | undefined {
  return inject('runFolder');
}
