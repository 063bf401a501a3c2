/** Lambda entry of the dispatcher: an EventBridge schedule (every minute) runs one tick. */
import { applyCloudEnv } from './cloud-config';
import { dispatcherDeps } from './deps';
import { dispatchOnce, type TickReport } from './dispatcher';

applyCloudEnv();

export const handler = async (): Promise<TickReport> => dispatchOnce(dispatcherDeps());
