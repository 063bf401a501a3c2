/**
 * The hostile probe of issue 15 for the AutoABR API: every route, driven through the local gateway and
 * the real Lambda handler on DynamoDB Local and fauxqs, with malformed encodings, over-long ids, NUL,
 * right-to-left overrides, traversal, deep and huge bodies, hostile strings in every string field of a
 * job request, bad limits and forged cursors. Each must be refused with a 4xx whose JSON body names
 * the problem; none is a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AutoabrSystem, jobRequest, startAutoabr } from '../autoabr/support/system';
import { type Answer, type Probe, send } from './support/raw-http';

let abr: AutoabrSystem;

beforeAll(async () => {
  abr = await startAutoabr();
  const known = await send(abr.url, { method: 'POST', path: '/autoabr', body: jobRequest('known') });
  expect(known.status, known.text).toBe(201);
});

afterAll(async () => {
  await abr?.stop();
});

interface Case extends Probe {
  name?: string;
  /** The field the error body must name; undefined when the status and code say it all. */
  field?: string;
  status?: number;
  code?: string;
}

async function expectRefused(c: Case): Promise<Answer> {
  const answer = await send(abr.url, c);
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (c.status) expect(answer.status, answer.text.slice(0, 300)).toBe(c.status);
  expect(answer.headers['content-type']).toMatch(/application\/json/);
  const body = answer.json as { message?: unknown; code?: unknown; field?: unknown };
  expect(typeof body?.message).toBe('string');
  expect(typeof body?.code).toBe('string');
  if (c.code) expect(body.code).toBe(c.code);
  if (c.field) expect(body.field, answer.text.slice(0, 300)).toBe(c.field);
  return answer;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const badSegments: [string, string][] = [
  ['malformed percent-encoding', '%E0%A4%A'],
  ['a lone percent sign', '%'],
  ['2 KB long', 'a'.repeat(2048)],
  ['200 characters long', 'a'.repeat(200)],
  ['holding a NUL', 'a%00b'],
  ['holding a right-to-left override', 'news%E2%80%AEtxt'],
  ['a traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['holding an encoded slash', 'a%2Fb'],
  ['holding a backslash', 'a%5C..%5Cb'],
];

describe('path parameters', () => {
  const routes: [string, (v: string) => string][] = [
    ['id', (v) => `/autoabr/${v}`],
    ['output', (v) => `/autoabr/result/${v}`],
    ['output', (v) => `/autoabr/result/${v}/`],
    ['output', (v) => `/autoabr/result/${v}/ladder`],
    ['output', (v) => `/autoabr/result/${v}/HD`],
    ['output', (v) => `/autoabr/result/${v}/HD?format=svg`],
    ['model', (v) => `/autoabr/result/known/${v}`],
  ];
  const cases = routes.flatMap(([field, path]) =>
    badSegments.map(([what, value]) => ({
      name: `GET ${path(`{${field}}`)} with ${what}`,
      path: path(value),
      field,
    })),
  );

  it.each(cases)('$name is a 400 naming $field', async (c) => {
    await expectRefused({ ...c, status: 400 });
  });

  it('refuses a job id that is not a UUID, naming id', async () => {
    await expectRefused({ path: '/autoabr/name%23known', field: 'id', status: 400 });
  });

  it('answers an unencoded traversal out of the API with a 404 JSON error', async () => {
    await expectRefused({ path: '/autoabr/result/../../../etc/passwd', status: 404, code: 'not_found' });
  });

  it('answers a method a route does not have with a 405 JSON error', async () => {
    await expectRefused({ method: 'PUT', path: '/autoabr', body: jobRequest('x'), status: 405 });
  });
});

describe('the job request body', () => {
  const hostile: [string, string][] = [
    ['2 KB long', 'a'.repeat(2048)],
    ['holding a NUL', 'a\u0000b'],
    ['holding a right-to-left override', 'news\u202etxt'],
    ['a traversal', '../../etc/passwd'],
    ['an encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['empty', ''],
  ];
  /** Where each string field's hostile value goes: names and models as they are, URLs in a key too. */
  const fields: [string, string, (v: string) => object][] = [
    ['job.name', 'job.name', (v) => ({ job: { ...jobRequest('x').job, name: v } })],
    ['job.reference', 'job.reference', (v) => ({ job: { ...jobRequest('x').job, reference: v } })],
    [
      'the key of job.reference',
      'job.reference',
      (v) => ({ job: { ...jobRequest('x').job, reference: `s3://media/${v}` } }),
    ],
    ['job.models.0', 'job.models.0', (v) => ({ job: { ...jobRequest('x').job, models: [v] } })],
    [
      'the key of encodingSettingsUrl',
      'encodingSettingsUrl',
      (v) => ({ ...jobRequest('x'), encodingSettingsUrl: `s3://media/settings/${v}` }),
    ],
    [
      'a folder of pipelineUrl',
      'pipelineUrl',
      (v) => ({ ...jobRequest('x'), pipelineUrl: `s3://media/${v}/pipeline.json` }),
    ],
  ];
  const cases = fields.flatMap(([label, field, body]) =>
    hostile.map(([what, value]) => ({
      name: `${label} ${what}`,
      method: 'POST',
      path: '/autoabr',
      body: body(value),
      field,
    })),
  );

  it.each(cases)('refuses $name with a 400 naming the field', async (c) => {
    await expectRefused({ ...c, status: 400 });
  });

  it.each([
    ['malformed JSON', '{"job": {"name": '],
    ['JSON nested 10,000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    [
      'an object nested 10,000 levels deep in a field',
      `{"job": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
    ],
    ['an array instead of an object', '[]'],
    ['a string instead of an object', '"job"'],
    ['null', 'null'],
  ])('refuses %s with a 400 naming the body', async (_what, text) => {
    await expectRefused({ method: 'POST', path: '/autoabr', body: text, field: 'body', status: 400 });
  });

  it('refuses no body at all with a 400 naming the body', async () => {
    await expectRefused({ method: 'POST', path: '/autoabr', field: 'body', status: 400 });
  });

  it('refuses a number too large for a bitrate, naming it', async () => {
    const text = JSON.stringify(jobRequest('x')).replace('500000', '1e400');
    await expectRefused({ method: 'POST', path: '/autoabr', body: text, field: 'job.bitrates.0' });
  });

  it.each([
    ['POST /autoabr', 'POST', '/autoabr'],
    ['DELETE /autoabr/cache', 'DELETE', '/autoabr/cache'],
  ])('refuses a 10 MB body on %s with 413', async (_name, method, path) => {
    const body = JSON.stringify({ ...jobRequest('x'), pad: 'x'.repeat(10_000_000) });
    // node:http frames a DELETE's body only when told its length.
    const headers = { 'content-length': String(Buffer.byteLength(body)) };
    await expectRefused({ method, path, body, headers, status: 413, code: 'payload_too_large' });
  });

  it('refuses a body that is not JSON with 415', async () => {
    await expectRefused({
      method: 'POST',
      path: '/autoabr',
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      status: 415,
    });
  });
});

describe('query parameters', () => {
  const badLimits = ['0', '-1', 'abc', '1e3', '%00', '10001', '1,2'];
  const paged = ['/autoabr', '/autoabr/result/known/', '/autoabr/result/known/HD?format=csv'];

  it.each(paged.flatMap((path) => badLimits.map((limit) => ({ path, limit }))))(
    'refuses limit=$limit on $path, naming limit',
    async ({ path, limit }) => {
      const sep = path.includes('?') ? '&' : '?';
      await expectRefused({ path: `${path}${sep}limit=${limit}`, field: 'limit', status: 400 });
    },
  );

  const jobId = '8d3c5c8e-2f4b-4a39-9d0e-6c1f0a7b2e51';
  const forgedJobCursors: [string, string][] = [
    ['garbage', 'not%20a%20cursor!'],
    ['3 KB long', 'A'.repeat(3000)],
    ['base64 of text', Buffer.from('hello').toString('base64url')],
    ['holding a NUL', 'ab%00cd'],
    ['with an id that is no job id', b64({ id: `name#known`, status: 'ACTIVE', createdAt: 1 })],
    ['for INACTIVE jobs', b64({ id: jobId, status: 'INACTIVE', createdAt: 1 })],
    ['with an extra key', b64({ id: jobId, status: 'ACTIVE', createdAt: 1, tenant: 'x' })],
    ['with a 2 KB id', b64({ id: 'a'.repeat(2048), status: 'ACTIVE', createdAt: 1 })],
    ['with a text createdAt', b64({ id: jobId, status: 'ACTIVE', createdAt: '1' })],
  ];

  it.each(forgedJobCursors)('refuses a job-list cursor %s, naming cursor', async (_what, cursor) => {
    await expectRefused({ path: `/autoabr?cursor=${cursor}`, field: 'cursor', status: 400 });
  });

  const forgedResultCursors: [string, string, string][] = [
    ['garbage', '/autoabr/result/known/', 'not%20a%20cursor!'],
    [
      'that is a job-list cursor',
      '/autoabr/result/known/',
      b64({ id: jobId, status: 'ACTIVE', createdAt: 1 }),
    ],
    ['holding a NUL', '/autoabr/result/known/', b64({ after: 'HD/a\u0000b' })],
    ['2 KB long', '/autoabr/result/known/', b64({ after: 'a'.repeat(2048) })],
    ['with an extra key', '/autoabr/result/known/', b64({ after: 'HD/x', bucket: 'other' })],
    ['of another model', '/autoabr/result/known/HD', b64({ after: 'PhoneHD/640x360_1_vmaf.json' })],
  ];

  it.each(forgedResultCursors)('refuses a results cursor %s, naming cursor', async (_what, path, cursor) => {
    await expectRefused({ path: `${path}?cursor=${cursor}`, field: 'cursor', status: 400 });
  });

  it.each([
    ['cursor', '/autoabr/result/known/ladder?cursor=abc'],
    ['limit', '/autoabr/result/known/HD?format=svg&limit=5'],
  ])('refuses %s on a route that does not page, naming it', async (field, path) => {
    await expectRefused({ path, field, status: 400 });
  });

  it.each([
    ['format', '/autoabr/result/known/?format=xlsx'],
    ['format', '/autoabr/result/known/?format=%00'],
    ['format', '/autoabr/result/known/?format=svg'],
    ['target', '/autoabr/result/known/ladder?target=1e999'],
    ['target', '/autoabr/result/known/ladder?target=%E2%80%AE5'],
    ['step', '/autoabr/result/known/HD?format=svg&step=-1'],
  ])('refuses a bad %s, naming it', async (field, path) => {
    await expectRefused({ path, field, status: 400 });
  });
});
