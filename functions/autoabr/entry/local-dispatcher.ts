/**
 * The local runner's hook for `npm start`: the dispatcher on a timer, workers as child processes.
 * (The routes are served by the lead's local gateway from `handler.ts`.)
 */

import { type Dispatcher, startDispatcher } from '../dispatcher/dispatch-once';
import { dispatcherDeps } from './deps';

export function startAutoabrDispatcher(
  options: { stdio?: 'inherit' | 'ignore'; intervalMs?: number } = {},
): Dispatcher {
  const deps = dispatcherDeps({ stdio: options.stdio });
  return startDispatcher(deps, options.intervalMs ?? deps.intervalMs);
}
