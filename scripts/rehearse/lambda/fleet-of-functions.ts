/**
 * Starts every rehearsed function of a template from its bundle: API functions first (each behind its
 * own API Gateway stand-in, whose URL becomes the API's ApiEndpoint for everything resolved after), then
 * the functions invoked by schedules, queues and custom resources.
 */
import { join } from 'node:path';
import type { Overrides } from '../cloud';
import type { PhysicalLookup } from '../iam/template';
import type { Steps } from '../steps';
import { type RuntimeSettings, runtimeEnv } from './env';
import type { LambdaFunction } from './functions';
import { type LambdaProcess, startLambda } from './process';

export interface RunningFunctions {
  byId: Map<string, LambdaProcess>;
  /** API logical id → its stand-in's URL. */
  apiUrls: Map<string, string>;
  /** Every function's resolved environment, for the report. */
  envs: Map<string, Record<string, string>>;
  handlerErrors(): { id: string; error: string }[];
}

export async function startFunctions(options: {
  functions: LambdaFunction[];
  lookup: () => PhysicalLookup;
  addOverrides: (more: Overrides) => void;
  settings: RuntimeSettings;
  logDir: string;
  steps: Steps;
}): Promise<RunningFunctions> {
  const { functions, lookup, addOverrides, settings, logDir, steps } = options;
  const byId = new Map<string, LambdaProcess>();
  const apiUrls = new Map<string, string>();
  const envs = new Map<string, Record<string, string>>();
  const start = async (fn: LambdaFunction, mode: 'api' | 'invoke') => {
    const env = runtimeEnv(fn.environment, fn.roleId, lookup(), settings);
    envs.set(fn.id, env);
    const running = await startLambda({
      name: fn.id,
      bundleDir: fn.bundleDir,
      handler: fn.handler,
      mode,
      env,
      logDir,
    });
    steps.cleanup(`function ${fn.id}`, () => running.stop());
    byId.set(fn.id, running);
    return running;
  };
  const apis = functions.filter((f) => f.apis.length > 0);
  await Promise.all(
    apis.map(async (fn) => {
      const running = await start(fn, 'api');
      for (const api of fn.apis) apiUrls.set(api, running.url!);
    }),
  );
  addOverrides(Object.fromEntries([...apiUrls].map(([api, url]) => [api, { attrs: { ApiEndpoint: url } }])));
  await Promise.all(functions.filter((f) => f.apis.length === 0).map((fn) => start(fn, 'invoke')));
  return {
    byId,
    apiUrls,
    envs,
    handlerErrors: () =>
      [...byId.values()].flatMap((p) => p.handlerErrors.map((error) => ({ id: p.name, error }))),
  };
}

export const logDirFor = (rehearsalDir: string, stage: string) => join(rehearsalDir, `logs.${stage}`);
