/**
 * The mixed channel's soak (`npm run soak:mixed -- --minutes N [--channel-api URL]`, docs/soak.md):
 * starts the system as `npm start` does (or uses a running one), makes a Loop channel of the CMAF VOD
 * (2 audio languages, WebVTT) with a TS preroll through the channel API, keeps its live events coming
 * (TS source, VOD, CMAF source, VOD, slate, VOD: cycle-plan.ts), and soaks its playback URL for N
 * minutes (run-soak.ts), printing a line per seam. Exits 1 when the soak was not clean, 2 on a usage
 * error; stops everything it started on exit, Ctrl-C or SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureFixtures } from '../../../test/support/fixtures';
import { waitOnAir } from '../../../test/support/on-air';
import { startStaticServer } from '../../../test/support/static-server';
import { argsOrUsageExit } from '../cli-args';
import { runSoak } from '../run-soak';
import { parseMixedArgs } from './args';
import { ChannelClient } from './channel-client';
import { clock, EventCycle } from './event-cycle';
import { type LocalSystem, startLocalSystem } from './local-system';
import { watchSeams } from './seam-watch';
import { countSeams } from './seams';

/** The first event starts this long after the channel is on air: the soak's player is playing by then. */
const FIRST_EVENT_AFTER_MS = 60_000;
const PREROLL_MS = 6000;
/** The status is written within a second or two of the item's start (docs/channel-api.md). */
const STATUS_AFTER_MS = 5000;

const log = (line: string) => process.stdout.write(`[soak ${clock(Date.now())}] ${line}\n`);

/** What to stop, newest first; also run (without waiting) if the process exits another way. */
const cleanups: Array<() => Promise<void>> = [];
const exitKills = new Set<() => void>();

async function main(): Promise<number> {
  const args = argsOrUsageExit(parseMixedArgs);
  if (args === 2) return 2;
  const fixtures = await ensureFixtures();
  const origin = await startStaticServer(fixtures.root);
  cleanups.push(() => origin.close());
  let system: LocalSystem | undefined;
  if (!args.channelApi) {
    const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'onair-soak-')), 'system.log');
    log(`starting the system as npm start does (its log: ${logFile})`);
    system = await startLocalSystem(logFile);
    const started = system;
    cleanups.push(() => started.stop());
    exitKills.add(() => process.kill(started.pid, 'SIGKILL'));
  }
  const channelApi = args.channelApi ?? system!.urls.channel!;
  const suffix = randomBytes(3).toString('hex');
  const client = await ChannelClient.trial(channelApi, `soak-${suffix}@example.com`);
  const vod = `${origin.url}/${fixtures.cmaf.path}`;
  const preroll = `${origin.url}/${fixtures.preroll.path}`;
  // The engine's default slate (engine-container/static/slate/), mapped onto the channel's rungs by size.
  const channel = await client.createLoop(`mixed-${suffix}`, vod, {
    preroll: { url: preroll, durationMs: PREROLL_MS },
  });
  const slate = new URL('/slate/', channel.playback).href;
  cleanups.push(() => client.remove(channel.id));
  log(
    `channel ${channel.id}: Loop of ${vod}, preroll ${preroll}, the engine's slate ${slate}; playback ${channel.playback}`,
  );
  await waitOnAir(channel.playback, 60_000);

  const cycle = new EventCycle(client, channel.id, Date.now() + FIRST_EVENT_AFTER_MS, log);
  cleanups.push(() => cycle.stop());
  exitKills.add(() => {
    for (const pid of cycle.pids()) process.kill(pid, 'SIGKILL');
  });
  cycle.start();
  const known = () => [
    { prefix: `${origin.url}/${fixtures.cmaf.name}/`, kind: 'cmaf-vod' },
    { prefix: `${origin.url}/${fixtures.preroll.name}/`, kind: 'ts-preroll' },
    { prefix: slate, kind: 'slate' },
    ...cycle.sources(),
  ];
  let soakStartMs = Date.now();
  const seams = await watchSeams(channel.playback, known, (seam) => {
    const at = seam.atMs ?? Date.now();
    const minute = Math.ceil((at - soakStartMs) / 60_000);
    const when = minute < 1 ? 'before the soak' : `soak minute ${minute}`;
    log(`seam ${clock(at)} UTC (${when}): ${seam.from} → ${seam.to}`);
    // What the channel API says of the slate (its reason), once the engine has written it.
    if (seam.to === 'slate')
      setTimeout(
        () => {
          void client.status(channel.id).then(
            (s) => log(`channel status: ${s.status}${s.statusReason ? ` (${s.statusReason})` : ''}`),
            (e: unknown) => log(`channel status not read: ${(e as Error).message}`),
          );
        },
        Math.max(0, at - Date.now()) + STATUS_AFTER_MS,
      );
  });
  cleanups.push(async () => seams.stop());

  const clean = await runSoak(
    { url: channel.playback, minutes: args.minutes, pid: system?.pid, realtimePlayer: args.realtimePlayer },
    log,
    () => {
      soakStartMs = Date.now();
    },
  );
  const counts = [...countSeams(seams.seams())].map(([k, n]) => `${k} ${n}`).join(', ');
  log(`seams crossed: ${counts || 'none'}`);
  return clean ? 0 : 1;
}

async function cleanUp(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  exitKills.clear();
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
// A crash: nothing async runs any more, so kill what would outlive us.
process.on('exit', () => {
  for (const kill of exitKills) {
    try {
      kill();
    } catch {}
  }
});

const code = await main().catch((e: unknown) => {
  log(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return 1;
});
await cleanUp();
process.exit(code);
