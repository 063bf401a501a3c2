/**
 * Items of a live channel as an outside client sees them: a run of segments from one
 * EXT-X-DISCONTINUITY to the next, named by the EXT-X-PROGRAM-DATE-TIME of its first segment (the
 * same in every rendition, since every rendition of an item starts when the item starts).
 */
import { type MediaPlaylist, type MediaSegment, parseMediaPlaylist } from '../../support/hls-playlist';
import { fetchBytes, probeStart } from '../../support/segment-timestamps';

/** Seconds of media of each item wholly inside the playlist (a discontinuity before and after it). */
export function mediaTimePerItem(playlist: MediaPlaylist): Map<number, number> {
  const out = new Map<number, number>();
  let current: { start: number; seconds: number } | undefined;
  for (const s of playlist.segments) {
    if (s.discontinuity) {
      if (current) out.set(current.start, current.seconds);
      current = { start: s.programDateTimeMs ?? Number.NaN, seconds: 0 };
    }
    if (current) current.seconds += s.duration;
  }
  return out;
}

async function firstPts(playlistUrl: string, s: MediaSegment): Promise<number> {
  const media = await fetchBytes(new URL(s.uri, playlistUrl).toString(), 5000);
  const init = s.map ? await fetchBytes(new URL(s.map.uri, playlistUrl).toString(), 5000) : undefined;
  return probeStart('/usr/bin/ffprobe', init ? Buffer.concat([init, media]) : media);
}

export interface ItemStart {
  pdtMs: number;
  videoSec: number;
  audioSec: number;
}

/** First video and audio timestamps of every item that starts in both playlists (fetched now). */
export async function itemStarts(videoUrl: string, audioUrl: string): Promise<ItemStart[]> {
  const [video, audio] = await Promise.all(
    [videoUrl, audioUrl].map(async (u) => parseMediaPlaylist(await (await fetch(u)).text())),
  );
  const audioByDate = new Map(audio!.segments.map((s) => [s.programDateTimeMs, s]));
  const starts: ItemStart[] = [];
  for (const v of video!.segments) {
    const a = audioByDate.get(v.programDateTimeMs);
    if (!v.discontinuity || !a?.discontinuity || v.programDateTimeMs === undefined) continue;
    const [videoSec, audioSec] = await Promise.all([firstPts(videoUrl, v), firstPts(audioUrl, a)]);
    starts.push({ pdtMs: v.programDateTimeMs, videoSec, audioSec });
  }
  return starts;
}
