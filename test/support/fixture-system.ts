/**
 * The whole local system as the end-to-end suites stand it up: `startSystem` with the services asked
 * for, every port free (0), the run's one DynamoDB Local, its logs silent, and the media fixtures
 * served from 127.0.0.1; and a user of its channel API, who makes channels as a user does. What a suite
 * does with the channels (play them in hls.js, walk the console) is its own.
 */
import { type RunningSystem, type ServiceName, startSystem } from '../../local/system';
import { ensureFixtures, type FixturePaths } from './fixtures';
import { waitOnAir } from './on-air';
import { sharedDynamoDb } from './run/shared-dynamodb';
import { type StaticServer, startStaticServer } from './static-server';
import { trialToken } from './trial-token';

export interface FixtureSystem {
  system: RunningSystem;
  /** The fixtures' origin (`${origin.url}/${fixtures.vodA.path}` is vod-a's master playlist). */
  origin: StaticServer;
  fixtures: FixturePaths;
  /** Stops the system, then the origin. */
  stop(): Promise<void>;
}

/** Starts the fixtures' origin and the system; `env` adds to (and wins over) `LOG_LEVEL=silent`. */
export async function startFixtureSystem(
  services: readonly ServiceName[],
  env: Record<string, string> = {},
): Promise<FixtureSystem> {
  const fixtures = await ensureFixtures();
  const origin = await startStaticServer(fixtures.root);
  const system = await startSystem({
    sharedDynamoDb: sharedDynamoDb(),
    ports: { channel: 0, schedule: 0, autoabr: 0, engine: 0, console: 0 },
    services,
    env: { LOG_LEVEL: 'silent', ...env },
  });
  return {
    system,
    origin,
    fixtures,
    stop: async () => {
      await system.stop();
      await origin.close();
    },
  };
}

export interface MadeChannel {
  id: string;
  /** The channel's master playlist on the engine. */
  playback: string;
}

/** A user of the system's channel API: a trial token, and the channels made with it. */
export interface ChannelUser {
  token: string;
  /** `POST /channel`; anything but 201 throws. */
  createChannel(body: Record<string, unknown>): Promise<MadeChannel>;
  /** createChannel, then waits until the channel's playlist answers (waitOnAir's 20 s). */
  channelOnAir(body: Record<string, unknown>): Promise<MadeChannel>;
}

/** Signs up as a new user does (`POST /token`, trial-token.ts). */
export async function channelUser(
  system: RunningSystem,
  email: string,
  company: string,
): Promise<ChannelUser> {
  const token = await trialToken(system.urls.channel!, email, company);
  const createChannel = async (body: Record<string, unknown>): Promise<MadeChannel> => {
    const res = await fetch(`${system.urls.channel}/channel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-jwt': `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST /channel answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as MadeChannel;
  };
  return {
    token,
    createChannel,
    channelOnAir: async (body) => {
      const made = await createChannel(body);
      await waitOnAir(made.playback);
      return made;
    },
  };
}

/**
 * The body of a Loop channel of vod-a (20 s) with the 6 s preroll fixture before each pass, spliced
 * (the default) or delivered as an HLS interstitial.
 */
export function loopWithPreroll(
  { origin, fixtures }: Pick<FixtureSystem, 'origin' | 'fixtures'>,
  name: string,
  delivery?: 'interstitial',
): Record<string, unknown> {
  const preroll = { url: `${origin.url}/${fixtures.preroll.path}`, duration: '6000' };
  return {
    name,
    type: 'Loop',
    url: `${origin.url}/${fixtures.vodA.path}`,
    opts: { preroll: delivery ? { ...preroll, delivery } : preroll },
  };
}
