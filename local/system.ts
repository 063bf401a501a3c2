/**
 * The whole of onair on one machine: the local cloud, each service's Lambda handler behind a local
 * gateway, the engine, and the background workers. `npm start` and the end-to-end tests both run this,
 * so what the tests exercise is what a user runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { logger } from '../core/logger';
import type { OnairEngine } from '../engine-container/host/onair-engine';
import { type SharedDynamoDb, startLocalCloud } from './cloud';
import { type ConsoleServer, startConsoleServer } from './console-server';
import { startGateway, type V2Handler } from './gateway';
import { startOnPort } from './ports';

const STATIC_DIR = resolve(import.meta.dirname, '../engine-container/static');
/**
 * The environment `npm start` was launched with, read once: a variable set there wins over onair's
 * local default (docs/configuration.md: options.env > launch environment > local defaults; the
 * endpoints of the local cloud always win, as it is the one running).
 */
const launchEnv: Readonly<Record<string, string | undefined>> = { ...process.env };

/** The local defaults, less whatever the launch environment sets itself. */
export function localDefaults(
  defaults: Record<string, string>,
  launch: Readonly<Record<string, string | undefined>> = launchEnv,
): Record<string, string> {
  return Object.fromEntries(Object.entries(defaults).filter(([name]) => launch[name] === undefined));
}

/** Where playback URLs point when no engine runs: port 0 is never served. */
const NO_ENGINE_URL = 'http://localhost:0';

export interface SystemOptions {
  /** Keep data in this folder (DynamoDB files, the signing key); omitted = a throwaway in-memory run. */
  dataDir?: string;
  /** 0 = any free port (each server reports the one it got, in `urls`). */
  ports: { channel: number; schedule: number; autoabr: number; engine: number; console?: number };
  /** Ports of the local cloud (DynamoDB Local, fauxqs for S3 and SQS); omitted or 0 = free ports. */
  cloudPorts?: { dynamodb?: number; fauxqs?: number };
  /** A DynamoDB Local already running to keep this system's tables in (local/cloud.ts); tests share one. */
  sharedDynamoDb?: SharedDynamoDb;
  /** Host the servers bind to. */
  host?: string;
  /** Which services to run (default: all). Tests of one service start only that one. */
  services?: readonly ServiceName[];
  /** Extra environment for the services (wins over the defaults below, loses to the cloud's endpoints). */
  env?: Record<string, string>;
}

