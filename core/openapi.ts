/**
 * OpenAPI 3.1 documents built from the route tables: each route declares, next to its handler, the zod
 * schemas its handler validates with (`doc`), and `openApiDocument` walks the table. A new route is in
 * the document as soon as it is in the table; a route without `doc` is still listed (with a generic
 * answer), so the document can never miss one. Examples in `doc.example` go into the document: a test
 * sends each one to the running API (test/openapi/).
 */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { readString } from './env';
import { type ApiResponse, json, type Route, routesFor } from './http';

// The generator reads its metadata through `.openapi()` on every schema (zod's prototype, so schemas
// made before this line have it too); none of our schemas call it themselves.
extendZodWithOpenApi(z);

export interface ResponseDoc {
  description: string;
  /** The body's schema; absent for a body-less answer (204, 308). */
  schema?: z.ZodTypeAny;
  /** Default application/json. */
  contentType?: string;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  /** Groups operations in the reference (default: the first path segment). */
  tag?: string;
  /** Path parameters: name -> schema (the one the handler checks with). */
  params?: Record<string, z.ZodTypeAny>;
  /** Query parameters, each optional unless its schema says otherwise. */
  query?: Record<string, z.ZodTypeAny>;
  body?: z.ZodTypeAny;
  responses: Record<number, ResponseDoc>;
  /** `token` (default): `x-jwt: Bearer <token>` where the deployment requires it; `none`: public. */
  auth?: 'token' | 'none';
  /** A request that validates: the test sends it (path parameters, query, body). */
  example?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
}

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** Every error of every API (core/errors.ts): a message, a machine code, the field at fault. */
export const errorSchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
  requestId: z.string().optional(),
});

const ERROR_STATUSES: Record<number, string> = {
  400: 'invalid request (the field is named)',
  401: 'no or invalid token',
  403: 'the token may not do this',
  404: 'not found',
  503: 'a store is unreachable: retry after Retry-After',
};

export const OPENAPI_PATH = '/openapi.json';

const tagOf = (route: Route): string =>
  route.doc?.tag ?? route.path.split('/').filter(Boolean)[0] ?? 'service';

function register(registry: OpenAPIRegistry, route: Route, error: z.ZodTypeAny): void {
  const doc: RouteDoc = route.doc ?? {
    summary: `${route.method} ${route.path}`,
    responses: { 200: { description: 'OK', schema: z.unknown() } },
  };
  const responses: Record<
    string,
    { description: string; content?: Record<string, { schema: z.ZodTypeAny }> }
  > = {};
  for (const [status, r] of Object.entries(doc.responses)) {
    // An error a route names answers the one error shape unless it says otherwise.
    const schema = r.schema ?? (Number(status) >= 400 ? error : undefined);
    responses[status] = schema
      ? {
          description: r.description,
          content: { [r.contentType ?? 'application/json']: { schema } },
        }
      : { description: r.description };
  }
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    if (status === '401' || status === '403') if (doc.auth === 'none') continue;
    responses[status] ??= { description, content: { 'application/json': { schema: error } } };
  }
  const query = doc.query
    ? z.object(Object.fromEntries(Object.entries(doc.query).map(([k, s]) => [k, s.optional()])))
    : undefined;
  registry.registerPath({
    method: route.method.toLowerCase() as 'get',
    path: route.path,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? '').toUpperCase())}`,
    summary: doc.summary,
    description: doc.description,
    tags: [tagOf(route)],
    security: doc.auth === 'none' ? [] : [{ token: [] }],
    request: {
      params: doc.params ? z.object(doc.params) : undefined,
      query,
      body: doc.body
        ? {
            required: true,
            content: { 'application/json': { schema: doc.body, example: doc.example?.body } },
          }
        : undefined,
    },
    responses,
  });
}

/** The OpenAPI 3.1 document of a route table in a stage (routes of other stages left out). */
export function openApiDocument(info: ApiInfo, routes: readonly Route[], stage: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'token', {
    type: 'apiKey',
    in: 'header',
    name: 'x-jwt',
    description: '`Bearer <token>`: a token from POST /token (test stage) or `npm run token`',
  });
  const error = registry.register('Error', errorSchema);
  for (const route of routesFor(routes, stage)) register(registry, route, error);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { ...info },
  });
  // Path parameter examples are written after generation: the generator takes them only as zod metadata.
  for (const route of routesFor(routes, stage)) {
    const example = route.doc?.example?.params;
    const op = document.paths?.[route.path]?.[route.method.toLowerCase() as 'get'];
    if (!example || !op) continue;
    for (const p of op.parameters ?? [])
      if ('in' in p && p.in === 'path' && example[p.name] !== undefined) p.example = example[p.name];
  }
  return document;
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

/**
 * The table plus `GET /openapi.json`, which serves the document of the table it was added to. The
 * document is built on the first request (and kept): route tables are data, so this needs no store.
 */
export function withOpenApi(info: ApiInfo, routes: Route[], stage?: string): Route[] {
  const cache = new Map<string, OpenApiDocument>();
  const serve = async (): Promise<ApiResponse> => {
    // The stage the handler runs in (routes of other stages are not served, so not documented).
    const key = stage ?? readString('ONAIR_STAGE', 'test');
    if (!cache.has(key)) cache.set(key, openApiDocument(info, all, key));
    return json(200, cache.get(key), { 'cache-control': 'public, max-age=300' });
  };
  const all: Route[] = [
    ...routes,
    {
      method: 'GET',
      path: OPENAPI_PATH,
      handler: serve,
      doc: {
        summary: 'This OpenAPI document',
        tag: 'meta',
        auth: 'none',
        responses: { 200: { description: 'OpenAPI 3.1', schema: z.object({ openapi: z.string() }) } },
      },
    },
  ];
  return all;
}
