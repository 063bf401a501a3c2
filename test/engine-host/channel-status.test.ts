/**
 * The engine task's side of channel status: what each event means (derive-status.ts) and what the
 * tracker writes (status-tracker.ts): only changes, at a bounded rate, with failed writes retried.
 * The store's own conditions are tested on DynamoDB Local (test/channel/channel-status.int.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { StatusRecord } from '../../core/channel-status/status';
import type { StatusWriter } from '../../core/channel-status/status-store';
import { createLogger } from '../../core/logger';
import { reasonOfErrorCode, statusOfItem } from '../../engine-container/host/status/derive-status';
import { StatusTracker } from '../../engine-container/host/status/status-tracker';
import { EngineEvents } from '../../engine-container/src/events';
import { Metrics } from '../../engine-container/src/metrics';

const calm = { storeFailing: false };

describe('statusOfItem', () => {
  it('is on air for a VOD, a preroll and a live item', () => {
    for (const kind of ['vod', 'preroll', 'live'])
      expect(statusOfItem({ seq: 3, kind, startMs: 1000 }, calm)).toEqual({
        status: 'on_air',
        itemSeq: 3,
        sinceMs: 1000,
      });
  });

  it('is on slate with the reason of the error this task met planning the channel', () => {
    const slate = { seq: 4, kind: 'slate', startMs: 2000, reason: 'https://x/a.m3u8: HTTP 404' };
    expect(statusOfItem(slate, { ...calm, lastErrorCode: 'vod_not_found' })).toMatchObject({
      status: 'on_slate',
      reason: 'source_unreachable',
    });
    expect(statusOfItem(slate, { ...calm, lastErrorCode: 'vod_malformed' }).reason).toBe('not_hls');
    expect(statusOfItem(slate, { ...calm, lastErrorCode: 'webhook_invalid' }).reason).toBe('webhook_failing');
    expect(statusOfItem(slate, { ...calm, lastErrorCode: 'live_stalled' }).reason).toBe('live_source_lost');
  });

  it('says nothing is scheduled for a gap, the store for an outage, and no reason when it cannot know', () => {
    expect(statusOfItem({ seq: 1, kind: 'gap', startMs: 0, reason: 'gap' }, calm).reason).toBe(
      'nothing_scheduled',
    );
    expect(
      statusOfItem({ seq: 1, kind: 'slate', startMs: 0, reason: 'store_unavailable' }, calm).reason,
    ).toBe('store_degraded');
    expect(statusOfItem({ seq: 1, kind: 'slate', startMs: 0, reason: 'boom' }, calm)).toEqual({
      status: 'on_slate',
      itemSeq: 1,
      sinceMs: 0,
    });
  });

  it('says the live source was lost for the slate of a refused LIVE source, whatever started since the refusal', () => {
    const slate = { seq: 9, kind: 'slate', startMs: 0, reason: 'live_segments_too_long' };
    expect(statusOfItem(slate, calm)).toEqual({
      status: 'on_slate',
      itemSeq: 9,
      sinceMs: 0,
      reason: 'live_source_lost',
    });
  });

  it('maps unknown error codes to item_failed', () => {
    expect(reasonOfErrorCode('something_else')).toBe('item_failed');
    expect(reasonOfErrorCode(undefined)).toBe('item_failed');
  });
});

/** A writer that records what it was asked to write, and can be made to fail. */
function recordingWriter() {
  const writes: [string, StatusRecord | 'removed'][] = [];
  let failing = false;
  const writer: StatusWriter = {
    async write(id, record) {
      if (failing) throw new Error('store down');
      writes.push([id, record]);
      return true;
    },
    async remove(id) {
      if (failing) throw new Error('store down');
      writes.push([id, 'removed']);
    },
  };
  return { writer, writes, fail: (on: boolean) => (failing = on) };
}

function tracker(options: { minIntervalMs?: number; maxWritesPerFlush?: number } = {}) {
  let now = 1_000_000;
  const events = new EngineEvents(() => now);
  const metrics = new Metrics();
  const { writer, writes, fail } = recordingWriter();
  const t = new StatusTracker({
    events,
    writer,
    metrics,
    log: createLogger({ test: 'status' }),
    storeFailing: () => false,
    clock: () => now,
    ...options,
  });
  t.start();
  return { t, events, metrics, writes, fail, advance: (ms: number) => (now += ms) };
}

