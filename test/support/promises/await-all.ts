/**
 * Promise.all that lets every promise settle before it throws the first failure: when a suite starts
 * several things at once and one fails, the others have started (and been assigned by their own
 * `.then`) by the time its afterAll runs to stop them, and none plays on unwatched after the test.
 */
export async function awaitAll<T extends readonly unknown[]>(
  promises: {
    readonly [K in keyof T]: Promise<T[K]>;
  },
): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
