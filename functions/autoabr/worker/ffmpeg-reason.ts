import type { ProcessResult } from '../ports/ffmpeg-runner';

/** The last few meaningful lines of ffmpeg's stderr: enough to see why, short enough for DynamoDB. */
export function ffmpegReason(res: ProcessResult): string {
  const lines = res.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const tail = lines.slice(-3).join(' | ');
  const how = res.signal ? `signal ${res.signal}` : `exit code ${res.code}`;
  return `${how}${tail ? `: ${tail.slice(0, 600)}` : ''}`;
}
