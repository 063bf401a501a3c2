/** `npm run soak:mixed -- --minutes N [--channel-api URL]`: the mixed soak's arguments, checked. Pure. */
import { parseArgs } from 'node:util';
import { SoakUsageError } from '../args';

export interface MixedSoakArgs {
  minutes: number;
  /** A running system's channel API (`npm start`'s is http://localhost:8080); absent: start one. */
  channelApi?: string;
  /** As `npm run soak`'s `--realtime-player`. */
  realtimePlayer?: boolean;
}

export const MIXED_USAGE =
  'usage: npm run soak:mixed -- --minutes N [--channel-api <URL of a running channel API>] [--realtime-player]';

export function parseMixedArgs(argv: readonly string[]): MixedSoakArgs {
  let values: { minutes?: string; 'channel-api'?: string; 'realtime-player'?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        minutes: { type: 'string' },
        'channel-api': { type: 'string' },
        'realtime-player': { type: 'boolean' },
      },
    }));
  } catch (e) {
    throw new SoakUsageError(`${(e as Error).message}\n${MIXED_USAGE}`);
  }
  const minutes = Number(values.minutes);
  if (values.minutes === undefined || !Number.isInteger(minutes) || minutes < 1)
    throw new SoakUsageError(`--minutes must be a whole number of minutes, 1 or more\n${MIXED_USAGE}`);
  const api = values['channel-api'];
  if (api !== undefined && !/^https?:\/\/[^/]+/.test(api))
    throw new SoakUsageError(`--channel-api must be an http(s) URL\n${MIXED_USAGE}`);
  return {
    minutes,
    ...(api ? { channelApi: api.replace(/\/+$/, '') } : {}),
    ...(values['realtime-player'] ? { realtimePlayer: true } : {}),
  };
}
