/**
 * The console's way to the APIs: where they are (config.json, next to the console) and the user's
 * token (localStorage), sent as `x-jwt: Bearer <token>`. An API error becomes an ApiError carrying the
 * API's own message and field, so forms show what the API said.
 */
import type { ConsoleConfig } from './config';

export type { ConsoleConfig };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'onair.token';

export const getToken = (): string => localStorage.getItem(TOKEN_KEY) ?? '';
export const setToken = (token: string): void => {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
};

let config: ConsoleConfig | undefined;

export async function loadConfig(): Promise<ConsoleConfig> {
  config ??= (await (await fetch('config.json')).json()) as ConsoleConfig;
  return config;
}

export const cfg = (): ConsoleConfig => {
  if (!config) throw new Error('config not loaded');
  return config;
};

/** A request to `base + path` with the token; an API refusal becomes an ApiError. */
export async function request(
  base: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  const token = getToken();
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { 'x-jwt': `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw await refusal(res);
  return res;
}

async function refusal(res: Response): Promise<ApiError> {
  const text = await res.text();
  let err: { message?: string; field?: string } = {};
  try {
    err = (text ? JSON.parse(text) : {}) as typeof err;
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  return new ApiError(res.status, err.message ?? `${res.status} ${res.statusText}`, err.field);
}

/** A JSON request to `base + path`; the parsed body, undefined for 204. */
export async function call<T>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const res = await request(base, path, init);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
