/**
 * The engine's answers captured once: for every request path, the status, headers and bytes the engine
 * sent. The ceiling replays them, so it serves exactly what the engine serves for the same request and
 * the ratio compares serving with serving (not serving with a smaller or different body).
 */
import { Agent, get, type IncomingHttpHeaders } from 'node:http';

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Set by node:http on every response; the replaying server sets its own. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function replayable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !CONNECTION_HEADERS.has(name))
      out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function fetchOnce(agent: Agent, port: number, path: string): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: replayable(res.headers),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * One path, asked again when the server closed the kept-alive socket as the request went out (its
 * keep-alive timeout racing a busy client: 100,000 paths on a loaded machine).
 */
async function fetchRetrying(agent: Agent, port: number, path: string): Promise<CapturedResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(agent, port, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt >= 3) throw err;
    }
  }
}

/** Requests every path once from the server on `port` (a few at a time, keep-alive). */
export async function captureResponses(
  port: number,
  paths: readonly string[],
  concurrency = 8,
): Promise<Map<string, CapturedResponse>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const out = new Map<string, CapturedResponse>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      out.set(path, await fetchRetrying(agent, port, path));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return out;
}
