/**
 * `npm run rehearse`: a rehearsal of what is deployed, with the configuration that is deployed
 * (docs/rehearsal.md, "Rehearsing a deployment"). Every step is printed with its duration; any failure
 * exits non-zero; everything started is stopped, whatever happened.
 */
import { rmSync } from 'node:fs';
import { SsmKeyStore } from '../../core/auth/ssm-key-store';
import { waitFor } from '../../core/wait-for';
import { issueOperatorToken } from '../../functions/channel/operator-token';
import { candidatePort } from '../../local/ports';
import {
  ENGINE_IMAGE as BUILT_ENGINE_IMAGE,
  WORKER_IMAGE as BUILT_WORKER_IMAGE,
} from '../images/image-names';
import { imageExistsSync } from '../images/podman';
import { startRehearsalCloud } from './cloud';
import { customResourceCreates } from './custom-resources';
import { fetchSecretAs } from './ecs-secrets';
import {
  evaluateCalls,
  executionRoleCalls,
  formatReport,
  lambdaServiceCalls,
  loadTemplate,
  startRecordingProxy,
} from './iam';
import { autoabrJourney } from './journeys/autoabr';
import { keepAliveSurvivesIdle } from './journeys/keep-alive';
import { playsInFfmpeg, playsInHlsJs } from './journeys/play-channel';
import { scheduleJourney } from './journeys/schedule';
import { createTrialChannel, listAndDelete } from './journeys/walk-through';
import type { RuntimeSettings } from './lambda/env';
import { logDirFor, startFunctions } from './lambda/fleet-of-functions';
import { lambdaFunctions } from './lambda/functions';
import { REHEARSAL_TICK_MS, startTriggers } from './lambda/triggers';
import { rehearseProdApis } from './prod-stage';
import { startEcs } from './stand-ins/ecs';
import { errorText, Steps } from './steps';
import { REHEARSAL_DIR, synth } from './synth';
import { runTask, taskDefinition } from './tasks';

// The images `npm run images` tags; REHEARSAL_ENGINE_IMAGE / REHEARSAL_WORKER_IMAGE rehearse other builds
// (a branch's candidate image) without retagging the shared store.
const ENGINE_IMAGE = process.env.REHEARSAL_ENGINE_IMAGE || BUILT_ENGINE_IMAGE;
const WORKER_IMAGE = process.env.REHEARSAL_WORKER_IMAGE || BUILT_WORKER_IMAGE;

// Each function, container and DynamoDB Local registers its own exit hook (never left running).
process.setMaxListeners(50);
const steps = new Steps();
const notes: string[] = [];
let iamReport = '';
let prodIamReport = '';

