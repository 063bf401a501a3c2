/** The body of a job's queue message: `{"jobId":"<id>"}`, nothing else (the job store has the rest). */
export const jobMessage = (jobId: string): string => JSON.stringify({ jobId });

/** The job id of a message body, or undefined when the body is not a job message. */
export function parseJobMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { jobId?: unknown };
    return typeof parsed.jobId === 'string' && parsed.jobId ? parsed.jobId : undefined;
  } catch {
    return undefined;
  }
}
