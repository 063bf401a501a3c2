/** What one attempt at a job needs: the stores, the queue, ffmpeg and the task's resources. */
import type { VmafEngine } from '../domain/libvmaf';
import type { RunFfmpeg } from '../ports/ffmpeg-runner';
import type { ObjectStore } from '../ports/object-store';
import type { AttemptDeps } from './end-attempt';

export interface WorkerDeps extends AttemptDeps {
  /** References are read and result files written here. */
  objects: ObjectStore;
  /** The VMAF engine of the worker's ffmpeg (probed once, on first use). */
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
