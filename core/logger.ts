/**
 * The one logger: JSON lines on stdout (CloudWatch Logs parses them; locally they stay greppable).
 * Level from LOG_LEVEL (debug | info | warn | error), default info. `LOG_LEVEL=silent` mutes it (tests).
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

function threshold(): number {
  const name = (process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level | 'silent';
  return order[name] ?? order.info;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(bindings: Record<string, unknown> = {}): Logger {
  const write = (level: Level, msg: string, fields: Record<string, unknown> = {}): void => {
    if (order[level] < threshold()) return;
    const line: Record<string, unknown> = { level, time: new Date().toISOString(), msg, ...bindings };
    for (const [k, v] of Object.entries(fields)) line[k] = serialise(v);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (more) => createLogger({ ...bindings, ...more }),
  };
}

export const logger = createLogger();
