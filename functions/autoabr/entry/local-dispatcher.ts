/**
 * The local runner's hook for `npm start`: the dispatcher on a timer, workers as child processes (they
 * inherit this process's environment). The routes are served by the local gateway from api-handler.ts.
 */
import { dispatcherConfigFromEnv } from '../config/service-config';
import { type Dispatcher, startDispatcher } from '../dispatcher/dispatch-loop';
import { buildDispatcherDeps, type DispatcherOptions } from './build-dispatcher-deps';

export function startAutoabrDispatcher(
  options: DispatcherOptions & { intervalMs?: number } = {},
): Dispatcher {
  const config = dispatcherConfigFromEnv();
  return startDispatcher(buildDispatcherDeps(config, options), options.intervalMs ?? config.intervalMs);
}
