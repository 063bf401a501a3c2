/**
 * AutoABR benchmark (`npm run bench:autoabr`, or `tsx scripts/bench-autoabr.ts [--rounds 2] [--files 1000]`).
 * 1. Wall time per encode+score pair of a real job, and the pipeline's overhead over running the very
 *    same ffmpeg commands by hand (target: < 5 %). The job runs in this process on the local cloud.
 * 2. Time to compile 1,000 result files from the local S3, cold and with the ETag score cache warm
 *    (target: < 1 s).
 * Numbers on a shared machine are noisy: compare by-hand and pipeline rounds taken side by side.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { s3Client } from '../core/aws';
import { createLogger } from '../core/logger';
import { runProcess } from '../functions/autoabr/adapters/run-process';
import { S3ObjectStore } from '../functions/autoabr/adapters/s3-object-store';
import type { ApiDeps } from '../functions/autoabr/api/api-deps';
import { apiConfigFromEnv, workerConfigFromEnv } from '../functions/autoabr/config/service-config';
import { compileJson, compileTable } from '../functions/autoabr/domain/compile-results';
import { newJob } from '../functions/autoabr/domain/job';
import { MODEL_NAMES } from '../functions/autoabr/domain/models';
import { outputPrefix } from '../functions/autoabr/domain/result-keys';
import { indexKey, type ScoreIndex } from '../functions/autoabr/domain/score-index';
import { encodingSettingsSchema, pipelineSchema } from '../functions/autoabr/domain/settings';
import { vmafScore } from '../functions/autoabr/domain/vmaf-log';
import { buildApiDeps } from '../functions/autoabr/entry/build-api-deps';
import { buildWorkerDeps } from '../functions/autoabr/entry/build-worker-deps';
import { readResults } from '../functions/autoabr/results/read-results';
import { ScoreCache } from '../functions/autoabr/results/score-cache';
import { mergeIndex } from '../functions/autoabr/results/score-index-store';
import { runAttempt } from '../functions/autoabr/worker/run-attempt';
import type { WorkerDeps } from '../functions/autoabr/worker/worker-deps';
import { startLocalCloud } from '../local/cloud';

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    files: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '3' },
    'serve-cloud': { type: 'boolean', default: false },
    /** Only the compile part (quick). */
    'compile-only': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(opts.rounds);
const FILES = Number(opts.files);
const run = promisify(execFile);
const ms = (n: number) => `${n.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One ffmpeg call of a pipeline run, and its wall time. */
type Call = { args: string[]; ms: number };
type PipelineRun = { ms: number; calls: Call[] };

/** What both parts work with. */
interface Bench {
  s3: S3Client;
  bucket: string;
  /** Scratch folder, removed at the end. */
  work: string;
}

/**
 * The local cloud in a child process (this script with --serve-cloud), so S3 does not share the
 * benchmark's event loop: on 2 cores, client and server each get one, as with a real S3.
 */
async function cloudProcess(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-cloud'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`local cloud exited with ${code}`)));
  });
  return {
    env,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

async function serveCloud(): Promise<void> {
  const cloud = await startLocalCloud();
  process.stdout.write(`${JSON.stringify(cloud.env)}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void cloud.stop().then(() => process.exit(0)));
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  const cloud = await cloudProcess();
  // This script is the entry point: it points its own environment at the local cloud, then reads it.
  Object.assign(process.env, cloud.env);
  const bench: Bench = {
    s3: s3Client(),
    bucket: cloud.env.BUCKET_AUTOABR!,
    work: await mkdtemp(join(tmpdir(), 'bench-autoabr-')),
  };
  try {
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`machine: ${availableParallelism()} cores, load average ${load}`);
    if (!opts['compile-only']) await benchPairs(bench);
    await benchCompile(bench);
  } finally {
    await rm(bench.work, { recursive: true, force: true });
    bench.s3.destroy();
    await cloud.stop();
  }
}

// --- 1. encode + score pairs ---------------------------------------------------------------------

