/**
 * The engine host keeps idle connections open longer than the load balancer in front of it (the ALB
 * keeps them 60 s): a server that closes first races the ALB's next request on that connection, which
 * the ALB answers 502. Node's default is 5 s.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../core/wait-for';
import { ENGINE_KEEP_ALIVE_S, engineHostConfigFromEnv } from '../../../engine-container/host/config';
import type { Engine } from '../../../engine-container/src/engine';
import { fakeWorld, startNewsEngine } from '../helpers/engine-fixtures';

const ALB_IDLE_TIMEOUT_S = 60;
/** Node's default keep-alive (5 s), plus the 1 s Node 20 waits beyond it before it closes a socket. */
const NODE_DEFAULT_CLOSE_MS = 6000;

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

let engine: Engine;

beforeAll(async () => {
  delete process.env.ENGINE_KEEP_ALIVE_S;
  const { options } = engineHostConfigFromEnv();
  ({ engine } = await startNewsEngine(fakeWorld(), { keepAliveTimeout: options.keepAliveTimeout }));
});

afterAll(async () => {
  await engine.stop();
});

/** One HTTP/1.1 exchange on an open socket: the answer's head and body, read to its content-length. */
async function exchange(socket: Socket, path: string): Promise<{ head: string; body: string }> {
  let received = '';
  const onData = (chunk: Buffer) => {
    received += chunk.toString('latin1');
  };
  socket.on('data', onData);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: engine.test\r\n\r\n`);
  const complete = (text: string) => {
    const end = text.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
    return end >= 0 && text.length >= end + 4 + length;
  };
  try {
    await waitFor(
      () => {
        if (socket.destroyed && !complete(received)) throw new Error('the engine closed the connection');
        return received;
      },
      complete,
      { intervalMs: 10, what: `an answer to ${path}` },
    );
  } finally {
    socket.off('data', onData);
  }
  const end = received.indexOf('\r\n\r\n');
  return { head: received.slice(0, end), body: received.slice(end + 4) };
}

describe('the engine host keep-alive', () => {
  it('keeps idle connections 65 s by default, longer than the ALB idle timeout of 60 s', () => {
    delete process.env.ENGINE_KEEP_ALIVE_S;
    expect(ENGINE_KEEP_ALIVE_S).toBe(65);
    expect(engineHostConfigFromEnv().options.keepAliveTimeout).toBe(ENGINE_KEEP_ALIVE_S);
    expect(ENGINE_KEEP_ALIVE_S).toBeGreaterThan(ALB_IDLE_TIMEOUT_S);
  });

  it('takes the keep-alive from ENGINE_KEEP_ALIVE_S', () => {
    process.env.ENGINE_KEEP_ALIVE_S = '120';
    expect(engineHostConfigFromEnv().options.keepAliveTimeout).toBe(120);
  });

  it('announces its keep-alive on every answer', async () => {
    const socket = connect(engine.port, '127.0.0.1');
    try {
      const { head } = await exchange(socket, '/health');
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(head).toMatch(/\r\nkeep-alive: timeout=65(\r\n|$)/i);
    } finally {
      socket.destroy();
    }
  });

  it('serves a connection again after it idled 7 s, past the default of Node', {
    timeout: 20_000,
  }, async () => {
    const socket = connect(engine.port, '127.0.0.1');
    try {
      expect((await exchange(socket, '/health')).head).toMatch(/^HTTP\/1\.1 200/);
      // Idle past Node's default: a server still on it has closed the socket by then.
      const idleFrom = Date.now();
      await waitFor(
        () => socket.destroyed || Date.now() - idleFrom > NODE_DEFAULT_CLOSE_MS + 1000,
        (done) => done,
        { intervalMs: 50, what: 'the connection to idle past the default' },
      );
      expect(socket.destroyed).toBe(false);
      const again = await exchange(socket, '/health');
      expect(again.head).toMatch(/^HTTP\/1\.1 200/);
      expect(JSON.parse(again.body)).toEqual({ status: 'ok' });
    } finally {
      socket.destroy();
    }
  });
});
