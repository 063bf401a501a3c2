/** Lambda entry of the dispatcher: an EventBridge schedule (every minute) runs one tick. */
import { applyCloudEnv } from '../config/cloud-config';
import { dispatchOnce, type TickReport } from '../dispatcher/dispatch-once';
import { dispatcherDeps } from './deps';

applyCloudEnv();

export const handler = async (): Promise<TickReport> => dispatchOnce(dispatcherDeps());
