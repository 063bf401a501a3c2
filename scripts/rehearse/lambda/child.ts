/**
 * One Lambda function in its own process (its environment is the process's): loads the handler from
 * the function's cdk.out bundle, then either serves it behind the API Gateway stand-in (`api`) or runs
 * the events the rehearsal sends over IPC (`invoke`: schedules, queue batches, custom resources).
 * Every handler error is also reported to the parent: the rehearsal fails on any.
 *
 *   node --import tsx child.ts <name> <bundle dir> <Handler> <api|invoke>
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lambdaContext, startGateway, type V2Handler } from '../../../local/gateway';

export type ToChild = { type: 'invoke'; id: number; event: unknown };
export type FromChild =
  | { type: 'ready'; url?: string }
  | { type: 'result'; id: number; result?: unknown; error?: string }
  | { type: 'handlerError'; error: string };

const [name = '', bundleDir = '', handlerSpec = '', mode = 'invoke'] = process.argv.slice(2);
const send = (message: FromChild) => process.send?.(message);

async function loadHandler(): Promise<(event: unknown, context: unknown) => Promise<unknown>> {
  // Lambda's Node runtime: "<module>.<export>", the module found as .js, .mjs or .cjs.
  const dot = handlerSpec.lastIndexOf('.');
  const [module, exported] = [handlerSpec.slice(0, dot), handlerSpec.slice(dot + 1)];
  const file = ['.js', '.mjs', '.cjs'].map((ext) => join(bundleDir, module + ext)).find(existsSync);
  if (!file) throw new Error(`${name}: no ${module}.{js,mjs,cjs} in ${bundleDir}`);
  const loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const fn = loaded[exported];
  if (typeof fn !== 'function') throw new Error(`${name}: ${file} exports no function ${exported}`);
  return fn as (event: unknown, context: unknown) => Promise<unknown>;
}

async function main(): Promise<void> {
  const handler = await loadHandler();
  const reported = async (event: unknown, context: unknown) => {
    try {
      return await handler(event, context);
    } catch (err) {
      send({ type: 'handlerError', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      throw err;
    }
  };
  if (mode === 'api') {
    const gateway = await startGateway(name, reported as V2Handler, 0);
    send({ type: 'ready', url: gateway.url });
    return;
  }
  process.on('message', async (message: ToChild) => {
    if (message.type !== 'invoke') return;
    try {
      const result = await reported(message.event, lambdaContext(name, randomUUID()));
      send({ type: 'result', id: message.id, result });
    } catch (err) {
      send({ type: 'result', id: message.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  send({ type: 'ready' });
}

main().catch((err) => {
  send({
    type: 'handlerError',
    error: `init: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  });
  process.exit(1);
});
