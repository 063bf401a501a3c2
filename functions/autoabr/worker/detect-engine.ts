/**
 * Which VMAF engine an ffmpeg carries, found by asking it (`-h filter=libvmaf`) rather than trusting
 * version numbers: libvmaf >= 2 takes `model=version=...` (built-in models); 1.x takes `model_path`
 * to a `.pkl` file. ffmpeg 5/6 builds list `model_path` too (deprecated), so `model` wins when present.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../adapters/run-process';
import { MODEL_NAMES, type ModelName, VMAF_MODELS } from '../domain/models';

export type LibvmafVersion = 'v1' | 'v2';

/** The libvmaf dialect from the filter's help text, or undefined when this ffmpeg has no libvmaf. */
export function parseLibvmafHelp(help: string): LibvmafVersion | undefined {
  if (!/libvmaf AVOptions/.test(help)) return undefined;
  if (/^\s+model\s/m.test(help)) return 'v2';
  if (/^\s+model_path\s/m.test(help)) return 'v1';
  return undefined;
}

export interface VmafEngine {
  ffmpegPath: string;
  libvmaf: LibvmafVersion;
  modelDir: string;
  /** Models this engine cannot score, with the reason (e.g. a missing `.pkl` file). */
  unavailable: Partial<Record<ModelName, string>>;
}

export class EngineError extends Error {
  override name = 'EngineError';
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** libvmaf 1.x needs `<model>.pkl` and its `<model>.pkl.model` beside it; 2.x has the models built in. */
export async function unavailableModels(
  libvmaf: LibvmafVersion,
  modelDir: string,
): Promise<Partial<Record<ModelName, string>>> {
  const missing: Partial<Record<ModelName, string>> = {};
  if (libvmaf === 'v2') return missing;
  for (const name of MODEL_NAMES) {
    const pkl = join(modelDir, VMAF_MODELS[name].pklFile);
    const lacking = [];
    if (!(await exists(pkl))) lacking.push(pkl);
    if (!(await exists(`${pkl}.model`))) lacking.push(`${pkl}.model`);
    if (lacking.length) missing[name] = `VMAF model file(s) not found for ${name}: ${lacking.join(', ')}`;
  }
  return missing;
}

export async function detectEngine(ffmpegPath: string, modelDir: string): Promise<VmafEngine> {
  let help: string;
  try {
    const res = await runProcess(ffmpegPath, ['-hide_banner', '-h', 'filter=libvmaf']);
    help = res.stdout + res.stderr;
  } catch (err) {
    throw new EngineError(`cannot run ffmpeg at ${ffmpegPath}: ${(err as Error).message}`);
  }
  const libvmaf = parseLibvmafHelp(help);
  if (!libvmaf) throw new EngineError(`ffmpeg at ${ffmpegPath} has no libvmaf filter (set FFMPEG_PATH)`);
  return { ffmpegPath, libvmaf, modelDir, unavailable: await unavailableModels(libvmaf, modelDir) };
}
