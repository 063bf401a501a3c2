import { describe, expect, it } from 'vitest';
import {
  encodeArgs,
  escapeFilterValue,
  libvmafOptions,
  type ScoreCommand,
  scoreArgs,
  scoreRuns,
} from '../../../functions/autoabr/domain/ffmpeg-args';
import {
  DEFAULT_ENCODING_SETTINGS,
  encodingSettingsSchema,
} from '../../../functions/autoabr/domain/settings';

const rung = { width: 640, height: 360, bitrate: 800_000 };
const argAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('encode command', () => {
  it('scales with bicubic to the rung and drops audio', () => {
    const args = encodeArgs({
      reference: 'ref.mp4',
      output: 'out.mp4',
      rung,
      settings: DEFAULT_ENCODING_SETTINGS,
      threads: 2,
    });
    expect(argAfter(args, '-vf')).toBe('scale=640:360:flags=bicubic');
    expect(args).toContain('-an');
    expect(argAfter(args, '-c:v')).toBe('libx264');
    expect(argAfter(args, '-threads')).toBe('2');
    expect(args[args.length - 1]).toBe('out.mp4');
  });

  it('caps VBR peaks at maxrateFactor times the bitrate', () => {
    const args = encodeArgs({
      reference: 'r',
      output: 'o',
      rung,
      settings: DEFAULT_ENCODING_SETTINGS,
      threads: 1,
    });
    expect(argAfter(args, '-b:v')).toBe('800000');
    expect(argAfter(args, '-maxrate')).toBe('1200000');
    expect(argAfter(args, '-bufsize')).toBe('1600000');
  });

  it('pins min and max rate to the bitrate for CBR', () => {
    const settings = encodingSettingsSchema.parse({ rateControl: { mode: 'CBR' } });
    const args = encodeArgs({ reference: 'r', output: 'o', rung, settings, threads: 1 });
    expect([argAfter(args, '-minrate'), argAfter(args, '-maxrate'), argAfter(args, '-b:v')]).toEqual([
      '800000',
      '800000',
      '800000',
    ]);
  });

  it('caps a CRF encode at the rung bitrate', () => {
    const settings = encodingSettingsSchema.parse({ rateControl: { mode: 'CRF', crf: 26 } });
    const args = encodeArgs({ reference: 'r', output: 'o', rung, settings, threads: 1 });
    expect(argAfter(args, '-crf')).toBe('26');
    expect(argAfter(args, '-maxrate')).toBe('800000');
    expect(args).not.toContain('-b:v');
  });

  it('forces key frames every GOP and turns scene cuts off by default', () => {
    const args = encodeArgs({
      reference: 'r',
      output: 'o',
      rung,
      settings: DEFAULT_ENCODING_SETTINGS,
      threads: 1,
    });
    expect(argAfter(args, '-force_key_frames')).toBe('expr:gte(t,n_forced*2)');
    expect(argAfter(args, '-sc_threshold')).toBe('0');
  });

  it('uses a frame-count GOP and x265 parameters for HEVC in MPEG-TS', () => {
    const settings = encodingSettingsSchema.parse({ codec: 'hevc', gop: { frames: 48 }, container: 'ts' });
    const args = encodeArgs({ reference: 'r', output: 'o', rung, settings, threads: 1 });
    expect(argAfter(args, '-c:v')).toBe('libx265');
    expect(argAfter(args, '-g')).toBe('48');
    expect(argAfter(args, '-x265-params')).toContain('scenecut=0');
    expect(argAfter(args, '-f')).toBe('mpegts');
  });
});

const score = (over: Partial<ScoreCommand> = {}): ScoreCommand => ({
  distorted: 'd.mp4',
  reference: 'r.mp4',
  targets: [
    { model: 'HD', logPath: '/tmp/hd.json' },
    { model: 'PhoneHD', logPath: '/tmp/phone.json' },
  ],
  libvmaf: 'v1',
  modelDir: '/models',
  threads: 2,
  nSubsample: 5,
  pixelFormat: 'yuv420p',
  ...over,
});

describe('score command', () => {
  it('escapes filter values for both levels of ffmpeg parsing', () => {
    expect(escapeFilterValue('version=vmaf_v0.6.1:name=vmaf')).toBe('version=vmaf_v0.6.1\\\\:name=vmaf');
    expect(escapeFilterValue("/tmp/it's")).toBe("/tmp/it\\\\\\'s");
  });

  it('names the .pkl model file for libvmaf 1.x and the phone model flag for PhoneHD', () => {
    const cmd = score();
    expect(libvmafOptions(cmd, { model: 'HD', logPath: '/l.json' })).toBe(
      'model_path=/models/vmaf_v0.6.1.pkl:log_fmt=json:log_path=/l.json:n_threads=2:n_subsample=5',
    );
    expect(libvmafOptions(cmd, { model: 'PhoneHD', logPath: '/l.json' })).toContain('phone_model=1');
    expect(libvmafOptions(cmd, { model: 'UHD', logPath: '/l.json' })).toContain('vmaf_4k_v0.6.1.pkl');
  });

  it('names built-in model versions for libvmaf 2, with the transform for PhoneHD', () => {
    const cmd = score({ libvmaf: 'v2' });
    expect(libvmafOptions(cmd, { model: 'PhoneHD', logPath: '/l.json' })).toBe(
      'model=version=vmaf_v0.6.1\\\\:name=vmaf\\\\:enable_transform=true:log_fmt=json:log_path=/l.json:n_threads=2:n_subsample=5',
    );
    expect(libvmafOptions(cmd, { model: 'UHD', logPath: '/l.json' })).toContain('version=vmaf_4k_v0.6.1');
  });

  it('scales both inputs once per model resolution and scores each model into its own log', () => {
    const args = scoreArgs(
      score({ targets: [...score().targets, { model: 'UHD', logPath: '/tmp/uhd.json' }] }),
    );
    const graph = argAfter(args, '-filter_complex')!;
    expect(graph.match(/scale=1920:1080:flags=bicubic/g)).toHaveLength(2); // distorted + reference
    expect(graph.match(/scale=3840:2160:flags=bicubic/g)).toHaveLength(2);
    expect(graph.match(/libvmaf=/g)).toHaveLength(3);
    expect(args.filter((a) => a === '-map')).toHaveLength(3);
    // libvmaf takes the distorted stream first, the reference second.
    expect(graph).toMatch(/\[d0_0\]\[r0_0\]libvmaf/);
    expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 4)).toEqual(['-i', 'd.mp4', '-i', 'r.mp4']);
  });
});

describe('score runs', () => {
  const targets = score().targets;

  it('scores one model per ffmpeg run with libvmaf 1.x, whose instances share state', () => {
    expect(scoreRuns('v1', targets)).toEqual([[targets[0]], [targets[1]]]);
  });

  it('scores every model in one run with libvmaf 2', () => {
    expect(scoreRuns('v2', targets)).toEqual([targets]);
  });
});
