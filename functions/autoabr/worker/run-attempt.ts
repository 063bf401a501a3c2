/**
 * One attempt at one job: download the reference, encode every rung with ffmpeg, score each encode for
 * every model, upload each libvmaf log as a result file, and keep DynamoDB (progress, heartbeat) and the
 * SQS message (its lease) informed. Rungs run one after another, each ffmpeg using all of the task's
 * cores: on a few cores that beats running rungs side by side, and progress stays meaningful.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ProcessResult } from '../adapters/run-process';
import {
  downloadToFile,
  isAccessDenied,
  isNotFound,
  ObjectTooLargeError,
  putText,
} from '../adapters/s3-objects';
import { encodeArgs, type ScoreTarget, scoreArgs, scoreRuns } from '../domain/ffmpeg-args';
import type { JobItem } from '../domain/job';
import type { ModelName } from '../domain/models';
import { resultFileName, resultKey } from '../domain/result-keys';
import { parseS3Url } from '../domain/s3-url';
import { indexKey, mergeIndex, type ScoreIndex } from '../domain/score-index';
import { summariseVmafLog, VmafLogError, type VmafSummary } from '../domain/vmaf-log';
import { EngineError, type VmafEngine } from './detect-engine';
import {
  type AttemptDeps,
  type AttemptEnd,
  failAttempt,
  PermanentJobError,
  succeedAttempt,
} from './end-attempt';

export type RunFfmpeg = (args: readonly string[], signal: AbortSignal) => Promise<ProcessResult>;

export interface WorkerDeps extends AttemptDeps {
  s3: S3Client;
  engine(): Promise<VmafEngine>;
  runFfmpeg: RunFfmpeg;
  /** Folder for the reference and encodes (a per-attempt folder is made inside and removed after). */
  workDir: string;
  /** Cores to use when the pipeline says 0 (every core of the task). */
  cores: number;
  heartbeatMs: number;
  /** The message lease the heartbeat renews. */
  leaseSeconds: number;
  maxReferenceBytes: number;
}

/** The last few meaningful lines of ffmpeg's stderr: enough to see why, short enough for DynamoDB. */
export function ffmpegReason(res: ProcessResult): string {
  const lines = res.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const tail = lines.slice(-3).join(' | ');
  const how = res.signal ? `signal ${res.signal}` : `exit code ${res.code}`;
  return `${how}${tail ? `: ${tail.slice(0, 600)}` : ''}`;
}

class AttemptLost extends Error {
  override name = 'AttemptLost';
}

