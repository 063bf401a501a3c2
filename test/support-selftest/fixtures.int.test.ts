import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../scripts/fixtures/generate';
import type { HlsRecipe } from '../../scripts/fixtures/recipes';
import { ensureFixtures, type FixturePaths, type HlsFixture } from '../support/fixtures';
import {
  type MediaPlaylist,
  parseMasterPlaylist,
  parseMediaPlaylist,
  playlistDuration,
} from '../support/hls-playlist';

interface ProbedStream {
  codec_type: string;
  codec_name: string;
  profile?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  start_pts?: number;
}

async function probe(file: string): Promise<{ streams: ProbedStream[]; duration: number }> {
  const { stdout } = await promisify(execFile)('/usr/bin/ffprobe', [
    ...'-v error -show_entries stream=codec_type,codec_name,profile,width,height,r_frame_rate,start_pts'.split(
      ' ',
    ),
    ...'-show_entries format=duration -of json'.split(' '),
    file,
  ]);
  const json = JSON.parse(stdout) as { streams: ProbedStream[]; format: { duration: string } };
  return { streams: json.streams, duration: Number(json.format.duration) };
}

async function media(dir: string, uri: string): Promise<MediaPlaylist> {
  return parseMediaPlaylist(await readFile(path.join(dir, uri), 'utf8'));
}

async function peakBitrate(dir: string, uri: string): Promise<number> {
  const p = await media(dir, uri);
  const rates = await Promise.all(
    p.segments.map(
      async (s) => ((await stat(path.join(dir, path.dirname(uri), s.uri))).size * 8) / s.duration,
    ),
  );
  return Math.max(...rates);
}

let fixtures: FixturePaths;
beforeAll(async () => {
  fixtures = await ensureFixtures();
});

const hlsFixtures = (): HlsFixture[] => [
  fixtures.vodA,
  fixtures.vodB,
  fixtures.vodFmp4,
  fixtures.preroll,
  fixtures.slate,
  fixtures.demuxed,
];

describe('HLS fixtures', () => {
  it('all have a master playlist with one variant per rung of their ladder', async () => {
    for (const f of hlsFixtures()) {
      const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
      expect(
        master.variants.map((v) => v.resolution),
        f.name,
      ).toEqual(f.recipe.ladder.map((r) => ({ width: r.width, height: r.height })));
    }
  });

  it('declare the resolution, frame rate and codecs their video really has', async () => {
    for (const f of hlsFixtures()) {
      const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
      for (const v of master.variants) {
        const p = await media(f.dir, v.uri);
        const first = p.segments[0]!;
        const file = path.join(f.dir, path.dirname(v.uri), first.uri);
        const bytes = first.map
          ? Buffer.concat([
              await readFile(path.join(f.dir, path.dirname(v.uri), first.map.uri)),
              await readFile(file),
            ])
          : undefined;
        const probed = bytes ? await probeBytes(bytes, f.name) : await probe(file);
        const video = probed.streams.find((s) => s.codec_type === 'video');
        expect(video, `${f.name} ${v.uri}`).toMatchObject({
          codec_name: 'h264',
          width: v.resolution?.width,
          height: v.resolution?.height,
          r_frame_rate: `${v.frameRate}/1`,
        });
        expect(v.codecs?.[0], f.name).toMatch(/^avc1\.[0-9a-f]{6}$/i);
        expect(v.codecs, f.name).toContain('mp4a.40.2');
      }
    }
  });

  it('declare a BANDWIDTH at least the peak segment bit rate, and an AVERAGE-BANDWIDTH below it', async () => {
    for (const f of hlsFixtures()) {
      const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
      const audio = master.renditions.filter((r) => r.type === 'AUDIO' && r.uri);
      const audioPeaks = await Promise.all(audio.map((r) => peakBitrate(f.dir, r.uri!)));
      for (const v of master.variants) {
        const peak = (await peakBitrate(f.dir, v.uri)) + Math.max(0, ...audioPeaks);
        expect(v.bandwidth, `${f.name} ${v.uri}`).toBeGreaterThanOrEqual(Math.floor(peak));
        expect(v.averageBandwidth, `${f.name} ${v.uri}`).toBeLessThanOrEqual(v.bandwidth);
      }
    }
  });

  it('have whole-second video segments that add up to the designed duration', async () => {
    for (const f of hlsFixtures()) {
      for (const rung of f.recipe.ladder) {
        const p = await media(f.dir, `${rung.name}/index.m3u8`);
        expect(p.targetDuration, f.name).toBe(f.recipe.segmentSec);
        expect(p.endList, f.name).toBe(true);
        expect(new Set(p.segments.map((s) => s.duration)), `${f.name} ${rung.name}`).toEqual(
          new Set([f.recipe.segmentSec]),
        );
        expect(playlistDuration(p), `${f.name} ${rung.name}`).toBeCloseTo(f.recipe.durationSec, 6);
      }
    }
  });

  it('have every segment and init section their playlists name', async () => {
    for (const f of hlsFixtures()) {
      const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
      const uris = [
        ...master.variants.map((v) => v.uri),
        ...master.renditions.flatMap((r) => (r.uri ? [r.uri] : [])),
      ];
      for (const uri of uris) {
        const p = await media(f.dir, uri);
        for (const s of p.segments) {
          for (const file of [s.uri, ...(s.map ? [s.map.uri] : [])]) {
            expect(existsSync(path.join(f.dir, path.dirname(uri), file)), `${f.name} ${uri} ${file}`).toBe(
              true,
            );
          }
        }
      }
    }
  });

  it('vod-fmp4 is fragmented MP4 with an EXT-X-MAP on every variant', async () => {
    const f = fixtures.vodFmp4;
    const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
    for (const v of master.variants) {
      const p = await media(f.dir, v.uri);
      expect(p.segments.every((s) => s.uri.endsWith('.m4s') && s.map?.uri.endsWith('.mp4'))).toBe(true);
    }
  });

  it('demuxed has video-only variants sharing en and sv audio renditions and an en WebVTT rendition', async () => {
    const f = fixtures.demuxed;
    const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
    expect(master.renditions.map((r) => [r.type, r.language])).toEqual([
      ['AUDIO', 'en'],
      ['AUDIO', 'sv'],
      ['SUBTITLES', 'en'],
    ]);
    for (const v of master.variants) {
      expect([v.audio, v.subtitles]).toEqual([master.renditions[0]?.groupId, master.renditions[2]?.groupId]);
      const p = await media(f.dir, v.uri);
      const probed = await probe(path.join(f.dir, path.dirname(v.uri), p.segments[0]!.uri));
      expect(probed.streams.map((s) => s.codec_type)).toEqual(['video']);
    }
  });

  it('demuxed audio renditions are audio only and last the designed duration to within one AAC frame', async () => {
    const f = fixtures.demuxed;
    const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
    for (const r of master.renditions.filter((x) => x.type === 'AUDIO')) {
      const p = await media(f.dir, r.uri!);
      expect(Math.abs(playlistDuration(p) - f.recipe.durationSec)).toBeLessThan(1024 / 48_000 + 1e-6);
      const probed = await probe(path.join(f.dir, path.dirname(r.uri!), p.segments[0]!.uri));
      expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['audio', 'aac']]);
    }
  });

  it('demuxed subtitles pin cue time zero to the first video timestamp', async () => {
    const f = fixtures.demuxed;
    const master = parseMasterPlaylist(await readFile(f.master, 'utf8'));
    const subs = master.renditions.find((r) => r.type === 'SUBTITLES')!;
    const p = await media(f.dir, subs.uri!);
    expect(playlistDuration(p)).toBeCloseTo(f.recipe.durationSec, 6);
    const firstVideo = await media(f.dir, master.variants[0]!.uri);
    const { streams } = await probe(
      path.join(f.dir, path.dirname(master.variants[0]!.uri), firstVideo.segments[0]!.uri),
    );
    for (const s of p.segments) {
      const vtt = await readFile(path.join(f.dir, path.dirname(subs.uri!), s.uri), 'utf8');
      expect(vtt.startsWith('WEBVTT\n')).toBe(true);
      expect(vtt).toContain(`X-TIMESTAMP-MAP=MPEGTS:${streams[0]?.start_pts},LOCAL:00:00:00.000`);
      expect(vtt).toMatch(/\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n\S/);
    }
  });
});

