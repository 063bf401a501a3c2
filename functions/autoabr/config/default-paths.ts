/**
 * Defaults that are files of this repository, found from this module's own location (never from the
 * working directory, and never outside the repository). A bundle moves the module: the worker image
 * (engine-container/worker.Dockerfile) copies the model folder and sets VMAF_MODEL_DIR and FFMPEG_PATH
 * itself, so these defaults only serve runs from a checkout.
 */
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This module's folder, or undefined in a bundle without `import.meta.url`. */
function here(): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    return undefined;
  }
}

/** The repository root (three folders up from here); the working directory in bundles without a URL. */
export function repoRoot(): string {
  const dir = here();
  return dir ? resolve(dir, '..', '..', '..') : process.cwd();
}

/** The libvmaf 1.x model files kept in the repository (functions/autoabr/vmaf-models). */
export function defaultModelDir(): string {
  return resolve(repoRoot(), 'functions', 'autoabr', 'vmaf-models');
}

/** The ffmpeg of @ffmpeg-installer/ffmpeg (4.1 with libvmaf 1.3.7), loaded only when asked for. */
export function installerFfmpegPath(): string {
  const require = createRequire(resolve(repoRoot(), 'package.json'));
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}
