/**
 * Makes the test media fixtures in .cache/fixtures (or FIXTURES_DIR), reusing those already current.
 *   npx tsx scripts/make-fixtures.ts
 * FIXTURES_FFMPEG_PATH picks the ffmpeg (default /usr/bin/ffmpeg, which must be 5.x or later).
 */
import { generateFixtures } from './fixtures/generate';

const started = performance.now();
const { root, results } = await generateFixtures({
  onResult: (r) => {
    const took = r.action === 'generated' ? ` in ${(r.ms / 1000).toFixed(1)} s` : '';
    process.stdout.write(`${r.action.padEnd(9)} ${r.name.padEnd(14)} ${r.key}${took}\n`);
  },
});
const generated = results.filter((r) => r.action === 'generated').length;
process.stdout.write(
  `${results.length} fixtures in ${root}: ${generated} generated, ${results.length - generated} reused, ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