export async function runAttempt(
  deps: WorkerDeps,
  jobId: string,
  attempt: number,
  stop?: AbortSignal,
): Promise<AttemptEnd> {
  const job = await deps.jobs.get(jobId);
  if (job?.phase !== 'RUNNING' || job.attempts !== attempt) return 'LOST';
  const log = deps.log.child({ jobId, attempt });
  const abort = new AbortController();
  const onStop = () => abort.abort(new Error(`worker stopped (${String(stop?.reason ?? 'signal')})`));
  stop?.addEventListener('abort', onStop, { once: true });

  const beat = setInterval(() => {
    void (async () => {
      try {
        if (!(await deps.jobs.heartbeat(jobId, attempt, deps.now()))) {
          abort.abort(new AttemptLost('the attempt was ended by someone else'));
          return;
        }
        if (job.receiptHandle) await deps.queue.extend(job.receiptHandle, deps.leaseSeconds);
      } catch (err) {
        log.warn('heartbeat failed', { err });
      }
    })();
  }, deps.heartbeatMs);

  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(deps.workDir, `autoabr-${jobId.slice(0, 8)}-`));
    await measure(deps, job, attempt, dir, abort.signal);
    log.info('job succeeded');
    return await succeedAttempt(deps, job, attempt);
  } catch (err) {
    const reason = abort.signal.aborted ? abort.signal.reason : err;
    if (reason instanceof AttemptLost) return 'LOST';
    const permanent = reason instanceof PermanentJobError || reason instanceof EngineError;
    const message = reason instanceof Error ? reason.message : String(reason);
    if (!(reason instanceof PermanentJobError)) log.error('job attempt crashed', { err: reason });
    return await failAttempt(deps, job, attempt, message, permanent);
  } finally {
    clearInterval(beat);
    stop?.removeEventListener('abort', onStop);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

async function measure(
  deps: WorkerDeps,
  job: JobItem,
  attempt: number,
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const engine = await deps.engine();
  const modelErrors: Partial<Record<ModelName, string>> = {};
  const models = job.models.filter((m) => {
    const why = engine.unavailable[m];
    if (why) modelErrors[m] = why;
    return !why;
  });
  if (models.length === 0) {
    throw new PermanentJobError(`no requested model can be scored: ${Object.values(modelErrors).join('; ')}`);
  }
  const rungs = job.resolutions.flatMap((r) => job.bitrates.map((bitrate) => ({ ...r, bitrate })));
  const total = rungs.length * models.length;
  if (!(await deps.jobs.setTotal(job.id, attempt, total, modelErrors, deps.now())))
    throw new AttemptLost('lost');

  const reference = join(dir, `reference${extname(parseS3Url(job.reference)?.key ?? '') || '.mp4'}`);
  await downloadReference(deps, job.reference, reference);
  signal.throwIfAborted();

  const threads = job.pipeline.ffmpegThreads || deps.cores;
  // Scores of the files uploaded, for the output's score index (a compile then downloads none of them).
  const indexed: ScoreIndex = {};
  const ext = job.encoding.container;
  let done = 0;
  for (const rung of rungs) {
    const label = `${rung.width}x${rung.height} @ ${rung.bitrate} b/s`;
    const encoded = join(dir, `${rung.width}x${rung.height}_${rung.bitrate}.${ext}`);
    const enc = await deps.runFfmpeg(
      encodeArgs({ reference, output: encoded, rung, settings: job.encoding, threads }),
      signal,
    );
    signal.throwIfAborted();
    if (enc.code !== 0) throw new PermanentJobError(`ffmpeg could not encode ${label}: ${ffmpegReason(enc)}`);

    const targets: ScoreTarget[] = models.map((model) => ({
      model,
      logPath: join(dir, `${model}_${rung.width}x${rung.height}_${rung.bitrate}.json`),
    }));
    for (const run of scoreRuns(engine.libvmaf, targets)) {
      const score = await deps.runFfmpeg(
        scoreArgs({
          distorted: encoded,
          reference,
          targets: run,
          libvmaf: engine.libvmaf,
          modelDir: engine.modelDir,
          threads,
          nSubsample: job.pipeline.nSubsample,
          pixelFormat: job.encoding.pixelFormat,
        }),
        signal,
      );
      signal.throwIfAborted();
      const models = run.map((t) => t.model).join(', ');
      if (score.code !== 0) {
        throw new PermanentJobError(`ffmpeg could not score ${label} (${models}): ${ffmpegReason(score)}`);
      }
    }

    for (const target of targets) {
      const text = await readFile(target.logPath, 'utf8');
      let summary: VmafSummary;
      try {
        summary = summariseVmafLog(text);
      } catch (err) {
        if (err instanceof VmafLogError)
          throw new PermanentJobError(`${target.model} ${label}: ${err.message}`);
        throw err;
      }
      const file = { model: target.model, ...rung };
      const key = resultKey(job.pipeline.resultPrefix, job.name, file);
      const etag = await putText(
        deps.s3,
        { bucket: job.pipeline.resultBucket, key },
        text,
        'application/json',
      );
      if (etag) indexed[`${file.model}/${resultFileName(file)}`] = { etag, score: summary.harmonicMean };
      done++;
      if (!(await deps.jobs.progress(job.id, attempt, done, deps.now()))) throw new AttemptLost('lost');
    }
    await rm(encoded, { force: true });
  }
  await mergeIndex(
    deps.s3,
    job.pipeline.resultBucket,
    indexKey(job.pipeline.resultPrefix, job.name),
    indexed,
    deps.log.child({ jobId: job.id }),
  );
}

async function downloadReference(deps: WorkerDeps, url: string, path: string): Promise<void> {
  const loc = parseS3Url(url);
  if (!loc) throw new PermanentJobError(`reference ${url} is not an s3://bucket/key URL`);
  try {
    await downloadToFile(deps.s3, loc, path, deps.maxReferenceBytes);
  } catch (err) {
    if (isNotFound(err)) throw new PermanentJobError(`reference ${url} not found`);
    if (isAccessDenied(err)) throw new PermanentJobError(`reference ${url}: access denied`);
    if (err instanceof ObjectTooLargeError) throw new PermanentJobError(`reference ${err.message}`);
    throw err;
  }
}
