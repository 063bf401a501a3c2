/**
 * The two libvmaf generations an ffmpeg can carry, told apart by the libvmaf filter's options rather
 * than by version numbers: libvmaf >= 2 takes `model=version=...` (built-in models); 1.x takes
 * `model_path` to a `.pkl` file. ffmpeg 5/6 builds list `model_path` too (deprecated), so `model` wins
 * when present.
 */
import { type ModelName, VMAF_MODELS } from './models';

export type LibvmafVersion = 'v1' | 'v2';

/** The libvmaf dialect from `ffmpeg -h filter=libvmaf`, or undefined when this ffmpeg has no libvmaf. */
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

/** This ffmpeg cannot score at all: no job would do better on another attempt. */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** libvmaf 1.x needs `<model>.pkl` and its `<model>.pkl.model` beside it in the model folder. */
export function modelFiles(name: ModelName, modelDir: string): string[] {
  const pkl = `${modelDir.replace(/\/+$/, '')}/${VMAF_MODELS[name].pklFile}`;
  return [pkl, `${pkl}.model`];
}