async function main(): Promise<void> {
  for (const image of [ENGINE_IMAGE, WORKER_IMAGE])
    if (!imageExistsSync(image)) throw new Error(`no image ${image}: run npm run images first`);
  const test = await steps.run('synth the test stage', () => synth('test'));
  // The prod stage synthesizes while the test stage is rehearsed; it is awaited before its own check.
  const prodStarted = Date.now();
  const prodSynth = synth('prod').then((s) => ({ ...s, ms: Date.now() - prodStarted }));
  prodSynth.catch(() => undefined);
  const template = loadTemplate(test.templatePath);
  const { functions, skipped } = lambdaFunctions(template, test.outDir);
  for (const s of skipped) notes.push(`skipped ${s.id}: ${s.why}`);
  notes.push(
    `Lambda runtime stood in by Node ${process.versions.node} on ${process.arch} (the template: ${[...new Set(functions.map((f) => f.runtime))].join(', ')}, arm64); the AWS SDK the runtime provides by the repository's node_modules`,
  );

  const cloud = await steps.run(
    'local cloud from the template (tables, queues, buckets, SSM, Secrets Manager)',
    () => startRehearsalCloud(template, steps),
  );
  // The engine's port is part of its configuration: a candidate, and a collision fails its start.
  const enginePort = await candidatePort();
  const engineUrl = `http://127.0.0.1:${enginePort}`;
  const overrides: RuntimeSettings['overrides'] = {
    ALLOW_PRIVATE_URLS: {
      value: 'true',
      why: "the rehearsal's origins (VODs, feeds, the live source, the engine itself) are on loopback, which every deployment refuses",
    },
  };
  const engineOverrides: RuntimeSettings['overrides'] = {
    ENGINE_HOST: {
      value: '127.0.0.1',
      why: "the container shares this host's network (podman --network=host): loopback only, as every test server here",
    },
    port: {
      value: String(enginePort),
      why: 'a free port on the shared host network (the task definition says 8000)',
    },
    ENGINE_SLATE_URI: {
      value: `${engineUrl}/slate/master.m3u8`,
      why: 'the template points it at the CloudFront distribution, which the rehearsal does not have: the engine serves its own slate',
    },
  };
  const settings: RuntimeSettings = { region: cloud.region, endpoints: {}, overrides };
  // The tasks started (engine, workers): what ECS did as each one's execution role is judged too.
  const startedTasks: string[] = [];
  const taskDefs = Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::ECS::TaskDefinition')
    .map(([id]) => taskDefinition(template, id));
  const imageOf = (id: string) => (id.startsWith('Autoabr') ? WORKER_IMAGE : ENGINE_IMAGE);
  const fetchSecret = (id: string, principal: string) =>
    fetchSecretAs(settings.endpoints.AWS_ENDPOINT_URL_SECRETS_MANAGER!, id, principal, cloud.region);
  const ecs = await steps.run('ECS stand-in (RunTask → podman run of the worker image)', async () => {
    const service = await startEcs({
      account: cloud.account,
      region: cloud.region,
      launch: async (taskDefinitionArn, command) => {
        const def = taskDefs.find((d) => cloud.lookup().ref(d.id) === taskDefinitionArn);
        if (!def) throw new Error(`RunTask of an unknown task definition ${taskDefinitionArn}`);
        const task = await runTask({
          image: imageOf(def.id),
          def,
          lookup: cloud.lookup(),
          settings,
          fetchSecret,
          command,
        });
        startedTasks.push(def.id);
        steps.cleanup(`task ${task.name}`, () => task.stop());
        return task;
      },
    });
    steps.cleanup('ECS stand-in', () => service.close());
    return service;
  });
  const proxy = await steps.run('IAM recording proxy in front of every service', async () => {
    const started = await startRecordingProxy({
      targets: { ...cloud.services, ecs: ecs.url },
      env: cloud.env,
    });
    steps.cleanup('recording proxy', () => started.close());
    return started;
  });
  settings.endpoints = proxy.endpointEnv();

  rmSync(logDirFor(REHEARSAL_DIR, 'test'), { recursive: true, force: true });
  const running = await steps.run(`start ${functions.length} functions from their bundles`, () =>
    startFunctions({
      functions,
      lookup: cloud.lookup,
      addOverrides: cloud.addOverrides,
      settings,
      logDir: logDirFor(REHEARSAL_DIR, 'test'),
      steps,
    }),
  );
  await steps.run('custom resources: Create events to the functions behind them (signing keys)', async () => {
    for (const call of customResourceCreates(template, cloud.lookup(), cloud.region, cloud.account)) {
      const fn = running.byId.get(call.functionId);
      if (!fn) throw new Error(`${call.resourceId}: its function ${call.functionId} is not running`);
      await fn.invoke(call.event);
    }
  });
  const triggers = startTriggers({
    functions,
    running: running.byId,
    lookup: cloud.lookup(),
    account: cloud.account,
    region: cloud.region,
    sqsEndpoint: settings.endpoints.AWS_ENDPOINT_URL_SQS!,
  });
  steps.cleanup('schedules and queue pollers', () => triggers.stop());
  notes.push(
    `EventBridge rate() rules fire every ${REHEARSAL_TICK_MS / 1000} s in the rehearsal (faster than deployed)`,
  );

  const engineDef = taskDefs.find((d) => imageOf(d.id) === ENGINE_IMAGE);
  if (!engineDef) throw new Error('no engine task definition in the template');
  const engine = await steps.run(
    'engine container with its task definition (environment, secrets)',
    async () => {
      const task = await runTask({
        image: ENGINE_IMAGE,
        def: engineDef,
        lookup: cloud.lookup(),
        settings: { ...settings, overrides: { ...overrides, ...engineOverrides } },
        fetchSecret,
      });
      startedTasks.push(engineDef.id);
      steps.cleanup(`engine ${task.name}`, () => task.stop());
      await waitFor(
        async () => (await fetch(`${engineUrl}/health`, { signal: AbortSignal.timeout(2000) })).ok,
        Boolean,
        { timeoutMs: 180_000, what: `the engine container answering ${engineUrl}/health` },
      ).catch(async (err) => {
        throw new Error(`${errorText(err)}\n${(await task.logs()).slice(-3000)}`);
      });
      return task;
    },
  );

  const api = (idPrefix: string) => {
    const entry = [...running.apiUrls].find(([id]) => id.startsWith(idPrefix));
    if (!entry) throw new Error(`no API ${idPrefix}* in the template`);
    return entry[1];
  };
  // (d) runs beside the other journeys: its 61 s idle costs no wall time.
  const keepAlive = keepAliveSurvivesIdle(engineUrl);
  keepAlive.catch(() => undefined);

  const channelApi = api('ChannelService');
  const walk = await createTrialChannel({ steps, channelApi, engineUrl });
  // The playback URL the channel API gave, on the engine instead of CloudFront (not rehearsed).
  const master = `${engineUrl}${new URL(walk.channel.playback).pathname}`;
  await steps.run(
    'walk-through: the channel plays through the engine container in hls.js (Chromium)',
    async () => {
      notes.push(await playsInHlsJs(master));
    },
  );
  await steps.run('walk-through: and in ffmpeg', async () => {
    notes.push(await playsInFfmpeg(master));
  });
  await listAndDelete({ steps, channelApi, walk });

  // (c) beside (b): the worker's encodes and the schedule's waits overlap.
  // Operators sign with the private key, which only the token issuer (the channel API) may read: its
  // parameter is the one `npm run token` is given in a deployment (docs/deploy.md).
  const issuerFn = functions.find((f) => f.apis.some((a) => a.startsWith('ChannelService')));
  const keyPrefix = issuerFn && running.envs.get(issuerFn.id)?.JWT_KEY_PARAMETER;
  if (!keyPrefix) throw new Error('the channel API function has no JWT_KEY_PARAMETER');
  const operator = await steps.run(
    'an operator token with the autoabr scope, signed with the key in SSM',
    () =>
      issueOperatorToken(
        { tenant: 'rehearsal', maxChannels: 10, env: 'test', days: 1, autoabr: true },
        new SsmKeyStore(keyPrefix, cloud.operatorSsm()),
      ),
  );
  const bucketId = Object.keys(template.Resources).find((id) => id.startsWith('StateBucketautoabr'));
  if (!bucketId) throw new Error('no AutoABR bucket in the template');
  const dispatcherId = functions.find((f) => f.id.startsWith('AutoabrServiceDispatcher'))?.id;
  const autoabr = autoabrJourney({
    steps,
    autoabrApi: api('AutoabrService'),
    token: operator.token,
    bucket: cloud.lookup().ref(bucketId),
    s3Endpoint: cloud.services.s3,
    region: cloud.region,
    notes,
  });
  autoabr.catch(() => undefined);
  const schedulerId = functions.find((f) => f.id.startsWith('ScheduleServiceAutoScheduler'))?.id;
  if (!schedulerId || !dispatcherId)
    throw new Error('no auto-scheduler or AutoABR dispatcher in the template');
  await scheduleJourney({
    steps,
    scheduleApi: api('ScheduleService'),
    engineUrl,
    token: walk.token,
    runAutoScheduler: () => triggers.tickNow(schedulerId),
    notes,
  });
  await autoabr;

  await steps.run('no handler errors, no call to an action the stand-ins lack', async () => {
    const errors = running.handlerErrors();
    const unknown = [...cloud.standIns, ecs].flatMap((s) => s.unknown);
    if (errors.length || unknown.length)
      throw new Error(
        [...errors.map((e) => `${e.id}: ${e.error}`), ...unknown.map((u) => `not rehearsed: ${u}`)].join(
          '\n',
        ),
      );
  });
  void engine;
  notes.push(
    `fleet dispatcher's ECS service updates: ${JSON.stringify(ecs.serviceUpdates.slice(-3))} (last 3 of ${ecs.serviceUpdates.length})`,
  );
  notes.push(`invocations by schedule or queue: ${JSON.stringify(Object.fromEntries(triggers.counts))}`);
  notes.push(
    `overrides beyond the template: ${Object.entries({ ...overrides, ...engineOverrides })
      .map(([k, v]) => `${k}=${v.value} (${v.why})`)
      .join('; ')}`,
  );
  await steps.run("IAM: every recorded call judged against its role's synthesized policies", async () => {
    const calls = [
      ...proxy.calls(),
      ...startedTasks.flatMap((id) => executionRoleCalls(template, cloud.lookup(), id, cloud.env)),
      // What Lambda itself does as each function's role: its log writes, its event sources' polling.
      ...[...running.byId.keys()].flatMap((id) =>
        lambdaServiceCalls(template, cloud.lookup(), id, cloud.env),
      ),
    ];
    const report = await evaluateCalls(template, cloud.lookup(), calls);
    iamReport = formatReport(report);
    if (!report.ok)
      throw new Error(
        `IAM: ${report.denied} denied, ${report.errors} not evaluable, ${report.unknownPrincipals.length} unknown callers`,
      );
  });
  const prod = await steps.run('synth the prod stage (ran beside the test rehearsal)', () => prodSynth);
  notes.push(`prod synth took ${(prod.ms / 1000).toFixed(0)} s`);
  prodIamReport = await rehearseProdApis(prod, steps, overrides);
  await steps.run('keep-alive: a connection idle 61 s is still served by the engine', async () => {
    notes.push(await keepAlive);
  });
}

