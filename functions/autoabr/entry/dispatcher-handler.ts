/** Lambda entry of the dispatcher: an EventBridge schedule (every minute) runs one tick. */
import { dispatcherConfigFromEnv } from '../config/service-config';
import { dispatchOnce, type TickReport } from '../dispatcher/dispatch-once';
import { buildDispatcherDeps } from './build-dispatcher-deps';

const deps = buildDispatcherDeps(dispatcherConfigFromEnv());

export const handler = async (): Promise<TickReport> => dispatchOnce(deps);
