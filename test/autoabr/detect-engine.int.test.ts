import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { afterAll, describe, expect, it } from 'vitest';
import { detectEngine, unavailableModels } from '../../functions/autoabr/adapters/detect-engine';
import { defaultModelDir } from '../../functions/autoabr/config/default-paths';
import { EngineError, parseLibvmafHelp } from '../../functions/autoabr/domain/libvmaf';

/** The libvmaf 1.x model files kept in the repository. */
const MODEL_DIR = defaultModelDir();

// The option lists of `ffmpeg -h filter=libvmaf` for the two engine generations (abridged).
const V1_HELP = `Filter libvmaf
libvmaf AVOptions:
  model_path        <string>     ..FV..... Set the model to be used for computing vmaf.
  log_path          <string>     ..FV..... Set the file path to be used to store logs.
  phone_model       <boolean>    ..FV..... Invokes the phone model
`;
const V2_HELP = `Filter libvmaf
libvmaf AVOptions:
  model_path        <string>     ..FV.....P Set the model to be used for computing vmaf. (deprecated)
  log_path          <string>     ..FV....... Set the file path to be used to store logs.
  model             <string>     ..FV....... Set the model to be used for computing vmaf. (default "version=vmaf_v0.6.1")
  feature           <string>     ..FV....... Set the feature to be used for computing vmaf.
`;

describe('VMAF engine detection', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('reads libvmaf 1.x from a help text with model_path only', () => {
    expect(parseLibvmafHelp(V1_HELP)).toBe('v1');
  });

  it('reads libvmaf 2 from a help text with the model option, even beside a deprecated model_path', () => {
    expect(parseLibvmafHelp(V2_HELP)).toBe('v2');
  });

  it('finds no engine in an ffmpeg without the filter', () => {
    expect(parseLibvmafHelp("Unknown filter 'libvmaf'.")).toBeUndefined();
  });

  it('detects libvmaf 1.x in the ffmpeg of @ffmpeg-installer', async () => {
    const engine = await detectEngine(ffmpegInstaller.path, MODEL_DIR);
    expect(engine.libvmaf).toBe('v1');
  });

  it('can score every model with the model files kept in the repository', async () => {
    expect(await unavailableModels('v1', MODEL_DIR)).toEqual({});
  });

  it('refuses the system ffmpeg, which has no libvmaf', async () => {
    await expect(detectEngine('/usr/bin/ffmpeg', MODEL_DIR)).rejects.toThrow(EngineError);
  });

  it('says which ffmpeg cannot be run', async () => {
    await expect(detectEngine('/nonexistent/ffmpeg', MODEL_DIR)).rejects.toThrow(
      /cannot run ffmpeg at \/nonexistent/,
    );
  });

  it('reports each libvmaf 1.x model whose files are missing from the model folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'autoabr-models-'));
    dirs.push(dir);
    await writeFile(join(dir, 'vmaf_v0.6.1.pkl'), '');
    await writeFile(join(dir, 'vmaf_v0.6.1.pkl.model'), '');
    const missing = await unavailableModels('v1', dir);
    expect(Object.keys(missing)).toEqual(['UHD']);
    expect(missing.UHD).toContain('vmaf_4k_v0.6.1.pkl');
  });

  it('has every model built in with libvmaf 2', async () => {
    expect(await unavailableModels('v2', '/nonexistent')).toEqual({});
  });
});
