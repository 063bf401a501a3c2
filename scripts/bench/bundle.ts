/**
 * Bundles a benchmark process the way engine-container/Dockerfile bundles the engine (esbuild, ESM for
 * node22, with a `require` for CommonJS dependencies), so what is measured is the code the container
 * runs, not tsx's on-the-fly transform.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

export const REQUIRE_BANNER =
  "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

export interface Bundle {
  file: string;
  bytes: number;
}

/** The same options as the container's build (engine-container/Dockerfile). */
export async function bundleForNode(entry: string, outfile: string, minify = false): Promise<Bundle> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    minify,
    outfile,
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
  });
  return { file: outfile, bytes: (await stat(outfile)).size };
}

/** Bundles each entry into one fresh temporary directory (not the shared .cache). */
export async function bundleAll(entries: string[]): Promise<Bundle[]> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-bench-'));
  return Promise.all(entries.map((e) => bundleForNode(e, join(dir, basename(e).replace(/\.ts$/, '.mjs')))));
}
