/**
 * ffmpeg command lines, as argument arrays (never a shell string): one encode per rung, and one scoring
 * run per encode that feeds every requested model from a single decode of both files.
 */
import { type LibvmafVersion, modelFiles } from './libvmaf';
import { type ModelName, VMAF_MODELS } from './models';
import type { Rung } from './result-keys';
import type { EncodingSettings } from './settings';

const ENCODERS = { h264: 'libx264', hevc: 'libx265' } as const;
const MUXERS = { mp4: 'mp4', mkv: 'matroska', ts: 'mpegts' } as const;

/** A value inside a filter option inside a filtergraph: escaped once per parsing level ffmpeg applies. */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, '\\$&');
  return optionLevel.replace(/[\\'[\],;]/g, '\\$&');
}

export interface EncodeCommand {
  reference: string;
  output: string;
  rung: Rung;
  settings: EncodingSettings;
  threads: number;
}

export function encodeArgs({ reference, output, rung, settings, threads }: EncodeCommand): string[] {
  const { bitrate } = rung;
  const rc = settings.rateControl;
  const bufsize = String(Math.round(bitrate * rc.bufsizeFactor));
  const rate: string[] =
    rc.mode === 'CBR'
      ? [
          '-b:v',
          String(bitrate),
          '-minrate',
          String(bitrate),
          '-maxrate',
          String(bitrate),
          '-bufsize',
          bufsize,
        ]
      : rc.mode === 'VBR'
        ? [
            '-b:v',
            String(bitrate),
            '-maxrate',
            String(Math.round(bitrate * rc.maxrateFactor)),
            '-bufsize',
            bufsize,
          ]
        : ['-crf', String(rc.crf), '-maxrate', String(bitrate), '-bufsize', bufsize];
  const gop = settings.gop.frames
    ? ['-g', String(settings.gop.frames), '-keyint_min', String(settings.gop.frames)]
    : ['-force_key_frames', `expr:gte(t,n_forced*${settings.gop.seconds})`];
  const sceneCut = settings.gop.sceneCut
    ? []
    : settings.codec === 'h264'
      ? ['-sc_threshold', '0']
      : ['-x265-params', 'scenecut=0:log-level=error'];
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    reference,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    `scale=${rung.width}:${rung.height}:flags=bicubic`,
    '-c:v',
    ENCODERS[settings.codec],
    '-preset',
    settings.preset,
    '-threads',
    String(threads),
    ...rate,
    ...gop,
    ...sceneCut,
    '-pix_fmt',
    settings.pixelFormat,
    '-f',
    MUXERS[settings.container],
    output,
  ];
}

export interface ScoreTarget {
  model: ModelName;
  logPath: string;
}

export interface ScoreCommand {
  distorted: string;
  reference: string;
  targets: readonly ScoreTarget[];
  libvmaf: LibvmafVersion;
  /** libvmaf 1.x: the folder with the `.pkl` model files. */
  modelDir: string;
  threads: number;
  nSubsample: number;
  pixelFormat: EncodingSettings['pixelFormat'];
}

/** The libvmaf filter's options for one model, in the dialect of the detected libvmaf. */
export function libvmafOptions(cmd: ScoreCommand, target: ScoreTarget): string {
  const model = VMAF_MODELS[target.model];
  const common = [
    'log_fmt=json',
    `log_path=${escapeFilterValue(target.logPath)}`,
    `n_threads=${cmd.threads}`,
    `n_subsample=${cmd.nSubsample}`,
  ];
  if (cmd.libvmaf === 'v1') {
    const [pkl] = modelFiles(target.model, cmd.modelDir);
    return [
      `model_path=${escapeFilterValue(pkl!)}`,
      ...(model.phone ? ['phone_model=1'] : []),
      ...common,
    ].join(':');
  }
  const spec = [
    `version=${model.version}`,
    'name=vmaf',
    ...(model.phone ? ['enable_transform=true'] : []),
  ].join(':');
  return [`model=${escapeFilterValue(spec)}`, ...common].join(':');
}

/**
 * How to split a rung's models into ffmpeg runs. libvmaf 1.x keeps global state: two instances in one
 * process corrupt the heap now and then ("double free or corruption"), so it scores one model per run.
 * libvmaf 2 instances are independent, so one run decodes and scales once for every model.
 */
export function scoreRuns(libvmaf: LibvmafVersion, targets: readonly ScoreTarget[]): ScoreTarget[][] {
  return libvmaf === 'v1' ? targets.map((t) => [t]) : targets.length ? [[...targets]] : [];
}

/** `[in]split=n[a][b]...` or a plain copy label when n is 1. */
function fanOut(input: string, chain: string, labels: string[]): string {
  const head = chain ? `[${input}]${chain}` : `[${input}]null`;
  return labels.length === 1
    ? `${head}[${labels[0]}]`
    : `${head},split=${labels.length}${labels.map((l) => `[${l}]`).join('')}`;
}

/**
 * Both inputs are rebased to t=0 and scaled with bicubic to each model's viewing resolution (models that
 * share a resolution share the scaling), then every model scores its own copy and logs its own file.
 */
export function scoreArgs(cmd: ScoreCommand): string[] {
  if (cmd.targets.length === 0) throw new Error('no models to score');
  const groups = new Map<string, ScoreTarget[]>();
  for (const t of cmd.targets) {
    const m = VMAF_MODELS[t.model];
    const key = `${m.width}:${m.height}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const sizes = [...groups.keys()];
  const graph: string[] = [
    fanOut(
      '0:v',
      'setpts=PTS-STARTPTS',
      sizes.map((_, g) => `d${g}`),
    ),
    fanOut(
      '1:v',
      'setpts=PTS-STARTPTS',
      sizes.map((_, g) => `r${g}`),
    ),
  ];
  const outputs: string[] = [];
  sizes.forEach((size, g) => {
    const members = groups.get(size)!;
    const scale = `scale=${size}:flags=bicubic,format=${cmd.pixelFormat}`;
    graph.push(
      fanOut(
        `d${g}`,
        scale,
        members.map((_, i) => `d${g}_${i}`),
      ),
      fanOut(
        `r${g}`,
        scale,
        members.map((_, i) => `r${g}_${i}`),
      ),
    );
    members.forEach((t, i) => {
      graph.push(`[d${g}_${i}][r${g}_${i}]libvmaf=${libvmafOptions(cmd, t)}[o${g}_${i}]`);
      outputs.push(`[o${g}_${i}]`);
    });
  });
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-i',
    cmd.distorted,
    '-i',
    cmd.reference,
    '-filter_complex',
    graph.join(';'),
    ...outputs.flatMap((o) => ['-map', o]),
    '-f',
    'null',
    '-',
  ];
}
