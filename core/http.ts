/**
 * The HTTP edge shared by every Lambda API: API Gateway HTTP API (payload v2) events in, structured
 * results out. A service is a list of routes; `createApiHandler` matches one, parses the body once
 * (bounded, JSON only) and turns any thrown HttpError into the one error shape (and a store that cannot
 * be reached into a retryable 503, store-errors.ts). Route tables are plain
 * data so the CDK stack and the local gateway declare exactly the same routes.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { badRequest, HttpError, notFound, payloadTooLarge } from './errors';
import { logger } from './logger';
import type { RouteDoc } from './openapi';
import { isStoreUnavailable, storeUnavailable } from './store-errors';
import { CONTROL_CHARACTERS } from './validation';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface ApiRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body; undefined when the request has none. */
  body: unknown;
  sourceIp: string;
  /** host:port the request was addressed to (the Host header). */
  host: string;
  requestId: string;
}

export interface ApiResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Set for non-JSON bodies (CSV, SVG...): sent as is. */
  rawBody?: string;
}

export interface Route {
  method: Method;
  /** Path template: `/channel/{id}`. A trailing slash is significant. */
  path: string;
  handler: (req: ApiRequest) => Promise<ApiResponse>;
  /** Stages the route exists in (default: all). */
  stages?: readonly string[];
  /** What it takes and answers, as zod schemas: the OpenAPI document is built from these (openapi.ts). */
  doc?: RouteDoc;
}

export interface ApiOptions {
  stage: string;
  /** Bodies above this are refused with 413 before parsing. */
  maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * CORS of every API, for the console's origin only (the origin list is configuration: the console's
 * CloudFront URL in AWS, its local server's under `npm start`). API Gateway answers preflights and adds
 * the headers in AWS (lib/http-api.ts); local/gateway.ts does the same with these values.
 */
export const API_CORS = {
  allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
  allowHeaders: ['content-type', 'x-jwt'],
  exposeHeaders: ['link', 'x-next-cursor', 'location', 'retry-after'],
  maxAgeSeconds: 600,
} as const;

export const json = (status: number, body?: unknown, headers?: Record<string, string>): ApiResponse => ({
  status,
  body,
  headers,
});

/** No id in any of our APIs is longer; a longer path segment is refused before it reaches a store. */
export const MAX_PATH_PARAM_LENGTH = 256;

/**
 * The one place a path parameter is decoded: malformed percent-encoding, control characters and
 * over-long values are the caller's fault (400 naming the parameter), never a 500 from deeper down.
 */
export function decodePathParam(name: string, raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw badRequest(`path parameter ${name} is not valid percent-encoding`, name);
  }
  if (value.length > MAX_PATH_PARAM_LENGTH)
    throw badRequest(`path parameter ${name} is longer than ${MAX_PATH_PARAM_LENGTH} characters`, name);
  if (CONTROL_CHARACTERS.test(value))
    throw badRequest(`path parameter ${name} contains control characters`, name);
  return value;
}

/** The parameters of `path` under `template`, or undefined when it does not match (throws 400 on a bad parameter). */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const raw: [string, string][] = [];
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      raw.push([w.slice(1, -1), g]);
    } else if (w !== g) return undefined;
  }
  // Decoded only once the literal segments matched, so a bad parameter never hides a 404.
  return Object.fromEntries(raw.map(([name, value]) => [name, decodePathParam(name, value)]));
}

/** An HttpError as a response; `details.retryAfterSeconds` becomes the Retry-After header. */
function httpErrorResponse(err: HttpError): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const retry = err.details.retryAfterSeconds;
  if (typeof retry === 'number') headers['retry-after'] = String(retry);
  return { statusCode: err.status, headers, body: JSON.stringify(err) };
}

export function toErrorResponse(err: unknown, requestId?: string): APIGatewayProxyStructuredResultV2 {
  if (err instanceof HttpError) return httpErrorResponse(err);
  if (isStoreUnavailable(err)) {
    logger.warn('store unavailable', { err, requestId });
    return httpErrorResponse(storeUnavailable());
  }
  logger.error('unhandled error', { err, requestId });
  return {
    statusCode: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'internal error', code: 'internal', requestId }),
  };
}

/** No request body of ours nests deeper; anything deeper is refused before JSON.parse recurses into it. */
export const MAX_JSON_DEPTH = 32;

/** True when the arrays/objects of JSON text nest deeper than `limit` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

function parseBody(event: APIGatewayProxyEventV2, maxBytes: number): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > maxBytes) throw payloadTooLarge(maxBytes);
  const type = (event.headers?.['content-type'] ?? 'application/json').toLowerCase();
  if (!type.includes('json')) throw new HttpError(415, 'unsupported_media_type', 'send application/json');
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw badRequest(`request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`, 'body');
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('request body is not valid JSON', 'body');
  }
}

function toResult(res: ApiResponse): APIGatewayProxyStructuredResultV2 {
  if (res.rawBody !== undefined) return { statusCode: res.status, headers: res.headers, body: res.rawBody };
  if (res.body === undefined) return { statusCode: res.status, headers: res.headers };
  return {
    statusCode: res.status,
    headers: { 'content-type': 'application/json', ...res.headers },
    body: JSON.stringify(res.body),
  };
}

/** 405 with the `Allow` header RFC 9110 requires: the methods the path does answer. */
function methodNotAllowed(
  method: string,
  path: string,
  allowed: string[],
): APIGatewayProxyStructuredResultV2 {
  const err = new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
  const response = httpErrorResponse(err);
  return { ...response, headers: { ...response.headers, allow: [...new Set(allowed)].join(', ') } };
}

export function routesFor(routes: readonly Route[], stage: string): Route[] {
  return routes.filter((r) => !r.stages || r.stages.includes(stage));
}

export function createApiHandler(routes: readonly Route[], options: ApiOptions) {
  const active = routesFor(routes, options.stage);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const dispatch = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const method = event.requestContext.http.method.toUpperCase();
    const path = event.rawPath;
    const allowed: string[] = [];
    for (const route of active) {
      const params = matchPath(route.path, path);
      if (!params) continue;
      allowed.push(route.method);
      if (route.method !== method) continue;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(event.headers ?? {}))
        if (v !== undefined) headers[k.toLowerCase()] = v;
      const req: ApiRequest = {
        method,
        path,
        params,
        query: Object.fromEntries(
          Object.entries(event.queryStringParameters ?? {}).filter(
            (e): e is [string, string] => e[1] !== undefined,
          ),
        ),
        headers,
        body: parseBody(event, maxBodyBytes),
        sourceIp: event.requestContext.http.sourceIp,
        host: headers.host ?? event.requestContext.domainName,
        requestId: event.requestContext.requestId,
      };
      return toResult(await route.handler(req));
    }
    if (allowed.length) return methodNotAllowed(method, path, allowed);
    throw notFound(`no route for ${method} ${path}`);
  };

  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(dispatch).use({
    onError: async (request) => {
      request.response = toErrorResponse(request.error, request.event?.requestContext?.requestId);
    },
  });
}

export type ApiHandler = ReturnType<typeof createApiHandler>;
