/**
 * `npm start`: the whole system on this machine. Flags: `--in-memory` (throwaway data),
 * `--data-dir <dir>` (default .data). Ports from CHANNEL_API_PORT (8080), SCHEDULE_API_PORT (8090),
 * AUTOABR_API_PORT (3000), ENGINE_PORT (8000), CONSOLE_PORT (8070), DYNAMODB_LOCAL_PORT (8100), FAUXQS_PORT (4566, S3 and SQS);
 * BIND_HOST (127.0.0.1).
 */
import { parseArgs } from 'node:util';
import { readInt, readString } from '../core/env';
import { startSystem } from '../local/system';

// We run on Node 20 by design (see README); the SDK's notice about its future Node 22 floor is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    'data-dir': { type: 'string', default: '.data' },
  },
});

const port = (name: string, fallback: number) => readInt(name, fallback, { min: 0, max: 65535 });

const system = await startSystem({
  dataDir: values['in-memory'] ? undefined : values['data-dir'],
  host: readString('BIND_HOST', '127.0.0.1'),
  ports: {
    channel: port('CHANNEL_API_PORT', 8080),
    schedule: port('SCHEDULE_API_PORT', 8090),
    autoabr: port('AUTOABR_API_PORT', 3000),
    engine: port('ENGINE_PORT', 8000),
    console: port('CONSOLE_PORT', 8070),
  },
  // Fixed by default so other tools (npm run s3:put, the AWS CLI) can reach the local cloud.
  cloudPorts: { dynamodb: port('DYNAMODB_LOCAL_PORT', 8100), fauxqs: port('FAUXQS_PORT', 4566) },
}).catch((err: unknown) => {
  // A refusal (a port or data folder in use) is a message for the user, not a stack trace.
  console.error(`onair could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

console.log('\nonair is running:');
for (const [name, url] of Object.entries(system.urls))
  if (name !== 'console') console.log(`  ${name.padEnd(10)} ${url}`);
console.log(values['in-memory'] ? '  data: in memory (discarded on exit)' : `  data: ${values['data-dir']}`);
console.log(`\nOpen the console: ${system.urls.console}\nCtrl-C stops everything.\n`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping...`);
  await system.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
