/**
 * What ffmpeg as a client cannot tell (its HLS demuxer ignores EXT-X-DISCONTINUITY): whether every
 * timestamp jump in a media playlist sits behind an EXT-X-DISCONTINUITY. Each segment is probed for
 * its first timestamp; without a discontinuity tag, it must start where the previous one ended.
 */
import { spawn } from 'node:child_process';
import { type MediaSegment, parseMediaPlaylist } from './hls-playlist';
import type { Violation } from './live-rules';

export interface TimedSegment {
  mediaSequence: number;
  discontinuity: boolean;
  /** EXTINF, seconds. */
  duration: number;
  /** First presentation timestamp in the segment (video if it has video), seconds. */
  startSec: number;
}

/** MPEG-TS timestamps are 33 bits at 90 kHz: they wrap about every 26.5 hours. */
const PTS_WRAP_SEC = 2 ** 33 / 90_000;

/** Pure: every segment that does not start where the one before it ended, with no discontinuity tag. */
export function findTimestampGaps(segments: readonly TimedSegment[], toleranceMs = 100): Violation[] {
  const violations: Violation[] = [];
  for (let i = 1; i < segments.length; i++) {
    const a = segments[i - 1]!;
    const b = segments[i]!;
    if (b.discontinuity || b.mediaSequence !== a.mediaSequence + 1) continue;
    const expected = a.startSec + a.duration;
    const off = b.startSec - expected;
    const wrapped = Math.min(Math.abs(off), Math.abs(off + PTS_WRAP_SEC));
    if (wrapped * 1000 > toleranceMs) {
      violations.push({
        rule: 'timestamp-gap',
        mediaSequence: b.mediaSequence,
        message:
          `segment ${b.mediaSequence} starts at ${b.startSec.toFixed(3)} s, segment ${a.mediaSequence} ends at ` +
          `${expected.toFixed(3)} s (its start + EXTINF), and no EXT-X-DISCONTINUITY separates them`,
      });
    }
  }
  return violations;
}

export function probeStart(ffprobePath: string, bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-of', 'json', '-i', 'pipe:0'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    // ffprobe may stop reading once it has what it needs.
    child.stdin.on('error', () => undefined);
    child.stdin.end(bytes);
    child.on('error', reject);
    child.on('close', () => {
      try {
        const streams =
          (JSON.parse(out) as { streams?: { codec_type?: string; start_time?: string }[] }).streams ?? [];
        const chosen = streams.find((s) => s.codec_type === 'video') ?? streams[0];
        const start = Number(chosen?.start_time);
        if (!Number.isFinite(start)) throw new Error('no start_time');
        resolve(start);
      } catch {
        reject(new Error(`ffprobe found no timestamps: ${err.trim() || out.trim()}`));
      }
    });
  });
}

class FetchError extends Error {}

export async function fetchBytes(url: string, timeoutMs: number): Promise<Buffer> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (e) {
    throw new FetchError(`${url}: ${(e as Error).message}`);
  }
}

export interface TimestampCheckOptions {
  toleranceMs?: number;
  requestTimeoutMs?: number;
  /** Default /usr/bin/ffprobe. */
  ffprobePath?: string;
}

/**
 * Fetches a media playlist once, probes each of its segments (fMP4 ones with their EXT-X-MAP) and
 * returns a 'timestamp-gap' violation for every untagged jump. A segment that cannot be fetched or
 * probed is a 'fetch-failed' / 'malformed' violation.
 */
export async function checkSegmentTimestamps(
  url: string,
  options: TimestampCheckOptions = {},
): Promise<Violation[]> {
  const { toleranceMs = 100, requestTimeoutMs = 5000, ffprobePath = '/usr/bin/ffprobe' } = options;
  const playlist = parseMediaPlaylist((await fetchBytes(url, requestTimeoutMs)).toString());
  const maps = new Map<string, Buffer>();
  const timed: TimedSegment[] = [];
  const violations: Violation[] = [];
  const probe = async (s: MediaSegment): Promise<number> => {
    const mapUrl = s.map ? new URL(s.map.uri, url).toString() : undefined;
    if (mapUrl && !maps.has(mapUrl)) maps.set(mapUrl, await fetchBytes(mapUrl, requestTimeoutMs));
    const media = await fetchBytes(new URL(s.uri, url).toString(), requestTimeoutMs);
    return probeStart(ffprobePath, mapUrl ? Buffer.concat([maps.get(mapUrl)!, media]) : media);
  };
  for (const s of playlist.segments) {
    try {
      const startSec = await probe(s);
      timed.push({
        mediaSequence: s.mediaSequence,
        discontinuity: s.discontinuity,
        duration: s.duration,
        startSec,
      });
    } catch (e) {
      const rule = e instanceof FetchError ? 'fetch-failed' : 'malformed';
      violations.push({ rule, mediaSequence: s.mediaSequence, message: (e as Error).message });
    }
  }
  return [...violations, ...findTimestampGaps(timed, toleranceMs)];
}
