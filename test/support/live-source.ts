/**
 * A real live HLS source on localhost for live-mixing tests: ffmpeg encodes a test pattern in real
 * time (-re) into 2 rungs (320x180 and 640x360, H.264 + AAC, 2 s segments), with the HLS muxer's
 * sliding window (8 segments) and deleted segments (80 s after they leave it), into a temp folder served by the static server.
 * With `demuxedAudio`, the rungs are video only and the sound is one English TYPE=AUDIO rendition
 * (group `aud`, its own playlist and segments).
 * With `cmaf`, fMP4 segments (`-hls_segment_type fmp4`, an init section per rung), with ffmpeg's usual
 * live window (`-hls_list_size 6 -hls_flags delete_segments`: a segment is deleted one segment after
 * it leaves the playlist), as most live packagers do. With `singleFile`, one growing file per rendition
 * and byte ranges (`-hls_flags single_file`, without `temp_file`: ffmpeg would list the temporary name); with `aes128`, every segment encrypted with one key
 * (`-hls_key_info_file`, `METHOD=AES-128` with an IV, the key served next to the playlists).
 * stop() kills ffmpeg by its pid (the playlist stays, frozen: a source that stopped sending).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '../../core/wait-for';
import { type ServedRequest, type StaticServer, startStaticServer } from './static-server';

export const LIVE_SEGMENT_S = 2;

export interface LiveSource {
  /** Master playlist URL. */
  url: string;
  pid: number;
  /** Kills ffmpeg (the source stops sending; its files stay served). */
  kill(): void;
  /** Kills ffmpeg, stops the server, removes the folder. */
  close(): Promise<void>;
  /** Requests the source answered so far (a segment it deleted answers 404). */
  requests(): readonly ServedRequest[];
}

export interface LiveSourceOptions {
  /** Video-only rungs and an English audio rendition (EXT-X-MEDIA TYPE=AUDIO) instead of muxed audio. */
  demuxedAudio?: boolean;
  /** fMP4 segments and ffmpeg's usual live window: 6 segments, each deleted as soon as it left it. */
  cmaf?: boolean;
  /** One file per rendition, each segment a byte range of it. */
  singleFile?: boolean;
  /** Segments encrypted with AES-128 (the key at `key.bin` next to the playlists). */
  aes128?: boolean;
  /** Segment length (whole seconds, a multiple of the 2 s GOP); LIVE_SEGMENT_S by default. */
  segmentS?: number;
}

/** The outputs: 2 rungs with muxed audio, or 2 video-only rungs and one audio rendition. */
const streams = (demuxed: boolean) =>
  demuxed
    ? {
        split: '[1:a]anull[a0]',
        maps: ['-map', '[v0]', '-map', '[v1]', '-map', '[a0]'],
        varStreamMap: 'v:0,agroup:aud v:1,agroup:aud a:0,agroup:aud,language:en,name:English',
      }
    : {
        split: '[1:a]asplit=2[a0][a1]',
        maps: ['-map', '[v0]', '-map', '[a0]', '-map', '[v1]', '-map', '[a1]'],
        varStreamMap: 'v:0,a:0 v:1,a:1',
      };

export async function startLiveSource(options: LiveSourceOptions = {}): Promise<LiveSource> {
  const dir = await mkdtemp(path.join(tmpdir(), 'onair-live-'));
  const out = streams(options.demuxedAudio ?? false);
  const ext = options.cmaf ? 'm4s' : 'ts';
  const keyInfo = `${dir}.keyinfo`;
  if (options.aes128) {
    await writeFile(path.join(dir, 'key.bin'), randomBytes(16));
    await writeFile(keyInfo, `key.bin\n${path.join(dir, 'key.bin')}\n`);
  }
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-re'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=48000'],
    ...['-filter_complex', `[0:v]split=2[a][b];[a]scale=320:180[v0];[b]copy[v1];${out.split}`],
    ...out.maps,
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ...['-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-b:v:0', '300k', '-b:v:1', '800k'],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '2'],
    // ffmpeg's single_file keeps EXT-X-MEDIA-SEQUENCE at 0 while its window slides (no new segment as
    // far as a client can tell): its playlist lists every segment instead.
    ...['-f', 'hls', '-hls_time', String(options.segmentS ?? LIVE_SEGMENT_S)],
    ...['-hls_list_size', options.singleFile ? '0' : options.cmaf ? '6' : '8'],
    ...[
      '-hls_flags',
      `${options.singleFile ? 'single_file' : 'delete_segments+temp_file'}+independent_segments`,
    ],
    ...(options.aes128 ? ['-hls_key_info_file', keyInfo] : []),
    // Deleted only 80 s after they leave the playlist: a player that falls far behind the channel's
    // live edge still finds them. A CMAF source keeps ffmpeg's default: one segment after.
    ...(options.cmaf
      ? ['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init_%v.mp4']
      : ['-hls_delete_threshold', '40']),
    ...(options.singleFile ? [] : ['-hls_segment_filename', path.join(dir, `v%v_%d.${ext}`)]),
    ...['-master_pl_name', 'master.m3u8'],
    ...['-var_stream_map', out.varStreamMap, path.join(dir, 'v%v.m3u8')],
  ];
  const ffmpeg: ChildProcess = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const server: StaticServer = await startStaticServer(dir);
  const pid = ffmpeg.pid!;
  let killed = false;
  const kill = () => {
    if (killed || ffmpeg.exitCode !== null) return;
    killed = true;
    process.kill(pid, 'SIGKILL');
  };
  // Ready once both rungs list a few segments (a source a channel can join).
  const listed = (name: string) => {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8').split('#EXTINF').length - 1 : 0;
  };
  const close = async () => {
    kill();
    await server.close();
    await rm(dir, { recursive: true, force: true });
    await rm(keyInfo, { force: true });
  };
  try {
    await waitFor(
      async () => existsSync(path.join(dir, 'master.m3u8')) && listed('v1.m3u8') >= 4,
      (ready) => ready,
      { timeoutMs: 30_000, what: 'the live source' },
    );
  } catch (err) {
    // No caller holds the source yet to close it: an ffmpeg left running would encode until killed.
    await close();
    throw err;
  }
  return { url: `${server.url}/master.m3u8`, pid, kill, requests: () => server.requests(), close };
}
