/**
 * Where audio and video start at each seam of a live channel, as ffprobe sees the segments (fMP4 with
 * their EXT-X-MAP, whose edit list ffprobe applies): for every item that starts in both playlists, the
 * first video timestamp of the video playlist's first segment and the first audio timestamp of the
 * audio playlist's first segment (a muxed TS segment there is read for its audio stream alone).
 */
import { spawn } from 'node:child_process';
import { type MediaSegment, parseMediaPlaylist } from '../../support/hls-playlist';
import { fetchBytes } from '../../support/segment-timestamps';

type Kind = 'video' | 'audio';

/** start_time of the first stream of this kind in the bytes, seconds. */
export function streamStart(bytes: Buffer, kind: Kind): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,start_time',
      '-of',
      'json',
      '-i',
      'pipe:0',
    ]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(bytes);
    child.on('error', reject);
    child.on('close', () => {
      const streams = (
        JSON.parse(out || '{}') as { streams?: { codec_type?: string; start_time?: string }[] }
      ).streams;
      const start = Number(streams?.find((s) => s.codec_type === kind)?.start_time);
      if (Number.isFinite(start)) resolve(start);
      else reject(new Error(`ffprobe found no ${kind} start: ${out.trim()}`));
    });
  });
}

async function segmentBytes(playlistUrl: string, s: MediaSegment): Promise<Buffer> {
  const media = await fetchBytes(new URL(s.uri, playlistUrl).toString(), 5000);
  if (!s.map) return media;
  return Buffer.concat([await fetchBytes(new URL(s.map.uri, playlistUrl).toString(), 5000), media]);
}

export interface SeamStarts {
  pdtMs: number;
  /** The item's first segment (its container shows in the extension). */
  uri: string;
  videoSec: number;
  audioSec: number;
}

/** Audio and video starts of every item that starts in both playlists (each fetched once, now). */
export async function seamStarts(videoUrl: string, audioUrl: string): Promise<SeamStarts[]> {
  const [video, audio] = await Promise.all(
    [videoUrl, audioUrl].map(async (u) => parseMediaPlaylist(await (await fetch(u)).text())),
  );
  const audioByDate = new Map(audio!.segments.map((s) => [s.programDateTimeMs, s]));
  const out: SeamStarts[] = [];
  for (const v of video!.segments) {
    const a = audioByDate.get(v.programDateTimeMs);
    if (!v.discontinuity || !a?.discontinuity || v.programDateTimeMs === undefined) continue;
    const [videoSec, audioSec] = await Promise.all([
      segmentBytes(videoUrl, v).then((b) => streamStart(b, 'video')),
      segmentBytes(audioUrl, a).then((b) => streamStart(b, 'audio')),
    ]);
    out.push({ pdtMs: v.programDateTimeMs, uri: v.uri, videoSec, audioSec });
  }
  return out;
}
