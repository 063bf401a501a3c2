/**
 * Pages of a list over HTTP, the same on every list route: `?limit=` (a documented default and
 * maximum per route) and `?cursor=`, an opaque token that is the base64url JSON of the DynamoDB key to
 * continue after. The body stays the plain array it always was; when more may follow, the response
 * names the next page in `Link: <...>; rel="next"` and its cursor in `x-next-cursor`. A cursor is
 * checked against the exact key shape of the list it claims to continue (the store's schema, which
 * pins the caller's partition), so a forged or garbled one is a 400, never a key DynamoDB refuses or a
 * window into another tenant's partition.
 */
import type { z } from 'zod';
import { badRequest } from './errors';
import { type ApiRequest, type ApiResponse, json } from './http';

/** A DynamoDB key as the document client reads it. */
export type PageKey = Record<string, string | number>;

export interface PageRequest<K = PageKey> {
  limit: number;
  /** Continue after this key; absent for the first page. */
  after?: K;
}

export interface Page<T> {
  items: T[];
  /** The key to continue after; absent when the list is known to be complete. */
  next?: PageKey;
}

export interface PageLimits {
  defaultLimit: number;
  maxLimit: number;
}

/** Every cursor we issue is far shorter: a longer one was not issued by us. */
export const MAX_CURSOR_LENGTH = 2048;

export const encodeCursor = (key: PageKey): string => Buffer.from(JSON.stringify(key)).toString('base64url');

function decodeCursor<K>(text: string, schema: z.ZodType<K>): K {
  const refused = badRequest('cursor is not one this API issued for this list', 'cursor');
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw refused;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refused;
  return parsed.data;
}

function parseLimit(raw: string | undefined, { defaultLimit, maxLimit }: PageLimits): number {
  if (raw === undefined) return defaultLimit;
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= maxLimit))
    throw badRequest(`limit must be a whole number from 1 to ${maxLimit}`, 'limit');
  return n;
}

/** The page a request asks for; `keySchema` is the shape of the list's keys (from its store). */
export function readPage<K>(
  query: Record<string, string>,
  limits: PageLimits,
  keySchema: z.ZodType<K>,
): PageRequest<K> {
  const limit = parseLimit(query.limit, limits);
  return query.cursor === undefined ? { limit } : { limit, after: decodeCursor(query.cursor, keySchema) };
}

/**
 * The headers naming the next page (`Link` and `x-next-cursor`), none when there is none: for a list
 * whose body is not the plain array (an object holding the page, a CSV table).
 */
export function nextPageHeaders(
  req: Pick<ApiRequest, 'path' | 'query'>,
  next?: PageKey,
): Record<string, string> | undefined {
  if (!next) return undefined;
  const cursor = encodeCursor(next);
  const query = new URLSearchParams({ ...req.query, cursor });
  return { link: `<${req.path}?${query}>; rel="next"`, 'x-next-cursor': cursor };
}

/** 200 with the items; the next page, when there may be one, in `Link` and `x-next-cursor`. */
export function pageResponse(
  req: Pick<ApiRequest, 'path' | 'query'>,
  items: unknown[],
  next?: PageKey,
): ApiResponse {
  return json(200, items, nextPageHeaders(req, next));
}
