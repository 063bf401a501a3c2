/**
 * Which VMAF engine an ffmpeg carries, found by asking it (`-h filter=libvmaf`), and which models it
 * can score: libvmaf >= 2 has every model built in; 1.x needs each model's files in the model folder.
 */
import { access } from 'node:fs/promises';
import {
  EngineError,
  type LibvmafVersion,
  modelFiles,
  parseLibvmafHelp,
  type VmafEngine,
} from '../domain/libvmaf';
import { MODEL_NAMES, type ModelName } from '../domain/models';
import { runProcess } from './run-process';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

export async function unavailableModels(
  libvmaf: LibvmafVersion,
  modelDir: string,
): Promise<Partial<Record<ModelName, string>>> {
  const missing: Partial<Record<ModelName, string>> = {};
  if (libvmaf === 'v2') return missing;
  for (const name of MODEL_NAMES) {
    const lacking: string[] = [];
    for (const file of modelFiles(name, modelDir)) if (!(await exists(file))) lacking.push(file);
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
