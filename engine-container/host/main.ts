/** Container entry of the engine (engine-container/Dockerfile): start, and stop cleanly on SIGTERM. */
import { logger } from '../../core/logger';
import { createOnairEngine } from './onair-engine';

const onair = createOnairEngine();
await onair.start();
logger.info('engine listening', { port: onair.engine.port });

const stop = async (signal: string) => {
  logger.info('engine stopping', { signal });
  await onair.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
