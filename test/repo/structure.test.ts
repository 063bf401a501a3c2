/**
 * The shape a newcomer relies on (docs/design.md, "Layout"): small files, small folders, and a
 * repository that stands alone. Import boundaries between folders are lint rules (biome.json).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const MAX_LINES = 400;
const MAX_FILES_PER_FOLDER = 15;

/** Tracked source and documentation files (media segments and the lockfile are data, not code). */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((file) => /\.(ts|md|mjs|sh)$/.test(file) || file.endsWith('Dockerfile'))
    .filter((file) => !file.startsWith('engine-container/static/') && !file.startsWith('node_modules/'));
}

function lineCount(file: string): number {
  return readFileSync(join(root, file), 'utf8').split('\n').length;
}

describe('the repository layout', () => {
  it(`has no source or documentation file over ${MAX_LINES} lines`, () => {
    const long = trackedFiles()
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`has no folder with more than ${MAX_FILES_PER_FOLDER} source files`, () => {
    const perFolder = new Map<string, number>();
    for (const file of trackedFiles().filter((f) => f.endsWith('.ts'))) {
      perFolder.set(dirname(file), (perFolder.get(dirname(file)) ?? 0) + 1);
    }
    const crowded = [...perFolder].filter(([, count]) => count > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });

  it('reads nothing from outside the repository', () => {
    const outside = trackedFiles()
      .filter((file) => file.endsWith('.ts') || file.endsWith('Dockerfile') || file === '.ci/run')
      .filter((file) => file !== 'test/repo/structure.test.ts')
      .filter((file) =>
        /\.\.\/shared\b|['"]shared['"],\s*['"]vmaf-models/.test(readFileSync(join(root, file), 'utf8')),
      );
    expect(outside).toEqual([]);
  });
});
