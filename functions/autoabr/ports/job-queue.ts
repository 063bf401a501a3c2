/**
 * The job queue. A message only says "job <id> wants a worker"; everything else is in the job store.
 * Whoever ends an attempt settles its message: delete (done, or failed for good), release (retry later)
 * or dead-letter (retries exhausted: kept aside for an operator).
 */
export interface ReceivedJob {
  /** undefined when the body is not a job message (it is then dead-lettered). */
  jobId: string | undefined;
  body: string;
  receiptHandle: string;
}

export interface JobQueue {
  send(jobId: string, delaySeconds?: number): Promise<void>;
  receive(max: number, leaseSeconds: number): Promise<ReceivedJob[]>;
  /** Keeps a message invisible for another `leaseSeconds` from now (the worker's heartbeat). */
  extend(receiptHandle: string, leaseSeconds: number): Promise<void>;
  /** Makes a message visible again after `delaySeconds`. */
  release(receiptHandle: string, delaySeconds: number): Promise<void>;
  delete(receiptHandle: string): Promise<void>;
  deadLetter(receiptHandle: string, body: string, reason: string): Promise<void>;
}