async function benchPairs(bench: Bench): Promise<void> {
  const ref = join(bench.work, 'reference.mp4');
  await run('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc2=size=1280x720:rate=25:duration=${opts.seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '16', '-pix_fmt', 'yuv420p', ref],
  ]);
  await bench.s3.send(
    new PutObjectCommand({ Bucket: bench.bucket, Key: 'bench/reference.mp4', Body: await readFile(ref) }),
  );
  const api = buildApiDeps(apiConfigFromEnv());
  const calls: Call[] = [];
  const deps = timedWorkerDeps(buildWorkerDeps(workerConfigFromEnv()), calls);
  const engine = await deps.engine();
  console.log(`engine: ${engine.ffmpegPath} (libvmaf ${engine.libvmaf === 'v1' ? '1.x' : '>= 2'})`);

  const pipeline = () => runPipeline(bench, api, deps, calls);
  const byHand = (cmds: Call[]) => runByHand(bench, ref, engine.ffmpegPath, cmds);
  const outsideShares: number[] = [];
  const abShares: number[] = [];
  let last: PipelineRun | undefined;
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so a load change on the shared machine does not favour one side.
    let piped: PipelineRun;
    let hand: number;
    if (round % 2 === 1 || !last) {
      piped = await pipeline();
      hand = await byHand(piped.calls);
    } else {
      hand = await byHand(last.calls);
      piped = await pipeline();
    }
    last = piped;
    const inside = piped.calls.reduce((sum, c) => sum + c.ms, 0);
    const outside = piped.ms - inside;
    outsideShares.push((outside / inside) * 100);
    abShares.push(((piped.ms - hand) / hand) * 100);
    console.log(
      `round ${round}: pipeline ${ms(piped.ms)} (ffmpeg ${ms(inside)}, everything else ${ms(outside)} = ${((outside / inside) * 100).toFixed(1)} %); same commands by hand ${ms(hand)} (pipeline ${abShares[abShares.length - 1]!.toFixed(1)} % slower)`,
    );
  }
  if (last) reportPairs(last, outsideShares, abShares);
}

/** The worker's dependencies, with every ffmpeg call timed into `calls`. */
function timedWorkerDeps(base: WorkerDeps, calls: Call[]): WorkerDeps {
  return {
    ...base,
    heartbeatMs: 10_000,
    runFfmpeg: async (args, signal) => {
      const t = performance.now();
      const res = await base.runFfmpeg(args, signal);
      calls.push({ args: [...args], ms: performance.now() - t });
      return res;
    },
  };
}

/** One real job attempt in this process; its wall time and the ffmpeg calls it made. */
async function runPipeline(
  bench: Bench,
  api: ApiDeps,
  deps: WorkerDeps,
  calls: Call[],
): Promise<PipelineRun> {
  calls.length = 0;
  const job = newJob({
    id: `bench-${Date.now()}`,
    spec: {
      name: 'bench',
      reference: `s3://${bench.bucket}/bench/reference.mp4`,
      models: ['HD'],
      bitrates: [300_000, 1_200_000],
      resolutions: [
        { width: 640, height: 360 },
        { width: 1280, height: 720 },
      ],
    },
    encoding: encodingSettingsSchema.parse({ preset: 'veryfast' }),
    pipeline: { ...pipelineSchema.parse({ nSubsample: 5 }), resultBucket: bench.bucket },
    maxAttempts: 1,
    now: Date.now(),
  });
  // As the dispatcher would: the job's message is received, its receipt handle given to the attempt.
  await api.jobs.create(job);
  await api.queue.send(job.id);
  const [msg] = await api.queue.receive(1, 120);
  await api.jobs.claim(job.id, 1, msg!.receiptHandle, Date.now());
  const t0 = performance.now();
  const end = await runAttempt(deps, job.id, 1);
  const elapsed = performance.now() - t0;
  if (end !== 'SUCCEEDED') throw new Error(`bench job ended ${end}: ${(await api.jobs.get(job.id))?.error}`);
  return { ms: elapsed, calls: calls.map((c) => ({ ...c })) };
}

/** The same ffmpeg commands by hand: same arguments, in a fresh folder holding the same reference. */
async function runByHand(bench: Bench, ref: string, ffmpeg: string, cmds: Call[]): Promise<number> {
  const input = cmds[0]!.args[cmds[0]!.args.indexOf('-i') + 1]!;
  const attemptDir = dirname(input);
  const handDir = await mkdtemp(join(bench.work, 'hand-'));
  await copyFile(ref, join(handDir, basename(input)));
  const t = performance.now();
  for (const c of cmds) {
    const res = await runProcess(
      ffmpeg,
      c.args.map((a) => a.split(attemptDir).join(handDir)),
    );
    if (res.code !== 0) throw new Error(`by-hand ffmpeg failed: ${res.stderr}`);
  }
  const elapsed = performance.now() - t;
  await rm(handDir, { recursive: true, force: true });
  return elapsed;
}

