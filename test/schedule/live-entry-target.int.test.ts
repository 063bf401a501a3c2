/**
 * A LIVE entry whose source has longer segments than its channel's target duration is refused when it
 * is made (400 naming `url`), over real HTTP on DynamoDB Local with the source served from loopback:
 * a channel's target duration is its `targetDuration`, else 10 s (core/target-duration.ts). A source
 * that cannot be read yet is accepted (the engine still checks it on air).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/schedule/handler';
import { type Gateway, startGateway } from '../../local/gateway';
import { type LocalCloud, startTestCloud } from '../support/local-cloud';
import { type StaticServer, startStaticServer } from '../support/static-server';
import { http } from './support/http';

let cloud: LocalCloud;
let gateway: Gateway;
let origin: StaticServer;
let root: string;

/** A live media playlist of six segments of `segmentS` seconds, as ffmpeg writes it. */
const livePlaylist = (segmentS: number) =>
  [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(segmentS)}`,
    '#EXT-X-MEDIA-SEQUENCE:40',
    ...Array.from({ length: 6 }, (_, i) => `#EXTINF:${segmentS.toFixed(6)},\nseg${40 + i}.ts`),
    '',
  ].join('\n');

const master = [
  '#EXTM3U',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",LANGUAGE="en",URI="audio.m3u8"',
  '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="aud"',
  'video.m3u8',
  '',
].join('\n');

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'onair-live-target-'));
  const write = (file: string, text: string) => writeFile(path.join(root, file), text);
  await Promise.all([
    write('six.m3u8', livePlaylist(6.006)),
    write('two.m3u8', livePlaylist(2.002)),
    write('video.m3u8', livePlaylist(2)),
    write('audio.m3u8', livePlaylist(4.011)),
    write('master.m3u8', master),
  ]);
  origin = await startStaticServer(root);
  // The sources are on loopback: the guarded fetch allows it only when told so.
  cloud = await startTestCloud({ ALLOW_PRIVATE_URLS: 'true' });
  gateway = await startGateway('schedule', handler, 0);
  for (const body of [
    { id: 'tv', title: 'TV' },
    { id: 'fast', title: 'Fast', targetDuration: 2 },
  ])
    expect((await http(`${gateway.url}/api/v1/channels`, { method: 'POST', body })).status).toBe(201);
});
afterAll(async () => {
  await gateway?.close();
  await cloud?.stop();
  await origin?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

let day = 1;
/** Makes a LIVE entry of `source` on channel `channel`, a day apart from the others. */
const liveEntry = (channel: string, source: string) => {
  const date = `2030-06-${String(day++).padStart(2, '0')}`;
  return http(`${gateway.url}/api/v1/channels/${channel}/schedule`, {
    method: 'POST',
    body: {
      title: 'Match',
      type: 'LIVE',
      url: `${origin.url}/${source}`,
      start: `${date}T18:00:00Z`,
      end: `${date}T19:00:00Z`,
    },
  });
};

describe('a LIVE entry', () => {
  it("is accepted when its source's segments fit the channel's 10 s default", async () => {
    expect((await liveEntry('tv', 'six.m3u8')).status).toBe(201);
  });

  it("is refused with a 400 naming url when its source's segments are longer than the channel's targetDuration", async () => {
    const res = await liveEntry('fast', 'six.m3u8');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'url' });
    expect(JSON.stringify(res.body)).toContain("6 s segments, longer than the channel's 2 s target duration");
  });

  it("is accepted when its source's segments, rounded, fit the channel's targetDuration", async () => {
    expect((await liveEntry('fast', 'two.m3u8')).status).toBe(201);
  });

  it('is refused when any playlist of a master source has longer segments (here its audio rendition)', async () => {
    const res = await liveEntry('fast', 'master.m3u8');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('4 s segments');
  });

  it('is accepted when its source cannot be read yet (the engine checks it on air)', async () => {
    expect((await liveEntry('fast', 'not-started.m3u8')).status).toBe(201);
  });
});
