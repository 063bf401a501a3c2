/**
 * One engine's view of a channel's writer lease (channel/writer-lease.ts) against the in-memory store,
 * whose leases expire by Date.now: faked here, so a stalled process (no renewals ran) is a clock step.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../core/logger';
import { WriterLease } from '../../engine-container/src/channel/writer-lease';
import { InMemoryPlayoutLogStore, type PlayoutLogStore } from '../../engine-container/src/playout/log-store';

const TTL_MS = 1000;
let store: InMemoryPlayoutLogStore;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  store = new InMemoryPlayoutLogStore();
});
afterEach(() => {
  vi.useRealTimers();
});

const leaseOn = (on: PlayoutLogStore, owner = 'a') =>
  new WriterLease(on, 'ch', owner, TTL_MS, createLogger());

it('is confirmed without a store call while its last confirmation is fresh', async () => {
  const renew = vi.spyOn(store, 'renewLease');
  const lease = leaseOn(store);
  expect(await lease.take()).toBe(true);
  vi.setSystemTime(Date.now() + TTL_MS / 4);
  expect(await lease.confirm()).toBe(true);
  expect(renew).not.toHaveBeenCalled();
});

it('is not confirmed once another engine took it over while this one stalled', async () => {
  const lease = leaseOn(store);
  await lease.take();
  vi.setSystemTime(Date.now() + 3 * TTL_MS);
  expect(await leaseOn(store, 'b').take()).toBe(true);
  expect(await lease.confirm()).toBe(false);
  expect(lease.held).toBe(false);
});

it('is given up, after one renewal the store could not answer, once its life may be over', async () => {
  const failing = Object.assign(Object.create(store) as InMemoryPlayoutLogStore, {
    renewLease: vi.fn().mockRejectedValue(new Error('store down')),
  });
  const lease = leaseOn(failing);
  await lease.take();
  vi.setSystemTime(Date.now() + 2 * TTL_MS);
  expect(await lease.confirm()).toBe(false);
  expect(lease.held).toBe(false);
  expect(failing.renewLease).toHaveBeenCalledTimes(1);
});

it('ignores a renewal answered after its release, when it was taken again meanwhile', async () => {
  let answer: (renewed: boolean) => void = () => undefined;
  const slow = Object.assign(Object.create(store) as InMemoryPlayoutLogStore, {
    renewLease: () => new Promise<boolean>((resolve) => (answer = resolve)),
  });
  const lease = leaseOn(slow);
  await lease.take();
  vi.advanceTimersByTime(TTL_MS / 3); // the background renewal is sent, and hangs
  await lease.release();
  expect(await lease.take()).toBe(true);
  answer(false); // the old renewal's "not yours", from before the new take
  await Promise.resolve();
  await Promise.resolve();
  expect(lease.held).toBe(true);
});
