/**
 * The engine's record of the 5xx it answers, bounded. Every 5xx is what a viewer sees as a stall, so
 * each kind is logged; but the routes are public, and a player retrying a starting channel (or anyone
 * with curl) can make thousands a second. So each kind (status, code, path) is logged once per window,
 * and its next line says how many were answered in between (`repeated`).
 */
import type { Logger } from '../../../core/logger';

export interface AnsweredError {
  method: string;
  path: string;
  status: number;
  code: string;
  /** The failure itself, for an unexpected 500 (logged with its stack). */
  err?: unknown;
}

export interface ErrorLogOptions {
  /** How long one kind of answer is logged once (ms). */
  windowMs: number;
  /** How many kinds are tracked at once; past it the oldest window is forgotten (paths are the caller's). */
  maxKinds: number;
  now: () => number;
}

const DEFAULTS: ErrorLogOptions = { windowMs: 60_000, maxKinds: 1000, now: Date.now };

interface Window {
  startedAt: number;
  repeated: number;
}

export class ErrorLog {
  private readonly windows = new Map<string, Window>();
  private readonly options: ErrorLogOptions;

  constructor(
    private readonly log: Logger,
    options: Partial<ErrorLogOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  answered(answer: AnsweredError): void {
    const key = `${answer.status} ${answer.code} ${answer.path}`;
    const now = this.options.now();
    const open = this.windows.get(key);
    if (open && now - open.startedAt < this.options.windowMs) {
      open.repeated += 1;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= this.options.maxKinds) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    this.windows.set(key, { startedAt: now, repeated: 0 });
    const fields = { ...answer, ...(open?.repeated ? { repeated: open.repeated } : {}) };
    if (answer.status === 500 && answer.err !== undefined) this.log.error('answered 5xx', fields);
    else this.log.warn('answered 5xx', fields);
  }
}
