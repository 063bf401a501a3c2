/**
 * A recording reverse proxy in front of the local cloud: one loopback port per AWS service (to give
 * the SDK as AWS_ENDPOINT_URL_<SERVICE>), every request forwarded unchanged (bodies streamed; only the
 * Host header names the target) and recorded as the IAM authorizations it needs, signed by whom.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AwsEnv, awsEnv } from './aws-env';
import { type AwsCall, type AwsService, ENDPOINT_VARIABLE } from './calls';
import { EXTRACTORS, needsBody } from './extract';
import { unreadable } from './extract/extracted';
import { principalOf, type RawRequest } from './extract/request';

export interface RecordingProxyOptions {
  /** The stand-in each service is forwarded to (`http://127.0.0.1:8000`). */
  targets: Partial<Record<AwsService, string>>;
  host?: string;
  /** Account and region put into the ARNs (the lookup's, so calls and policies agree). */
  env?: Partial<AwsEnv>;
}

export interface RecordingProxy {
  /** One loopback URL per service given a target. */
  endpoints: Partial<Record<AwsService, string>>;
  /** `AWS_ENDPOINT_URL_<SERVICE>` for each endpoint. */
  endpointEnv(): Record<string, string>;
  /** Every call recorded so far, in the order they were answered. */
  calls(): AwsCall[];
  close(): Promise<void>;
}

export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const host = options.host ?? '127.0.0.1';
  const env = awsEnv(options.env);
  const recorded: AwsCall[] = [];
  // A fresh loopback connection per forwarded request: a kept-alive one the stand-in closes while idle
  // would fail the next request it carries (ECONNRESET), a 502 the deployment never sees.
  const agent = new Agent({ keepAlive: false });
  const servers: Server[] = [];
  const endpoints: Partial<Record<AwsService, string>> = {};
  try {
    for (const [service, target] of Object.entries(options.targets) as [AwsService, string][]) {
      const server = createServer((req, res) => forward(service, new URL(target), req, res));
      // The SDK keeps its connections open without limit: closing them sooner than it reuses them
      // would race its next request. close() ends them.
      server.keepAliveTimeout = 10 * 60_000;
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, resolve);
      });
      endpoints[service] = `http://${host}:${(server.address() as AddressInfo).port}`;
    }
  } catch (err) {
    await closeAll(servers, agent);
    throw err;
  }

  function forward(service: AwsService, target: URL, req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const keepBody = needsBody(service, req.method ?? 'GET', url.searchParams);
    const chunks: Buffer[] = [];
    const bodyRead = new Promise<void>((resolve) => {
      req.on('end', resolve);
      req.on('close', resolve);
    });
    if (keepBody) req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const record = async (status: number) => {
      await bodyRead;
      const raw: RawRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      recorded.push(...toCalls(service, raw, env, status));
    };
    const upstream = httpRequest(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${target.pathname.replace(/\/$/, '')}${req.url ?? '/'}`,
        headers: withHost(req.rawHeaders, target.host),
        agent,
      },
      (answer) => {
        void record(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      void record(0);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`recording proxy: ${service} target ${target.origin} failed: ${err.message}`);
    });
    req.pipe(upstream);
  }

  return {
    endpoints,
    endpointEnv: () =>
      Object.fromEntries(
        (Object.entries(endpoints) as [AwsService, string][]).map(([s, url]) => [ENDPOINT_VARIABLE[s], url]),
      ),
    calls: () => [...recorded],
    close: () => closeAll(servers, agent),
  };
}

function toCalls(service: AwsService, raw: RawRequest, env: AwsEnv, status: number): AwsCall[] {
  const principal = principalOf(raw);
  let extracted: ReturnType<(typeof EXTRACTORS)[AwsService]>;
  try {
    extracted = EXTRACTORS[service](raw, env);
  } catch (err) {
    extracted = unreadable(service, (err as Error).message);
  }
  return extracted.authorizations.map((a) => ({
    principal,
    service,
    operation: extracted.operation,
    ...a,
    status,
  }));
}

/** The raw header list with Host replaced by the target's. */
function withHost(rawHeaders: string[], host: string): string[] {
  const headers: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() !== 'host') headers.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return ['Host', host, ...headers];
}

async function closeAll(servers: Server[], agent: Agent): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
  agent.destroy();
}
