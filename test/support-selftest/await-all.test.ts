import { describe, expect, it } from 'vitest';
import { awaitAll } from '../support/promises/await-all';

describe('awaitAll', () => {
  it('answers every value in the order given', async () => {
    const later = new Promise<string>((resolve) => setTimeout(() => resolve('b'), 20));
    await expect(awaitAll([Promise.resolve(1), later])).resolves.toEqual([1, 'b']);
  });

  it('throws the first failure only once every other promise has settled', async () => {
    let slowSettled = false;
    const slow = new Promise<void>((resolve) =>
      setTimeout(() => {
        slowSettled = true;
        resolve();
      }, 50),
    );
    const failure = new Error('did not start');
    await expect(awaitAll([Promise.reject(failure), slow])).rejects.toBe(failure);
    expect(slowSettled).toBe(true);
  });
});
