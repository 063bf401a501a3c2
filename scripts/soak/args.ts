/** `npm run soak -- <playback URL> --minutes N [--pid P]`: the soak's arguments, checked. Pure. */
import { parseArgs } from 'node:util';

export interface SoakArgs {
  /** The channel's master playlist (or any HLS URL hls.js plays). */
  url: string;
  minutes: number;
  /** The server's process, for its memory; else found from a loopback URL's port (server-memory.ts). */
  pid?: number;
  /** Chromium under the real-time scheduler, so a busy machine does not slow the player (realtime-player.ts). */
  realtimePlayer?: boolean;
}

export class SoakUsageError extends Error {
  override name = 'SoakUsageError';
}

export const SOAK_USAGE =
  'usage: npm run soak -- <playback URL> --minutes N [--pid <server pid>] [--realtime-player]';

export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    throw new SoakUsageError(`${(e as Error).message}\n${SOAK_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new SoakUsageError(`one playback URL expected\n${SOAK_USAGE}`);
  const url = positionals[0]!;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new SoakUsageError(`not a URL: ${url}`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new SoakUsageError(`not an http(s) URL: ${url}`);
  const minutes = Number(values.minutes);
  if (values.minutes === undefined || !Number.isInteger(minutes) || minutes < 1)
    throw new SoakUsageError(`--minutes must be a whole number of minutes, 1 or more\n${SOAK_USAGE}`);
  const pid = values.pid === undefined ? undefined : Number(values.pid);
  if (pid !== undefined && (!Number.isInteger(pid) || pid < 1))
    throw new SoakUsageError(`--pid must be a process id`);
  return {
    url,
    minutes,
    ...(pid ? { pid } : {}),
    ...(values['realtime-player'] ? { realtimePlayer: true } : {}),
  };
}

const parse = (argv: readonly string[]) =>
  parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      minutes: { type: 'string' },
      pid: { type: 'string' },
      'realtime-player': { type: 'boolean' },
    },
  });
