/**
 * What `/openapi.json` promises, checked against the running services (`npm start`'s system): each API
 * serves its document, every documented operation answers (a route, not 404 "no route" or 405), and
 * the request built from the document's own examples passes validation (never a 400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../core/openapi';
import { type RunningSystem, startSystem } from '../../local/system';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';

let system: RunningSystem;
let token: string;

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent' },
    services: ['channel', 'schedule', 'autoabr'],
  });
  const res = await fetch(`${system.urls.channel}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company: 'Acme', email: 'openapi@acme.test' }),
  });
  token = ((await res.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

/** The origin of each API (the schedule service's URL ends in /api/v1, its paths carry it). */
const origin = (service: string) => new URL(system.urls[service]!).origin;

type Operation = NonNullable<NonNullable<OpenApiDocument['paths']>[string]['get']>;

/** The request an operation's examples make: path parameters filled in, the example body. */
function exampleRequest(path: string, op: Operation): { url: string; body?: string } {
  let url = path;
  for (const p of op.parameters ?? [])
    if ('in' in p && p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
  const media =
    op.requestBody && 'content' in op.requestBody ? op.requestBody.content['application/json'] : undefined;
  return { url, body: media?.example === undefined ? undefined : JSON.stringify(media.example) };
}

describe.each(['channel', 'schedule', 'autoabr'])('the %s API', (service) => {
  let doc: OpenApiDocument;

  beforeAll(async () => {
    const res = await fetch(`${origin(service)}/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as OpenApiDocument;
  });

  it('serves an OpenAPI 3.1 document at /openapi.json', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths ?? {}).length).toBeGreaterThan(1);
  });

  it("answers every documented operation, and the document's example request validates", async () => {
    const answers: string[] = [];
    // POST before DELETE, so what an example creates is there to delete.
    const order = ['post', 'patch', 'get', 'delete'];
    for (const method of order) {
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        const op = item[method as 'get'];
        if (!op) continue;
        const { url, body } = exampleRequest(path, op);
        const res = await fetch(`${origin(service)}${url}`, {
          method: method.toUpperCase(),
          redirect: 'manual',
          headers: { 'x-jwt': `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body,
        });
        const text = await res.text();
        answers.push(`${method.toUpperCase()} ${path} -> ${res.status}`);
        const noRoute = res.status === 404 && text.includes('no route');
        expect(noRoute || res.status === 405, `${method} ${url}: ${text}`).toBe(false);
        expect(res.status, `${method} ${url}: ${text}`).not.toBe(400);
        expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(500);
      }
    }
    console.log(answers.join('\n'));
  });
});
