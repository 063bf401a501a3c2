/**
 * The local gateway keeps an idle client connection open past Node's 5 s default, as a managed gateway
 * does: a client that sends on a connection the server is closing gets ECONNRESET.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../local/gateway';

/** Node's default keep-alive (5 s), plus the second Node waits beyond it before it closes a socket. */
const NODE_DEFAULT_CLOSE_MS = 6000;
let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway('keep-alive', async () => ({ statusCode: 200, body: 'ok' }), 0);
});
afterAll(() => gateway?.close());

/** A POST on the agent's connection: its status and the local port it was sent from. */
const post = (agent: Agent) =>
  new Promise<{ status: number; localPort: number }>((resolve, reject) => {
    const req = request(`${gateway.url}/token`, { method: 'POST', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, localPort: req.socket!.localPort! }));
    });
    req.on('error', reject);
    req.end('{}');
  });

it('answers on a connection that idled past Node’s default keep-alive', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await post(agent);
    await new Promise((r) => setTimeout(r, NODE_DEFAULT_CLOSE_MS + 1000));
    const second = await post(agent);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.localPort).toBe(first.localPort);
  } finally {
    agent.destroy();
  }
}, 20_000);
