/** A worker's dependencies, from its configuration. */
import { awsClients } from '../adapters/aws-clients';
import { detectEngine } from '../adapters/detect-engine';
import { runProcess } from '../adapters/run-process';
import { S3ObjectStore } from '../adapters/s3-object-store';
import { type WorkerConfig, workerConfigFromEnv } from '../config/service-config';
import type { VmafEngine } from '../domain/libvmaf';
import type { WorkerDeps } from '../worker/worker-deps';
import { buildAttemptDeps } from './build-attempt-deps';

export function buildWorkerDeps(config: WorkerConfig = workerConfigFromEnv()): WorkerDeps {
  const clients = awsClients(config.aws.client);
  let engine: Promise<VmafEngine> | undefined;
  return {
    ...buildAttemptDeps(config.aws, clients),
    objects: new S3ObjectStore(clients.s3),
    engine: () => {
      engine ??= detectEngine(config.ffmpegPath, config.modelDir);
      return engine;
    },
    runFfmpeg: (args, signal) => runProcess(config.ffmpegPath, args, { signal }),
    workDir: config.workDir,
    cores: config.cores,
    heartbeatMs: config.heartbeatMs,
    leaseSeconds: config.leaseSeconds,
    maxReferenceBytes: config.maxReferenceBytes,
  };
}
