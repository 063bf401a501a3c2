/**
 * The work of one attempt: download the reference, encode every rung with ffmpeg, score each encode for
 * every model, upload each libvmaf log as a result file and index its score. Rungs run one after
 * another, each ffmpeg using all of the task's cores: on a few cores that beats running rungs side by
 * side, and progress stays meaningful. Each progress write is fenced on the attempt: once it is refused,
 * the attempt is over (AttemptLost).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger';
import { PermanentJobError } from '../domain/attempt-policy';
import { encodeArgs, type ScoreTarget, scoreArgs, scoreRuns } from '../domain/ffmpeg-args';
import type { JobItem } from '../domain/job';
import type { VmafEngine } from '../domain/libvmaf';
import type { ModelName } from '../domain/models';
import { type ResultFile, type Rung, resultFileName, resultKey } from '../domain/result-keys';
import { indexKey, type ScoreIndex } from '../domain/score-index';
import { summariseVmafLog, VmafLogError } from '../domain/vmaf-log';
import { mergeIndex } from '../results/score-index-store';
import { downloadReference, referenceFileName } from './download-reference';
import { ffmpegReason } from './ffmpeg-reason';
import type { WorkerDeps } from './worker-deps';

/** The attempt was ended by someone else: stop without touching the job again. */
export class AttemptLost extends Error {
  override name = 'AttemptLost';
}

/** Everything a rung's steps share. */
interface Measurement {
  deps: WorkerDeps;
  job: JobItem;
  attempt: number;
  dir: string;
  signal: AbortSignal;
  engine: VmafEngine;
  models: ModelName[];
  reference: string;
  threads: number;
  /**
   * Scores of the files uploaded since the output's score index was last updated: it is updated after
   * every rung, so a compile during or after the job downloads none of the files already there.
   */
  indexed: ScoreIndex;
  /** Result files uploaded so far. */
  done: number;
}

export async function measure(
  deps: WorkerDeps,
  job: JobItem,
  attempt: number,
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const engine = await deps.engine();
  const { models, modelErrors } = scorableModels(engine, job.models);
  const rungs = job.resolutions.flatMap((r) => job.bitrates.map((bitrate) => ({ ...r, bitrate })));
  const total = rungs.length * models.length;
  if (!(await deps.jobs.setTotal(job.id, attempt, total, modelErrors, deps.now()))) {
    throw new AttemptLost('lost');
  }
  const reference = join(dir, referenceFileName(job.reference));
  await downloadReference(deps.objects, job.reference, reference, deps.maxReferenceBytes);
  signal.throwIfAborted();

  const threads = job.pipeline.ffmpegThreads || deps.cores;
  const m: Measurement = {
    deps,
    job,
    attempt,
    dir,
    signal,
    engine,
    models,
    reference,
    threads,
    indexed: {},
    done: 0,
  };
  for (const rung of rungs) await measureRung(m, rung);
}

/** Adds the scores uploaded since the last update to the output's stored index (a read and a write). */
async function updateIndex(m: Measurement): Promise<void> {
  const entries = m.indexed;
  m.indexed = {};
  const log: Logger = m.deps.log.child({ jobId: m.job.id });
  const { resultBucket, resultPrefix } = m.job.pipeline;
  await mergeIndex(m.deps.objects, resultBucket, indexKey(resultPrefix, m.job.name), entries, log);
}

/** The requested models this engine can score, and why it cannot score the others. */
function scorableModels(
  engine: VmafEngine,
  requested: readonly ModelName[],
): { models: ModelName[]; modelErrors: Partial<Record<ModelName, string>> } {
  const modelErrors: Partial<Record<ModelName, string>> = {};
  const models = requested.filter((m) => {
    const why = engine.unavailable[m];
    if (why) modelErrors[m] = why;
    return !why;
  });
  if (models.length === 0) {
    throw new PermanentJobError(`no requested model can be scored: ${Object.values(modelErrors).join('; ')}`);
  }
  return { models, modelErrors };
}

const rungLabel = (rung: Rung) => `${rung.width}x${rung.height} @ ${rung.bitrate} b/s`;

async function measureRung(m: Measurement, rung: Rung): Promise<void> {
  const encoded = await encodeRung(m, rung);
  const targets: ScoreTarget[] = m.models.map((model) => ({
    model,
    logPath: join(m.dir, `${model}_${rung.width}x${rung.height}_${rung.bitrate}.json`),
  }));
  await scoreRung(m, rung, encoded, targets);
  for (const target of targets) await uploadScore(m, { model: target.model, ...rung }, target.logPath);
  await updateIndex(m);
  await rm(encoded, { force: true });
}

/** Encodes the reference at this rung; answers the encode's path. */
async function encodeRung(m: Measurement, rung: Rung): Promise<string> {
  const output = join(m.dir, `${rung.width}x${rung.height}_${rung.bitrate}.${m.job.encoding.container}`);
  const args = encodeArgs({
    reference: m.reference,
    output,
    rung,
    settings: m.job.encoding,
    threads: m.threads,
  });
  const res = await m.deps.runFfmpeg(args, m.signal);
  m.signal.throwIfAborted();
  if (res.code !== 0) {
    throw new PermanentJobError(`ffmpeg could not encode ${rungLabel(rung)}: ${ffmpegReason(res)}`);
  }
  return output;
}

/** Scores an encode for every model, writing one libvmaf log per target. */
async function scoreRung(m: Measurement, rung: Rung, encoded: string, targets: ScoreTarget[]): Promise<void> {
  for (const run of scoreRuns(m.engine.libvmaf, targets)) {
    const args = scoreArgs({
      distorted: encoded,
      reference: m.reference,
      targets: run,
      libvmaf: m.engine.libvmaf,
      modelDir: m.engine.modelDir,
      threads: m.threads,
      nSubsample: m.job.pipeline.nSubsample,
      pixelFormat: m.job.encoding.pixelFormat,
    });
    const res = await m.deps.runFfmpeg(args, m.signal);
    m.signal.throwIfAborted();
    if (res.code !== 0) {
      const models = run.map((t) => t.model).join(', ');
      throw new PermanentJobError(
        `ffmpeg could not score ${rungLabel(rung)} (${models}): ${ffmpegReason(res)}`,
      );
    }
  }
}

/** Uploads one libvmaf log as a result file, indexes its score and records the progress. */
async function uploadScore(m: Measurement, file: ResultFile, logPath: string): Promise<void> {
  const text = await readFile(logPath, 'utf8');
  let score: number;
  try {
    score = summariseVmafLog(text).harmonicMean;
  } catch (err) {
    if (err instanceof VmafLogError) {
      throw new PermanentJobError(`${file.model} ${rungLabel(file)}: ${err.message}`);
    }
    throw err;
  }
  const { pipeline } = m.job;
  const key = resultKey(pipeline.resultPrefix, m.job.name, file);
  const etag = await m.deps.objects.putText({ bucket: pipeline.resultBucket, key }, text, 'application/json');
  if (etag) m.indexed[`${file.model}/${resultFileName(file)}`] = { etag, score };
  m.done++;
  if (!(await m.deps.jobs.progress(m.job.id, m.attempt, m.done, m.deps.now()))) throw new AttemptLost('lost');
}
