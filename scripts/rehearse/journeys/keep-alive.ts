/**
 * The engine keeps an idle keep-alive connection longer than the ALB's 60 s idle timeout: one TCP
 * connection, a request, 61 s idle, a second request on the same socket is answered.
 */
import { connect, type Socket } from 'node:net';

function request(socket: Socket, host: string, path: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(
      () => finish(new Error(`no answer on the kept-alive socket within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      data += chunk.toString('latin1');
      const head = data.indexOf('\r\n\r\n');
      if (head < 0) return;
      const headers = data.slice(0, head);
      if (/transfer-encoding: *chunked/i.test(headers)) {
        if (data.endsWith('0\r\n\r\n')) finish();
        return;
      }
      const length = Number(/content-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
      if (data.length >= head + 4 + length) finish();
    };
    const onClose = () => finish(new Error('the engine closed the idle connection'));
    const finish = (err?: Error) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (err) reject(err);
      else resolve(data.split('\r\n')[0] ?? '');
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

export async function keepAliveSurvivesIdle(engineUrl: string, idleMs = 61_000): Promise<string> {
  const { hostname, port } = new URL(engineUrl);
  const socket = connect(Number(port), hostname);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const first = await request(socket, `${hostname}:${port}`, '/health', 10_000);
    const idleFrom = Date.now();
    let closedAfterMs: number | undefined;
    socket.once('close', () => {
      closedAfterMs = Date.now() - idleFrom;
    });
    await new Promise((resolve) => setTimeout(resolve, idleMs)); // the idle time is the scenario itself
    if (closedAfterMs !== undefined)
      throw new Error(
        `the engine closed the idle keep-alive connection after ${(closedAfterMs / 1000).toFixed(1)} s (the ALB keeps it 60 s)`,
      );
    const second = await request(socket, `${hostname}:${port}`, '/health', 10_000);
    return `${first} / after ${idleMs / 1000} s idle on the same socket: ${second}`;
  } finally {
    socket.destroy();
  }
}