export interface RunningSystem {
  urls: Record<string, string>;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const serviceNames = ['channel', 'schedule', 'autoabr', 'engine', 'console'] as const;
export type ServiceName = (typeof serviceNames)[number];

type Stoppable = { stop(): Promise<void> } | { close(): Promise<void> };

export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  const cloud = await startLocalCloud({
    dataDir: dataDir && join(dataDir, 'dynamodb'),
    ports: options.cloudPorts,
    sharedDynamoDb: options.sharedDynamoDb,
  });
  const running: Stoppable[] = [cloud];
  const stop = async () => {
    for (const part of running.reverse()) {
      await ('stop' in part ? part.stop() : part.close()).catch((err) =>
        logger.error('stop failed', { err }),
      );
    }
  };
  const wanted = new Set(options.services ?? serviceNames);
  const host = options.host ?? '127.0.0.1';
  const keyDir = dataDir ?? mkdtempSync(join(tmpdir(), 'onair-'));
  const env: Record<string, string> = {};
  const configured = new Set<string>();
  // Handlers read their configuration from the environment when created: set it before each one.
  const setEnv = (more: Record<string, string>) => {
    for (const name of Object.keys(more)) configured.add(name);
    Object.assign(env, localDefaults(more));
    Object.assign(process.env, env, options.env, cloud.env);
  };
  const urls: Record<string, string> = {};
  // The console first: its origin is the one the APIs allow (CORS), and it reads `urls` when asked.
  const consoleServer = wanted.has('console')
    ? await startConsole(urls, options.ports.console ?? 0, host)
    : undefined;
  if (consoleServer) running.push(consoleServer);
  const corsOrigins = [
    ...(consoleServer ? [consoleServer.origin] : []),
    ...(process.env.CONSOLE_ORIGINS ?? '').split(',').filter(Boolean),
  ];
  const serve = async (name: Exclude<ServiceName, 'console'>, load: () => Promise<V2Handler>) => {
    const gw = await startGateway(name, await load(), options.ports[name], host, corsOrigins);
    running.push(gw);
    // `localhost`, not the bound address: the schedule service's tenant is the host a caller uses.
    urls[name] = `http://localhost:${gw.port}`;
  };
  try {
    setEnv({
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ONAIR_STAGE: 'test',
      JWT_KEY_FILE: join(keyDir, 'keys', 'jwt-es256.jwk.json'),
      ENGINE_STATIC_DIR: STATIC_DIR,
      // Local media, feeds and webhooks live on localhost: the one place private URLs are fetched.
      ALLOW_PRIVATE_URLS: 'true',
    });
    // Services point at each other by URL, known once each listens. The schedule API comes first (the
    // engine reads channels from it), the engine next (its URL is the playback URL the channel API
    // hands out), the channel API last.
    if (wanted.has('schedule')) {
      await serve('schedule', async () => (await import('../functions/schedule/handler')).handler);
      urls.schedule = `${urls.schedule}/api/v1`;
      setEnv({ SCHEDULE_SERVICE_API_URL: urls.schedule });
      const { startScheduler } = await import('../functions/schedule/scheduler/start-scheduler');
      running.push(startScheduler());
    }
    if (wanted.has('autoabr')) {
      await serve('autoabr', async () => (await import('../functions/autoabr/entry/api-handler')).handler);
      const { startAutoabrDispatcher } = await import('../functions/autoabr/entry/local-dispatcher');
      running.push(startAutoabrDispatcher());
    }
    setEnv(playbackEnv(NO_ENGINE_URL));
    if (wanted.has('engine')) {
      const engine = await startEngine(options.ports.engine, host, (url) => setEnv(playbackEnv(url)));
      running.push(engine);
      urls.engine = `http://localhost:${engine.engine.port}`;
      const { startFleetDispatcher } = await import('../functions/fleet/local');
      running.push(startFleetDispatcher());
    }
    if (wanted.has('channel')) {
      await serve('channel', async () =>
        (await import('../functions/channel/handler')).createChannelHandler(),
      );
    }
    if (consoleServer) urls.console = consoleServer.url;
    urls.dynamodb = cloud.endpoints.dynamodb;
    urls['s3+sqs'] = cloud.endpoints.s3;
    // What the services run with: a default, or what the launch environment set instead.
    const effective: Record<string, string> = {};
    for (const name of configured) if (process.env[name] !== undefined) effective[name] = process.env[name]!;
    return { urls, env: { ...effective, ...options.env, ...cloud.env }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The console, built into a temporary folder, and its config.json from the services' URLs. */
async function startConsole(
  urls: Record<string, string>,
  port: number,
  host: string,
): Promise<ConsoleServer> {
  const { buildConsole } = await import('../console/build');
  const dir = buildConsole(mkdtempSync(join(tmpdir(), 'onair-console-')));
  return startConsoleServer(
    dir,
    () => ({
      channelApi: urls.channel ?? '',
      scheduleApi: urls.schedule ?? '',
      autoabrApi: urls.autoabr ?? '',
      playback: urls.engine ?? '',
      stage: process.env.ONAIR_STAGE ?? 'test',
    }),
    port,
    host,
  );
}

function playbackEnv(playback: string): Record<string, string> {
  return { PLAYBACK_BASE_URL: playback, ENGINE_SLATE_URI: `${playback}/slate/master.m3u8` };
}

/**
 * The engine plays its slate from its own URL, which is part of its configuration: it cannot listen on
 * port 0 and learn its URL afterwards, so a free port is found by retrying on a collision.
 */
async function startEngine(
  port: number,
  host: string,
  setPlayback: (url: string) => void,
): Promise<OnairEngine> {
  const { createOnairEngine } = await import('../engine-container/host/onair-engine');
  return startOnPort(port, async (candidate) => {
    setPlayback(`http://localhost:${candidate}`);
    const engine = createOnairEngine({ port: candidate, host });
    try {
      await engine.start();
      return engine;
    } catch (err) {
      await engine.stop();
      throw err;
    }
  });
}
