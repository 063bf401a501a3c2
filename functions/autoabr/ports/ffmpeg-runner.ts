/** Running ffmpeg: the worker says what to run, an adapter runs the program. */
export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The tail of stderr (ffmpeg can be chatty). */
  stderr: string;
}

/** Runs the worker's ffmpeg with these arguments to completion (or until `signal` aborts). */
export type RunFfmpeg = (args: readonly string[], signal: AbortSignal) => Promise<ProcessResult>;
