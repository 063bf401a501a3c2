/**
 * Two projects, told apart by file name (test/support/README.md):
 * - unit: `*.test.ts`, fast and pure (no DynamoDB Local, ffmpeg or Chromium): `npm run test:unit`.
 * - integration: `*.int.test.ts`, on the real local stand-ins: `npm run test:integration`.
 * `npm test` runs both (after lint and typecheck).
 */
import { configDefaults, defineConfig } from 'vitest/config';
import RealTimeSequencer from './test/support/run/real-time-sequencer.ts';

const integration = ['test/**/*.int.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    fileParallelism: true,
    // Six on two cores: at most four are real-time suites (players, live sources, an outage: each waits
    // far more than it computes, about a third of a core) and the others compute
    // (test/support/run/real-time-slots.ts). Six real-time suites at once starved them on a 2-core
    // machine busy for the whole run.
    maxWorkers: 6,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // The default output, then the ten slowest files: where the next second of `npm test` is.
    reporters: ['default', './test/support/run/slowest-files-reporter.ts'],
    // The real-time suites a few at a time, spread among the rest (test/support/run/real-time-sequencer.ts).
    sequence: { sequencer: RealTimeSequencer },
    // A real-time suite waits for a slot before it starts its system; browsers open in the run's Chromium.
    setupFiles: ['test/support/run/real-time-setup.ts', 'test/support/run/shared-browser-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // One module graph per worker, not per file: importing it again for each of 140 files was
          // two thirds of the project's CPU (69 s of CPU → 28 s). Unit tests set up what they use
          // and keep no state between files; the integration suites, which set process.env for the
          // local cloud they start, stay isolated.
          isolate: false,
          // A guard against a hang, not a speed limit: under a full run on two cores a test that takes
          // half a second alone (an engine on a fake clock, a handler's first import) has taken over 5 s.
          testTimeout: 20_000,
          exclude: [...configDefaults.exclude, ...integration],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          // They start real local stand-ins (DynamoDB Local on Java, ffmpeg): give them room.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The media fixtures made before any file starts; one DynamoDB Local for the run, each file's
          // tables under a prefix of its own; one folder for what files would otherwise each build again
          // (the synthesized stack); one Chromium, each play in a context of its own.
          globalSetup: [
            'test/support/run/shared-fixtures.ts',
            'test/support/run/shared-dynamodb.ts',
            'test/support/run/run-folder.ts',
            'test/support/run/shared-browser.ts',
          ],
        },
      },
    ],
  },
});
