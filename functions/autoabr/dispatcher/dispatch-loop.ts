/** The local dispatcher: a timer runs the tick (in AWS a scheduled Lambda does). */
import { dispatchOnce } from './dispatch-once';
import type { DispatcherDeps } from './dispatcher-deps';

export interface Dispatcher {
  stop(): Promise<void>;
}

/** Ticks every `intervalMs` (never two at once) until stopped; stopping also stops local workers. */
export function startDispatcher(deps: DispatcherDeps, intervalMs: number): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    current = dispatchOnce(deps)
      .catch((err) => deps.log.error('dispatcher tick failed', { err }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      await deps.launcher.stopAll();
    },
  };
}