function reportPairs(last: PipelineRun, outsideShares: number[], abShares: number[]): void {
  console.log('\nencode + score pairs (last round, wall time):');
  for (let i = 0; i + 1 < last.calls.length; i += 2) {
    const enc = last.calls[i]!;
    const score = last.calls[i + 1]!;
    const label = basename(enc.args[enc.args.length - 1]!).replace(/\.\w+$/, '');
    console.log(
      `  ${label.padEnd(20)} encode ${ms(enc.ms).padStart(8)}  score ${ms(score.ms).padStart(8)}  total ${ms(enc.ms + score.ms).padStart(8)}`,
    );
  }
  console.log(
    `\npipeline overhead (median of ${ROUNDS}): ${median(outsideShares).toFixed(1)} % of ffmpeg time spent outside ffmpeg (target < 5 %);` +
      ` A/B against the same commands by hand: ${median(abShares).toFixed(1)} % (noisy on a shared machine)`,
  );
}

// --- 2. compiling result files -------------------------------------------------------------------

async function benchCompile(bench: Bench): Promise<void> {
  const frames = Array.from({ length: 60 }, (_, i) => ({ frameNum: i, metrics: { vmaf: 80 + (i % 7) } }));
  const logText = JSON.stringify({ version: '1.3.7', params: { subsample: 1 }, frames }, null, 2);
  const keys = Array.from({ length: FILES }, (_, i) => {
    const model = MODEL_NAMES[i % 3]!;
    return `results/compile-bench/${model}/${640 + 2 * (i % 50)}x360_${100_000 + i}_vmaf.json`;
  });
  const objects = new S3ObjectStore(bench.s3);
  const loc = { bucket: bench.bucket, prefix: 'results', output: 'compile-bench' };
  const log = createLogger();
  // As the worker writes them (worker/measure.ts): each rung's files (one per model), then their
  // scores into the output's index, so a compile finds every file written so far already scored.
  const score = vmafScore(logText);
  const idxKey = indexKey(loc.prefix, loc.output);
  const writeStart = performance.now();
  for (let r = 0; r < keys.length; r += MODEL_NAMES.length) {
    const rung = keys.slice(r, r + MODEL_NAMES.length);
    const entries: ScoreIndex = {};
    await Promise.all(
      rung.map(async (key) => {
        const etag = await objects.putText({ bucket: bench.bucket, key }, logText, 'application/json');
        entries[key.slice(outputPrefix(loc.prefix, loc.output).length)] = { etag, score };
      }),
    );
    await mergeIndex(objects, bench.bucket, idxKey, entries, log);
  }
  console.log(
    `wrote ${FILES} result files rung by rung, the index updated after each: ${ms(performance.now() - writeStart)}`,
  );
  const warm = new ScoreCache();
  const dropIndex = () => bench.s3.send(new DeleteObjectCommand({ Bucket: bench.bucket, Key: idxKey }));
  const runs = [
    { label: 'first request (fresh instance; index kept up to date by the writer)', cache: warm },
    { label: 'warm instance (memory cache)', cache: warm },
    {
      label: 'no index (results from before it existed; every file downloaded)',
      cache: new ScoreCache(),
      before: dropIndex,
    },
    { label: 'fresh instance, index rebuilt by the previous request', cache: new ScoreCache() },
  ];
  for (const { label, cache, before } of runs) {
    await before?.();
    const t = performance.now();
    const cpu = process.cpuUsage();
    // One page holds them all (FILES is far below RESULT_PAGES' limit): what one request compiles.
    const { files } = await readResults(objects, loc, { concurrency: 64, log, cache, limit: 10_000 });
    compileJson('compile-bench', files, MODEL_NAMES);
    compileTable('compile-bench', files, 'csv');
    const used = process.cpuUsage(cpu);
    console.log(
      `compile ${files.length} files, ${label}: ${ms(performance.now() - t)} (target < 1 s; CPU here ${ms((used.user + used.system) / 1000)})`,
    );
  }
  console.log(`(each log ${logText.length} bytes; S3 is fauxqs in a child process)`);
}

(opts['serve-cloud'] ? serveCloud() : main()).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