describe('VMAF reference clip', () => {
  it('is 3 s of 640x360 25 fps H.264 High', async () => {
    const { streams, duration } = await probe(fixtures.referenceMp4);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({
      codec_name: 'h264',
      profile: 'High',
      width: 640,
      height: 360,
      r_frame_rate: '25/1',
    });
    expect(duration).toBeCloseTo(3, 1);
  });
});

describe('fixture cache', () => {
  const tiny: HlsRecipe = {
    kind: 'hls',
    name: 'tiny',
    durationSec: 2,
    segmentSec: 1,
    fps: 10,
    segmentType: 'mpegts',
    picture: 'color=c=blue',
    ladder: [{ name: '90p', width: 160, height: 90, kbps: 50 }],
    audio: { mode: 'muxed', tone: { frequencyHz: 0 } },
  };
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'fixture-cache-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('generates a missing fixture, then reuses it untouched', async () => {
    const first = await generateFixtures({ root, recipes: [tiny] });
    const before = await stat(path.join(root, 'tiny', 'master.m3u8'));
    const second = await generateFixtures({ root, recipes: [tiny] });
    const after = await stat(path.join(root, 'tiny', 'master.m3u8'));
    expect([first.results[0]?.action, second.results[0]?.action]).toEqual(['generated', 'reused']);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('generates a fixture again when its recipe changes', async () => {
    await generateFixtures({ root, recipes: [tiny] });
    const changed = { ...tiny, durationSec: 3 };
    const { results } = await generateFixtures({ root, recipes: [changed] });
    expect(results[0]?.action).toBe('generated');
    const p = parseMediaPlaylist(await readFile(path.join(root, 'tiny', '90p', 'index.m3u8'), 'utf8'));
    expect(playlistDuration(p)).toBeCloseTo(3, 6);
  });

  it('makes a fixture once when two runs ask for it at the same time', async () => {
    const fresh = { ...tiny, name: 'tiny-race' };
    const runs = await Promise.all([
      generateFixtures({ root, recipes: [fresh] }),
      generateFixtures({ root, recipes: [fresh] }),
    ]);
    expect(runs.map((r) => r.results[0]?.action).sort()).toEqual(['generated', 'reused']);
  });

  it('leaves nothing that looks current when ffmpeg fails', async () => {
    const broken = { ...tiny, name: 'tiny-broken', picture: 'no-such-source' };
    await expect(generateFixtures({ root, recipes: [broken] })).rejects.toThrow(/ffmpeg/);
    expect(existsSync(path.join(root, 'tiny-broken'))).toBe(false);
    expect(existsSync(path.join(root, '.stamps', 'tiny-broken.json'))).toBe(false);
  });
});

/** fMP4 media segments only probe with their init section in front. */
async function probeBytes(
  bytes: Buffer,
  label: string,
): Promise<{ streams: ProbedStream[]; duration: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), `probe-${label}-`));
  try {
    const file = path.join(dir, 'joined.mp4');
    await writeFile(file, bytes);
    return await probe(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
