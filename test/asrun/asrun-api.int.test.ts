/**
 * The as-run log through the product (docs/asrun.md): channels made through the channel and schedule
 * APIs, played by the engine of the local system, and their as-run logs read back through both APIs
 * (`GET /channel/{id}/asrun`, `GET /api/v1/channels/{id}/asrun`) as JSON and CSV, a page at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsRunView } from '../../core/asrun/asrun-entry';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { trialToken } from '../support/trial-token';

let system: RunningSystem;
let token: string;
let id: string;

const jwt = (t: string) => ({ 'x-jwt': `Bearer ${t}` });

const tokenFor = (email: string) => trialToken(system.urls.channel!, email);

const asRun = (query = '', t = token) =>
  fetch(`${system.urls.channel}/channel/${id}/asrun${query}`, { headers: jwt(t) });

/** The channel's as-run log once it holds `n` entries of a kind and of the other. */
const entriesOnceAired = (n: number) =>
  waitFor(
    async () => (await (await asRun()).json()) as AsRunView[],
    (list) =>
      list.filter((e) => e.kind === 'preroll').length >= n &&
      list.filter((e) => e.kind === 'vod').length >= n,
    { timeoutMs: 60_000, what: `${n} prerolls and ${n} VODs in the as-run log`, intervalMs: 500 },
  );

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent', ENGINE_CHANNEL_REFRESH_MS: '500' },
    services: ['schedule', 'engine', 'channel'],
  });
  token = await tokenFor('asrun@acme.test');
  // The demo VOD is 12 s and the slate, as the preroll, 4 s: an entry ends every few seconds.
  const res = await fetch(`${system.urls.channel}/channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...jwt(token) },
    body: JSON.stringify({
      name: 'asrun-loop',
      type: 'Loop',
      url: `${system.urls.engine}/demo/master.m3u8`,
      opts: { preroll: { url: `${system.urls.engine}/slate/master.m3u8`, duration: '4000' } },
    }),
  });
  expect(res.status).toBe(201);
  id = ((await res.json()) as { id: string }).id;
  await waitOnAir(`${system.urls.engine}/channels/asrun-loop/master.m3u8`, 30_000);
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

describe('GET /channel/{id}/asrun', () => {
  it('lists what aired back to back: each preroll an ad break, each VOD the Loop asset', async () => {
    const list = await entriesOnceAired(2);
    for (let k = 1; k < list.length; k++) expect(list[k]!.startMs).toBe(list[k - 1]!.endMs);
    const ad = list.find((e) => e.kind === 'preroll')!;
    // A TS item lasts its video's EXTINFs plus its audio's lead and overhang (the slate's and the
    // demo's: 80 + 11 ms), as long as hls.js plays it (docs/media.md, "Seams").
    const adMs = ad.endMs - ad.startMs;
    expect(ad.adBreak).toEqual({
      cueOutMs: ad.startMs,
      cueInMs: ad.endMs,
      durationMs: adMs,
      plannedDurationMs: adMs,
      delivery: 'spliced',
    });
    expect(adMs).toBeGreaterThanOrEqual(4000);
    expect(adMs).toBeLessThan(4100);
    const vod = list.find((e) => e.kind === 'vod')!;
    expect(vod.durationMs).toBeGreaterThanOrEqual(12_000);
    expect(vod.durationMs).toBeLessThan(12_100);
    expect(new Set(list.filter((e) => e.kind === 'vod').map((e) => e.id)).size).toBe(1);
    expect(vod.start).toBe(new Date(vod.startMs).toISOString());
    expect(list.every((e) => e.endMs <= Date.now())).toBe(true);
  });

  it('answers the same entries as CSV, one row each under a header', async () => {
    const json = await entriesOnceAired(2);
    const last = json[json.length - 1]!;
    const range = `start=${json[0]!.start}&end=${new Date(last.startMs + 1).toISOString()}`;
    const res = await asRun(`?format=csv&${range}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^channel,start,end,duration_ms,kind,id,title/);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 5))).toEqual(
      json.map((e) => ['asrun-loop', e.start, e.end, String(e.durationMs), e.kind]),
    );
  });

  it('pages with limit and cursor, and the pages join into the whole list', async () => {
    const whole = await entriesOnceAired(2);
    const range = `start=${whole[0]!.start}&end=${new Date(whole[whole.length - 1]!.startMs + 1).toISOString()}`;
    const seen: AsRunView[] = [];
    let query = `?limit=1&${range}`;
    for (;;) {
      const res = await asRun(query);
      expect(res.status).toBe(200);
      const page = (await res.json()) as AsRunView[];
      expect(page.length).toBeLessThanOrEqual(1);
      seen.push(...page);
      const cursor = res.headers.get('x-next-cursor');
      if (!cursor) break;
      query = `?limit=1&${range}&cursor=${cursor}`;
    }
    expect(seen).toEqual(whole);
  });

  it('keeps to the range asked for: entries that started in [start, end)', async () => {
    const whole = await entriesOnceAired(2);
    const second = whole[1]!;
    const res = await asRun(`?start=${second.start}&end=${new Date(second.startMs + 1).toISOString()}`);
    expect(((await res.json()) as AsRunView[]).map((e) => e.startMs)).toEqual([second.startMs]);
  });

  it('refuses a malformed range or format, naming the parameter', async () => {
    for (const [query, field] of [
      ['?start=yesterday', 'start'],
      ['?start=2026-01-02T00:00:00Z&end=2026-01-01T00:00:00Z', 'end'],
      ['?format=xml', 'format'],
      ['?limit=0', 'limit'],
      ['?cursor=bogus', 'cursor'],
    ]) {
      const res = await asRun(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { field: string }).field).toBe(field);
    }
  });

  it("answers 404 for another tenant's channel and 401 without a token", async () => {
    const other = await tokenFor('other@acme.test');
    expect((await asRun('', other)).status).toBe(404);
    expect((await fetch(`${system.urls.channel}/channel/${id}/asrun`)).status).toBe(401);
  });
});

describe('GET /api/v1/channels/{id}/asrun', () => {
  const api = (path: string, body?: unknown) =>
    fetch(`${system.urls.schedule}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("lists a schedule channel's entries as they aired, under the entry's title", async () => {
    expect((await api('/channels', { id: 'asrun-tv', title: 'As-run TV' })).status).toBe(201);
    const start = new Date(Date.now() + 2000).toISOString();
    const res = await api('/channels/asrun-tv/schedule', {
      title: 'Demo hour',
      type: 'VOD',
      url: `${system.urls.engine}/demo/master.m3u8`,
      start,
      end: new Date(Date.parse(start) + 3_600_000).toISOString(),
    });
    expect(res.status).toBe(201);
    const list = await waitFor(
      async () => (await (await api('/channels/asrun-tv/asrun')).json()) as AsRunView[],
      (l) => l.some((e) => e.kind === 'vod' && e.title === 'Demo hour'),
      { timeoutMs: 90_000, what: 'the scheduled VOD in the as-run log', intervalMs: 1000 },
    );
    const vod = list.find((e) => e.kind === 'vod')!;
    expect(vod.endMs).toBeGreaterThan(vod.startMs);
    expect((await api('/channels/nope/asrun')).status).toBe(404);
  });
});
