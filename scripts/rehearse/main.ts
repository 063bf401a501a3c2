/**
 * `npm run rehearse`: a rehearsal of what is deployed, with the configuration that is deployed
 * (docs/deploy.md, "Rehearsing a deployment"). Every step is printed with its duration; any failure
 * exits non-zero; everything started is stopped, whatever happened.
 */
import { rmSync } from 'node:fs';
import { startRehearsalCloud } from './cloud';
import { customResourceCreates } from './custom-resources';
import { walkThrough } from './journeys/walk-through';
import type { RuntimeSettings } from './lambda/env';
import { logDirFor, startFunctions } from './lambda/fleet-of-functions';
import { lambdaFunctions } from './lambda/functions';
import { errorText, Steps } from './steps';
import { REHEARSAL_DIR, synth } from './synth';
import { loadTemplate } from './iam/template';

const steps = new Steps();

async function main(): Promise<void> {
  const test = await steps.run('synth the test stage', () => synth('test'));
  await steps.run('synth the prod stage', () => synth('prod'));
  const template = loadTemplate(test.templatePath);
  const { functions, skipped } = lambdaFunctions(template, test.outDir);
  for (const s of skipped) process.stdout.write(`  skipped ${s.id}: ${s.why}\n`);

  const cloud = await steps.run(
    'local cloud from the template (tables, queues, buckets, SSM, Secrets Manager)',
    () => startRehearsalCloud(template, steps),
  );
  const overrides: RuntimeSettings['overrides'] = {
    ALLOW_PRIVATE_URLS: {
      value: 'true',
      why: "the rehearsal's origins (VODs, feeds, live source, the engine itself) are on loopback, which every deployment refuses",
    },
  };
  const settings: RuntimeSettings = {
    region: cloud.region,
    endpoints: {
      AWS_ENDPOINT_URL_DYNAMODB: cloud.services.dynamodb,
      AWS_ENDPOINT_URL_S3: cloud.services.s3,
      AWS_ENDPOINT_URL_SQS: cloud.services.sqs,
      AWS_ENDPOINT_URL_SSM: cloud.services.ssm,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: cloud.services.secretsmanager,
    },
    overrides,
  };
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
  const api = (idPrefix: string) => {
    const entry = [...running.apiUrls].find(([id]) => id.startsWith(idPrefix));
    if (!entry) throw new Error(`no API ${idPrefix}* in the template`);
    return entry[1];
  };
  await walkThrough({ steps, channelApi: api('ChannelService'), engineUrl: 'http://127.0.0.1:1' });
  const errors = running.handlerErrors();
  if (errors.length)
    throw new Error(`handler errors: ${errors.map((e) => `${e.id}: ${e.error}`).join('\n')}`);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stdout.write(`\nREHEARSAL FAILED: ${errorText(err)}\n`);
} finally {
  await steps.stopAll();
}
const total = steps.results.reduce((sum, r) => sum + r.ms, 0);
process.stdout.write(
  `\n${failed ? 'FAILED' : 'PASSED'}: ${steps.results.length} steps, ${(total / 1000).toFixed(0)} s\n`,
);
process.exit(failed ? 1 : 0);
