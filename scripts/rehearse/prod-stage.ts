/**
 * The prod stage, lighter: its own local cloud from the prod template, its signing keys made by its
 * custom resource, every API function loaded from its prod bundle with its prod environment, each
 * answering one request authenticated with an operator token signed with the prod key; the calls they
 * made judged against the prod roles' policies.
 */
import { rmSync } from 'node:fs';
import { SsmKeyStore } from '../../core/auth/ssm-key-store';
import { issueOperatorToken } from '../../functions/channel/operator-token';
import { call } from './api-client';
import { startRehearsalCloud } from './cloud';
import { customResourceCreates } from './custom-resources';
import { evaluateCalls, formatReport, loadTemplate, startRecordingProxy } from './iam';
import type { RuntimeSettings } from './lambda/env';
import { logDirFor, startFunctions } from './lambda/fleet-of-functions';
import { lambdaFunctions } from './lambda/functions';
import type { Steps } from './steps';
import { REHEARSAL_DIR, type Synthesized } from './synth';

/** One authenticated read per API, by the logical id its construct gives it. */
const PROBES: Record<string, string> = {
  ChannelService: '/channel',
  ScheduleService: '/api/v1/channels',
  AutoabrService: '/autoabr',
};

export async function rehearseProdApis(
  synthesized: Synthesized,
  steps: Steps,
  overrides: RuntimeSettings['overrides'],
): Promise<string> {
  const template = loadTemplate(synthesized.templatePath);
  const { functions } = lambdaFunctions(template, synthesized.outDir);
  const cloud = await steps.run('prod: local cloud from the prod template', () =>
    startRehearsalCloud(template, steps),
  );
  const proxy = await startRecordingProxy({ targets: cloud.services, env: cloud.env });
  steps.cleanup('prod recording proxy', () => proxy.close());
  const creates = customResourceCreates(template, cloud.lookup(), cloud.region, cloud.account);
  const wanted = functions.filter((f) => f.apis.length > 0 || creates.some((c) => c.functionId === f.id));
  const settings: RuntimeSettings = { region: cloud.region, endpoints: proxy.endpointEnv(), overrides };
  rmSync(logDirFor(REHEARSAL_DIR, 'prod'), { recursive: true, force: true });
  const running = await steps.run(`prod: start ${wanted.length} functions from their prod bundles`, () =>
    startFunctions({
      functions: wanted,
      lookup: cloud.lookup,
      addOverrides: cloud.addOverrides,
      settings,
      logDir: logDirFor(REHEARSAL_DIR, 'prod'),
      steps,
    }),
  );
  await steps.run('prod: signing keys by their custom resource', async () => {
    for (const c of creates) await running.byId.get(c.functionId)?.invoke(c.event);
  });
  const prefix = [...running.envs.values()].map((e) => e.JWT_KEY_PARAMETER).find(Boolean);
  if (!prefix) throw new Error('no prod function reads JWT_KEY_PARAMETER');
  const { token } = await issueOperatorToken(
    { tenant: 'rehearsal', maxChannels: 10, env: 'prod', days: 1, autoabr: true },
    new SsmKeyStore(prefix, cloud.operatorSsm()),
  );
  for (const [apiId, url] of running.apiUrls) {
    const name = Object.keys(PROBES).find((p) => apiId.startsWith(p));
    if (!name) throw new Error(`prod API ${apiId} has no probe in prod-stage.ts`);
    await steps.run(`prod: ${name} answers GET ${PROBES[name]} with a prod operator token`, () =>
      call(`${url}${PROBES[name]}`, { token }),
    );
  }
  const errors = running.handlerErrors();
  if (errors.length)
    throw new Error(`prod handler errors: ${errors.map((e) => `${e.id}: ${e.error}`).join('\n')}`);
  return steps.run('prod: IAM of the calls made', async () => {
    const report = await evaluateCalls(template, cloud.lookup(), proxy.calls());
    const text = formatReport(report);
    if (!report.ok) throw new Error(`prod IAM:\n${text}`);
    return text;
  });
}
