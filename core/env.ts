/**
 * Typed environment readers that fail fast. Precedence, everywhere in onair:
 * an explicit option passed in code > the process environment (which `.env` fills, never overriding)
 * > the documented default. A set-but-invalid value is an error at start, never silently defaulted.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function raw(name: string, env: Env): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readString(name: string, fallback?: string, env: Env = process.env): string {
  const value = raw(name, env) ?? fallback;
  if (value === undefined) throw new ConfigError(`environment variable ${name} is required`);
  return value;
}

export function readOptionalString(name: string, env: Env = process.env): string | undefined {
  return raw(name, env);
}

export function readInt(
  name: string,
  fallback: number,
  { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {},
  env: Env = process.env,
): number {
  const value = raw(name, env);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(
      `environment variable ${name} must be an integer in [${min}, ${max}], got "${value}"`,
    );
  }
  return n;
}

export function readBool(name: string, fallback: boolean, env: Env = process.env): boolean {
  const value = raw(name, env)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(`environment variable ${name} must be true or false, got "${value}"`);
}

export function readEnum<T extends string>(
  name: string,
  allowed: readonly T[],
  fallback: T,
  env: Env = process.env,
): T {
  const value = raw(name, env);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(
      `environment variable ${name} must be one of ${allowed.join(', ')}, got "${value}"`,
    );
  }
  return value as T;
}

export function readUrl(name: string, fallback?: string, env: Env = process.env): string {
  const value = readString(name, fallback, env);
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`environment variable ${name} must be a URL, got "${value}"`);
  }
}
