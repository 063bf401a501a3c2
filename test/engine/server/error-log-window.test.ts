/**
 * The engine's 5xx log is bounded: each kind of answer (status, code, path) is logged once per window,
 * and its next line counts what was answered in between, so a public route cannot flood the logs.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../core/logger';
import { type AnsweredError, ErrorLog } from '../../../engine-container/src/server/error-log';

interface Line {
  level: 'warn' | 'error';
  fields: Record<string, unknown>;
}

function recordingLog(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const log = {
    warn: (_msg: string, fields: Record<string, unknown>) => lines.push({ level: 'warn', fields }),
    error: (_msg: string, fields: Record<string, unknown>) => lines.push({ level: 'error', fields }),
  } as unknown as Logger;
  return { log, lines };
}

const starting: AnsweredError = {
  method: 'GET',
  path: '/channels/news/master.m3u8',
  status: 503,
  code: 'channel_starting',
};

function errorLog(options: { windowMs?: number; maxKinds?: number } = {}) {
  const clock = { now: 0 };
  const { log, lines } = recordingLog();
  const errors = new ErrorLog(log, { windowMs: 60_000, maxKinds: 1000, ...options, now: () => clock.now });
  return { clock, lines, errors };
}

describe('the engine 5xx log', () => {
  it('logs the first answer of a kind at once', () => {
    const { lines, errors } = errorLog();
    errors.answered(starting);
    expect(lines).toEqual([{ level: 'warn', fields: starting }]);
  });

  it('logs a kind once per window however often it is answered', () => {
    const { clock, lines, errors } = errorLog();
    for (let i = 0; i < 5000; i++) {
      clock.now = i * 10;
      errors.answered(starting);
    }
    expect(lines).toHaveLength(1);
  });

  it('says on the next line how many answers of the kind it did not log', () => {
    const { clock, lines, errors } = errorLog();
    errors.answered(starting);
    errors.answered(starting);
    errors.answered(starting);
    clock.now = 60_000;
    errors.answered(starting);
    expect(lines.map((line) => line.fields.repeated)).toEqual([undefined, 2]);
  });

  it('logs each kind on its own: another path or code is not held back', () => {
    const { lines, errors } = errorLog();
    errors.answered(starting);
    errors.answered({ ...starting, path: '/channels/sport/master.m3u8' });
    errors.answered({ ...starting, status: 500, code: 'internal', err: new Error('bug') });
    expect(lines.map((line) => line.level)).toEqual(['warn', 'warn', 'error']);
  });

  it('tracks no more kinds than its limit, however many paths callers invent', () => {
    const { lines, errors } = errorLog({ maxKinds: 3 });
    for (let i = 0; i < 10; i++) errors.answered({ ...starting, path: `/channels/c${i}/master.m3u8` });
    errors.answered({ ...starting, path: '/channels/c0/master.m3u8' });
    expect(lines).toHaveLength(11);
    errors.answered({ ...starting, path: '/channels/c9/master.m3u8' });
    expect(lines).toHaveLength(11);
  });
});
