/**
 * The EPG of a channel-service channel (functions/channel/epg/): the engine's playout of the channel,
 * read from the shared playout log, as JSON and as XMLTV that the XMLTV DTD accepts; only the owner
 * reads it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { type RunningSystem, startSystem } from '../../local/system';
import { waitOnAir } from '../support/on-air';
import { sharedDynamoDb } from '../support/run/shared-dynamodb';
import { trialToken } from '../support/trial-token';

const XMLTV_DTD = '/usr/share/sgml/xmltv/dtd/0.5/xmltv.dtd';
let system: RunningSystem;
let token: string;
let id: string;
let createdAtMs: number;

const jwt = (t: string) => ({ 'x-jwt': `Bearer ${t}` });

const tokenFor = (email: string) => trialToken(system.urls.channel!, email);

beforeAll(async () => {
  system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0 },
    env: { LOG_LEVEL: 'silent' },
    services: ['schedule', 'engine', 'channel'],
  });
  token = await tokenFor('epg@acme.test');
  createdAtMs = Date.now();
  const res = await fetch(`${system.urls.channel}/channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...jwt(token) },
    body: JSON.stringify({ name: 'epg-loop', type: 'Loop', url: `${system.urls.engine}/demo/master.m3u8` }),
  });
  expect(res.status).toBe(201);
  id = ((await res.json()) as { id: string }).id;
  await waitOnAir(`${system.urls.engine}/channels/epg-loop/master.m3u8`, 30_000);
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

interface Epg {
  channel: { id: string };
  programmes: { title: string; start: string; stop: string; type: string }[];
}
const epgJson = async () =>
  (await (
    await fetch(`${system.urls.channel}/channel/${id}/epg.json`, { headers: jwt(token) })
  ).json()) as Epg;

it('lists what the engine plays now and what it appended next, from its playout log', async () => {
  const epg = await waitFor(epgJson, (e) => e.programmes.some((p) => Date.parse(p.stop) > Date.now()), {
    timeoutMs: 30_000,
    what: 'a programme playing now or next',
  });
  expect(epg.channel.id).toBe('epg-loop');
  const now = Date.now();
  expect(epg.programmes.some((p) => Date.parse(p.start) <= now && Date.parse(p.stop) > now)).toBe(true);
  const starts = epg.programmes.map((p) => Date.parse(p.start));
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
});

it.skipIf(!existsSync(XMLTV_DTD) || !existsSync('/usr/bin/xmllint'))(
  'answers XMLTV that the XMLTV DTD accepts',
  async () => {
    const res = await fetch(`${system.urls.channel}/channel/${id}/epg.xml`, { headers: jwt(token) });
    expect(res.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), 'epg-')), 'epg.xml');
    writeFileSync(file, await res.text());
    expect(() =>
      execFileSync('xmllint', ['--noout', '--nonet', '--dtdvalid', XMLTV_DTD, file]),
    ).not.toThrow();
  },
);

it("answers 404 for another tenant's channel, as for one that does not exist", async () => {
  const other = await tokenFor('other@acme.test');
  const res = await fetch(`${system.urls.channel}/channel/${id}/epg.json`, { headers: jwt(other) });
  expect(res.status).toBe(404);
});

it('starts no programme before the channel was made, and titles each loop with the VOD', async () => {
  const epg = await waitFor(epgJson, (e) => e.programmes.length > 0, {
    timeoutMs: 30_000,
    what: 'programmes',
  });
  for (const p of epg.programmes) {
    expect(Date.parse(p.start)).toBeGreaterThanOrEqual(createdAtMs - 1000);
    // The channel loops /demo/master.m3u8: its folder names it.
    expect(p.title).toBe('demo');
  }
});

it('answers the programmes of the day ?date= names, and none for another day', async () => {
  const today = new Date().toISOString().slice(0, 10);
  const day = (await (
    await fetch(`${system.urls.channel}/channel/${id}/epg.json?date=${today}`, { headers: jwt(token) })
  ).json()) as Epg & { range: { start: string; end: string } };
  expect(day.range).toEqual({
    start: `${today}T00:00:00.000Z`,
    end: new Date(Date.parse(today) + 86_400_000).toISOString(),
  });
  expect(day.programmes.length).toBeGreaterThan(0);
  const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const before = (await (
    await fetch(`${system.urls.channel}/channel/${id}/epg.json?date=${yesterday}`, { headers: jwt(token) })
  ).json()) as Epg;
  expect(before.programmes).toEqual([]);
  const bad = await fetch(`${system.urls.channel}/channel/${id}/epg.xml?date=yesterday`, {
    headers: jwt(token),
  });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ field: 'date' });
});