const started = (seq: number, kind: string, startMs = seq * 1000) => ({ seq, kind, startMs, reason: 'x' });

describe('StatusTracker', () => {
  it('writes a change once, not every item of the same status', async () => {
    const { t, events, writes } = tracker();
    events.emit('a', 'item_started', started(0, 'vod'));
    events.emit('a', 'item_started', started(1, 'vod'));
    events.emit('a', 'item_started', started(2, 'preroll'));
    await t.flush();
    expect(writes).toEqual([['a', { status: 'on_air', itemSeq: 0, sinceMs: 0 }]]);
    await t.stop();
  });

  it('puts a channel whose source fails on slate with the reason, and back on air when it plays', async () => {
    const { t, events, writes, advance } = tracker({ minIntervalMs: 0 });
    events.emit('a', 'item_started', started(0, 'vod'));
    await t.flush();
    events.emit('a', 'vod_error', { code: 'vod_not_found' });
    events.emit('a', 'item_started', started(1, 'slate'));
    advance(10);
    await t.flush();
    events.emit('a', 'item_started', started(2, 'vod'));
    advance(10);
    await t.flush();
    expect(writes.map(([, r]) => r)).toEqual([
      { status: 'on_air', itemSeq: 0, sinceMs: 0 },
      { status: 'on_slate', reason: 'source_unreachable', itemSeq: 1, sinceMs: 1000 },
      { status: 'on_air', itemSeq: 2, sinceMs: 2000 },
    ]);
    await t.stop();
  });

  it('says why a channel that never got on air is still starting', async () => {
    const { t, events, writes } = tracker();
    events.emit('a', 'vod_error', { code: 'vod_malformed' });
    await t.flush();
    expect(writes).toEqual([
      ['a', { status: 'starting', reason: 'not_hls', itemSeq: -1, sinceMs: 1_000_000 }],
    ]);
    await t.stop();
  });

  it('writes a flapping channel at most once per interval, the latest status winning', async () => {
    const { t, events, writes, advance } = tracker({ minIntervalMs: 5000 });
    events.emit('a', 'item_started', started(0, 'vod'));
    await t.flush();
    events.emit('a', 'item_started', started(1, 'gap'));
    events.emit('a', 'item_started', started(2, 'vod'));
    events.emit('a', 'item_started', started(3, 'slate'));
    await t.flush();
    expect(writes).toHaveLength(1);
    advance(5000);
    await t.flush();
    expect(writes.map(([, r]) => r)).toEqual([
      { status: 'on_air', itemSeq: 0, sinceMs: 0 },
      { status: 'on_slate', itemSeq: 3, sinceMs: 3000 },
    ]);
    await t.stop();
  });

  it('writes at most maxWritesPerFlush channels per flush and the rest on the next', async () => {
    const { t, events, writes } = tracker({ maxWritesPerFlush: 2 });
    for (const id of ['a', 'b', 'c']) events.emit(id, 'item_started', started(0, 'vod'));
    await t.flush();
    expect(writes.map(([id]) => id)).toEqual(['a', 'b']);
    await t.flush();
    expect(writes.map(([id]) => id)).toEqual(['a', 'b', 'c']);
    await t.stop();
  });

  it('keeps a failed write and writes it once the store answers', async () => {
    const { t, events, writes, fail } = tracker();
    fail(true);
    events.emit('a', 'item_started', started(0, 'slate'));
    await t.flush();
    expect(writes).toEqual([]);
    fail(false);
    await t.flush();
    expect(writes).toEqual([['a', { status: 'on_slate', itemSeq: 0, sinceMs: 0 }]]);
    await t.stop();
  });

  it('removes the status of a removed channel', async () => {
    const { t, events, writes } = tracker();
    events.emit('a', 'item_started', started(0, 'vod'));
    events.emit('a', 'channel_removed');
    await t.flush();
    expect(writes).toEqual([['a', 'removed']]);
    await t.stop();
  });

  it('counts status changes and gauges the channels on slate', async () => {
    const { t, events, metrics } = tracker();
    events.emit('a', 'item_started', started(0, 'slate'));
    events.emit('b', 'item_started', started(0, 'vod'));
    events.emit('c', 'item_started', started(0, 'gap'));
    const counts = metrics.take();
    expect(counts.get('StatusChanges')).toBe(3);
    expect(counts.get('ChannelsOnSlate')).toBe(2);
    await t.stop();
  });
});