const startedAt = Date.now();
let failed = false;
// Ctrl-C or a CI timeout: stop the containers and processes before going (the exit hooks cover only
// child processes, not podman's containers).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    process.stdout.write(`\n${signal}: stopping everything the rehearsal started\n`);
    void steps.stopAll().finally(() => process.exit(130));
  });
try {
  await main();
} catch (err) {
  failed = true;
  process.stdout.write(`\nREHEARSAL FAILED: ${errorText(err)}\n`);
} finally {
  await steps.stopAll();
}
if (iamReport) process.stdout.write(`\nTEST STAGE ${iamReport}\n\n`);
if (prodIamReport) process.stdout.write(`PROD STAGE ${prodIamReport}\n\n`);
for (const note of notes) process.stdout.write(`  · ${note}\n`);
const failedSteps = steps.results.filter((r) => !r.ok).length;
process.stdout.write(
  `\n${failed ? 'FAILED' : 'PASSED'}: ${steps.results.length} steps (${failedSteps} failed) in ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`,
);
// The plain closing line CI reads: a failure before any step ran still counts as one failed.
const failedCount = failed ? Math.max(failedSteps, 1) : 0;
process.stdout.write(`rehearsal: ${steps.results.length - failedSteps} passed, ${failedCount} failed\n`);
process.exit(failed ? 1 : 0);
