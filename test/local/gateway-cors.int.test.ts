/**
 * CORS at the local gateway, as API Gateway does it in AWS (lib/console-site.ts): the console's origin
 * gets its preflight answered and the allow/expose headers on responses; any other origin gets none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../local/gateway';

const CONSOLE = 'http://localhost:8070';
let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway(
    'cors',
    async () => ({
      statusCode: 200,
      headers: { 'content-type': 'application/json', link: '<x>' },
      body: '[]',
    }),
    0,
    '127.0.0.1',
    [CONSOLE],
  );
});
afterAll(() => gateway?.close());

const preflight = (origin: string) =>
  fetch(`${gateway.url}/channel`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-jwt' },
  });

it("answers the console's preflight with the methods and headers it may use", async () => {
  const res = await preflight(CONSOLE);
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  expect(res.headers.get('access-control-allow-headers')).toBe('content-type,x-jwt');
  expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PATCH,DELETE');
});

it("allows the console's origin on responses and exposes the paging headers", async () => {
  const res = await fetch(`${gateway.url}/channel`, { headers: { origin: CONSOLE } });
  expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  expect(res.headers.get('access-control-expose-headers')).toContain('x-next-cursor');
});

it('gives any other origin no CORS headers, on preflights and on responses', async () => {
  const pre = await preflight('https://evil.example');
  expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  const res = await fetch(`${gateway.url}/channel`, { headers: { origin: 'https://evil.example' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
});
