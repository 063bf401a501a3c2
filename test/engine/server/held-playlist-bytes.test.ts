/**
 * A rendition's renders are written in turn into one block of memory (render/render-arena.ts). A
 * response that a reader has not taken yet still holds its bytes, so the renders after it must not
 * write over them: a slow reader gets the playlist as it was when it asked, byte for byte.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../core/wait-for';
import type { Engine } from '../../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../helpers/engine-fixtures';

const clock = { now: Date.UTC(2025, 0, 1) };
let engine: Engine;
let base: string;
const PATH = '/channels/news/0.m3u8';
/** Enough pipelined requests that their answers fill the loopback socket's buffers on both sides. */
const PIPELINED = 4000;

beforeAll(async () => {
  ({ engine, base } = await startNewsEngine(fakeWorld(), { clock: () => clock.now }));
  await waitFor(
    () => fetch(`${base}${PATH}`).then((r) => r.status),
    (status) => status === 200,
    { what: 'the channel on air' },
  );
});

afterAll(async () => {
  await engine.stop();
});

/** The complete answers' bodies on a connection so far, in order, each read to its content-length. */
function bodiesOf(received: Buffer): string[] {
  const text = received.toString('latin1');
  const bodies: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const length = Number(/content-length: (\d+)/i.exec(text.slice(at, end))![1]);
    if (end + 4 + length > text.length) break;
    bodies.push(text.slice(end + 4, end + 4 + length));
    at = end + 4 + length;
  }
  return bodies;
}

it('answers a reader that takes its time with the playlist as it was when it asked, though the channel rendered again meanwhile', async () => {
  const asked = await (await fetch(`${base}${PATH}`)).text();
  const socket: Socket = connect(Number(new URL(base).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  engine.core.metrics.take();
  socket.write(`GET ${PATH} HTTP/1.1\r\nHost: engine.test\r\n\r\n`.repeat(PIPELINED));
  // The engine answers what the socket takes and holds the answers it cannot send yet (node:http then
  // stops reading the connection): wait until it has stopped taking requests.
  let taken = 0;
  let quiet = 0;
  await waitFor(
    () => engine.core.metrics.take().get('PlaylistRequests') ?? 0,
    (n) => {
      taken += n;
      quiet = n === 0 && taken > 0 ? quiet + 1 : 0;
      return quiet >= 3;
    },
    { intervalMs: 50, what: 'the engine to stop reading the pipelined requests' },
  );
  expect(taken).toBeLessThan(PIPELINED);

  // Three segments later, rendered once per segment: each render is written in turn into the block.
  const renders: string[] = [];
  for (let k = 1; k <= 3; k++) {
    clock.now += 2000;
    renders.push(await (await fetch(`${base}${PATH}`)).text());
  }
  expect(new Set([asked, ...renders]).size).toBe(4);

  socket.resume();
  const bodies = await waitFor(
    () => bodiesOf(Buffer.concat(chunks)),
    (b) => b.length === PIPELINED,
    { what: `${PIPELINED} answers`, timeoutMs: 20_000 },
  );
  socket.destroy();
  // In order: those answered before the clock moved, then those read after it (the last render). A
  // render written over bytes still held would show as one of the renders in between, or a mixture.
  const first = bodies.findIndex((b) => b !== asked);
  const before = first === -1 ? bodies.length : first;
  expect(before).toBeGreaterThanOrEqual(taken);
  expect(bodies.slice(before).filter((b) => b !== renders.at(-1))).toEqual([]);
});

it('reads a playlist as text without taking its block from the renders after it', async () => {
  const { playlists } = engine.core.channel('news')!;
  const blockOf = () => playlists.readyMediaPlaylist('v0')!.bytes.buffer;
  clock.now += 2000;
  const before = blockOf();
  // Read at once, not kept: the next render may go on writing into the same block.
  expect(await playlists.mediaPlaylist('v0')).toContain('#EXTM3U');
  clock.now += 2000;
  expect(blockOf()).toBe(before);
  // Kept by its caller across other requests' renders: the next render gets a block of its own.
  await playlists.renderedMediaPlaylist('v0');
  clock.now += 2000;
  expect(blockOf()).not.toBe(before);
});
