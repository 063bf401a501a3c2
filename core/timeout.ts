/** Deadlines for calls we do not control (the host's asset manager, remote playlists). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * `work`, rejected with a TimeoutError when it has not settled within `ms`. One promise and one timer,
 * not a race of two promises with a finally: the engine makes hundreds of these calls a second, nearly
 * all answered at once, and they were an eighth of what its idle planning allocated.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${ms} ms`)), ms);
    // Promise.resolve: a host may answer with a plain value (it returns a native promise as it is).
    Promise.resolve(work).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
