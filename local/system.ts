/**
 * The whole of onair on one machine: the local cloud, each service's Lambda handler behind a local
 * gateway, the engine, and the background workers. `npm start` and the end-to-end tests both run this,
 * so what the tests exercise is what a user runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { logger } from '../core/logger';
import { startLocalCloud } from './cloud';
import { type Gateway, startGateway, type V2Handler } from './gateway';
import { freePort } from './ports';

const STATIC_DIR = resolve(import.meta.dirname, '../engine-container/static');

export interface SystemOptions {
  /** Keep data in this folder (DynamoDB files, the signing key); omitted = a throwaway in-memory run. */
  dataDir?: string;
  /** 0 picks a free port. */
  ports: { channel: number; schedule: number; autoabr: number; engine: number };
  /** Ports of the local cloud (DynamoDB Local, fauxqs for S3 and SQS); omitted or 0 = free ports. */
  cloudPorts?: { dynamodb?: number; fauxqs?: number };
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

export const serviceNames = ['channel', 'schedule', 'autoabr', 'engine'] as const;
export type ServiceName = (typeof serviceNames)[number];

type Stoppable = { stop(): Promise<void> } | { close(): Promise<void> };

export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  const cloud = await startLocalCloud({
    dataDir: dataDir && join(dataDir, 'dynamodb'),
    ports: options.cloudPorts,
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
  try {
    const keyDir = dataDir ?? mkdtempSync(join(tmpdir(), 'onair-'));
    const host = options.host ?? '127.0.0.1';
    // Port 0 means "any": pick them now, because services point at each other by URL.
    const ports = { ...options.ports };
    for (const name of serviceNames) if (!ports[name]) ports[name] = await freePort();
    const playback = `http://localhost:${ports.engine}`;
    const defaults: Record<string, string> = {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ONAIR_STAGE: 'test',
      JWT_KEY_FILE: join(keyDir, 'keys', 'jwt-es256.jwk.json'),
      PLAYBACK_BASE_URL: playback,
      ENGINE_STATIC_DIR: STATIC_DIR,
      ENGINE_SLATE_URI: `${playback}/slate/master.m3u8`,
      ...(wanted.has('schedule')
        ? { SCHEDULE_SERVICE_API_URL: `http://localhost:${ports.schedule}/api/v1` }
        : {}),
    };
    Object.assign(process.env, defaults, options.env, cloud.env);

    const urls: Record<string, string> = {};
    const serve = async (name: string, handler: V2Handler, port: number) => {
      const gw: Gateway = await startGateway(name, handler, port, host);
      running.push(gw);
      // `localhost`, not the bound address: the schedule service's tenant is the host a caller uses.
      urls[name] = `http://localhost:${gw.port}`;
      return gw;
    };
    // Imported only now: handlers read their configuration from the environment set above.
    if (wanted.has('channel')) {
      const channel = await import('../functions/channel/handler');
      await serve('channel', channel.createChannelHandler(), ports.channel);
    }
    if (wanted.has('schedule')) {
      const schedule = await import('../functions/schedule/handler');
      await serve('schedule', schedule.handler, ports.schedule);
      const { startScheduler } = await import('../functions/schedule/scheduler/start-scheduler');
      running.push(startScheduler());
      urls.schedule = `${urls.schedule}/api/v1`;
    }
    if (wanted.has('autoabr')) {
      const autoabr = await import('../functions/autoabr/entry/api-handler');
      await serve('autoabr', autoabr.handler, ports.autoabr);
      const { startAutoabrDispatcher } = await import('../functions/autoabr/entry/local-dispatcher');
      running.push(startAutoabrDispatcher());
    }
    if (wanted.has('engine')) {
      const { createOnairEngine } = await import('../engine-container/host/onair-engine');
      const engine = createOnairEngine({ port: ports.engine, host });
      await engine.start();
      running.push(engine);
      urls.engine = `http://localhost:${engine.engine.port}`;
      const { startFleetDispatcher } = await import('../functions/fleet/local');
      running.push(startFleetDispatcher());
    }
    urls.dynamodb = cloud.env.AWS_ENDPOINT_URL_DYNAMODB!;
    urls['s3+sqs'] = cloud.env.AWS_ENDPOINT_URL_S3!;
    return { urls, env: { ...defaults, ...options.env, ...cloud.env }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
