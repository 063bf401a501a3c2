/**
 * A local stand-in for API Gateway HTTP API: each node:http request becomes a payload-v2 event for the
 * very handler Lambda runs, and the structured result becomes the response. Like API Gateway, it refuses
 * bodies over 10 MB itself and answers 500 when the handler throws or returns garbage.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { API_CORS } from '../core/http';
import { logger } from '../core/logger';

export type V2Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

const API_GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/**
 * How long an idle client connection stays open. Node closes one after 5 s, while a client may be
 * sending on it (fetch keeps one about 4 s, later when its process is busy): that request then fails
 * with ECONNRESET (a CI run's POST /token). A managed gateway keeps idle connections far longer.
 */
export const GATEWAY_KEEP_ALIVE_MS = 65_000;

/** Keeps a server's idle connections GATEWAY_KEEP_ALIVE_MS: this gateway, and the test servers clients reuse connections to. */
export function keepIdleConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = GATEWAY_KEEP_ALIVE_MS;
  return server;
}

export interface Gateway {
  url: string;
  port: number;
  close(): Promise<void>;
}

const TEXT_TYPES = /json|text|xml|javascript|x-www-form-urlencoded/;

export function toEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined && k !== 'cookie') headers[k] = Array.isArray(v) ? v.join(',') : v;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host?.split(':')[0] ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/** The Context a handler gets: also used by the rehearsal to invoke scheduled and queue-driven functions. */
export function lambdaContext(name: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * API Gateway's CORS, as configured by lib/http-api.ts: a preflight from an allowed origin is answered
 * here (204), any other request from it gets the allow and expose headers on its response. Other
 * origins get no CORS headers at all, so a browser refuses them the response.
 */
function corsHeaders(req: IncomingMessage, origins: readonly string[]): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !origins.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': API_CORS.exposeHeaders.join(','),
    vary: 'origin',
  };
}

const isPreflight = (req: IncomingMessage) =>
  req.method === 'OPTIONS' &&
  req.headers.origin !== undefined &&
  !!req.headers['access-control-request-method'];

export function startGateway(
  name: string,
  handler: V2Handler,
  port: number,
  host = '127.0.0.1',
  corsOrigins: readonly string[] = [],
): Promise<Gateway> {
  const server: Server = createServer(async (req, res) => {
    const cors = corsHeaders(req, corsOrigins);
    if (isPreflight(req)) {
      const allow = cors['access-control-allow-origin']
        ? {
            ...cors,
            'access-control-allow-methods': API_CORS.allowMethods.join(','),
            'access-control-allow-headers': API_CORS.allowHeaders.join(','),
            'access-control-max-age': String(API_CORS.maxAgeSeconds),
          }
        : {};
      res.writeHead(204, allow).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > API_GATEWAY_MAX_BODY) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const event = toEvent(req, Buffer.concat(chunks));
    try {
      const result = await handler(event, lambdaContext(name, event.requestContext.requestId));
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
      Object.assign(headers, cors);
      const body = result.body === undefined ? '' : result.body;
      res.writeHead(result.statusCode ?? 200, headers);
      res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
    } catch (err) {
      logger.error('handler failed', { service: name, err });
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    }
  });
  keepIdleConnections(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`,
        port: bound,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
