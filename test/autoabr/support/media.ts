/**
 * A tiny VMAF reference made here with the system ffmpeg: 2 s of testsrc2 at 640x360, 12 fps, H.264
 * crf 16 (few frames keep scoring quick on a shared 2-core machine). Cached in .cache/autoabr and
 * written atomically, so parallel suites can share it.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DIR = join(__dirname, '..', '..', '..', '.cache', 'autoabr');

export async function referenceClip(): Promise<string> {
  const path = join(DIR, 'reference-640x360-12fps-2s.mp4');
  try {
    await access(path);
    return path;
  } catch {
    await mkdir(DIR, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp.mp4`;
    await run('/usr/bin/ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=12:duration=2'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '16', '-pix_fmt', 'yuv420p', tmp],
    ]);
    await rename(tmp, path);
    return path;
  }
}
