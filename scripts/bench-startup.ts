/**
 * Start-up benchmark (`npm run bench:startup`, or `tsx scripts/bench-startup.ts [--channels 1000]
 * [--runs 5] [--out .cache/bench-startup.json]`).
 *
 * 1. Lambda bundles: every API function built as lib/api-function.ts builds it (esbuild, ESM, node22,
 *    minified, @aws-sdk/* left to the runtime); prints each bundle's size (raw and gzip) and its init
 *    time: a fresh node process importing the bundle (what a cold start runs before the first
 *    invocation), median of --runs. The Lambda runtime's own start and the download of the code are
 *    not included; ARM Lambda CPUs are slower than a desktop core, so read the figures as relative.
 * 2. The engine container: engine-container/host/main.ts bundled as engine-container/Dockerfile
 *    bundles it, started with plain node against the local cloud (DynamoDB Local) holding --channels
 *    channels in the channel table; the time from spawning the process to the first 200 from /health,
 *    median of --runs (each a fresh process), beside the same with an empty table.
 * Prints the load average: a busy machine lengthens every figure.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { documentClient } from '../core/aws';
import { mapLimit } from '../core/map-limit';
import { tableName, tables } from '../core/resources';
import { channelId } from '../functions/channel/channel-id';
import { dynamoChannelStore } from '../functions/channel/stores/channel-store';
import { startLocalCloud } from '../local/cloud';
import { candidatePort } from '../local/ports';
import { bundleForNode, REQUIRE_BANNER } from './bench/bundle';
import { machineLoad } from './bench/pin';

const { values: opts } = parseArgs({
  options: {
    channels: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '5' },
    out: { type: 'string', default: '.cache/bench-startup.json' },
  },
});
const CHANNELS = Number(opts.channels);
const RUNS = Number(opts.runs);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The Lambda entries of lib/ (apiFunction calls), by function. */
const LAMBDAS: Record<string, string> = {
  'autoabr api': 'functions/autoabr/entry/api-handler.ts',
  'autoabr dispatcher': 'functions/autoabr/entry/dispatcher-handler.ts',
  'channel api': 'functions/channel/handler.ts',
  'schedule api': 'functions/schedule/handler.ts',
  'schedule auto-scheduler': 'functions/schedule/scheduler-handler.ts',
  'signing keys (custom resource)': 'lib/handlers/create-signing-keys.ts',
};

const progress = (msg: string) => process.stderr.write(`[bench:startup] ${msg}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

interface LambdaFigures {
  name: string;
  entry: string;
  bytes: number;
  gzipBytes: number;
  initMs: number[];
}

/** lib/api-function.ts's bundling options. */
async function bundleLambda(entry: string, dir: string): Promise<string> {
  const outfile = join(dir, `${basename(entry, '.ts')}-${Math.random().toString(36).slice(2, 8)}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    sourcemap: true,
    minify: true,
    banner: { js: REQUIRE_BANNER },
    external: ['@aws-sdk/*'],
    logLevel: 'error',
    outfile,
  });
  return outfile;
}

/** A fresh node importing the bundle: ms from before the import to its end, measured inside. */
function importMs(file: string, env: Record<string, string>): number {
  const code =
    'const t0 = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t0));';
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', code, file], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`importing ${file} failed: ${res.stderr}`);
  return Number(res.stdout);
}

async function lambdas(dir: string, env: Record<string, string>): Promise<LambdaFigures[]> {
  const out: LambdaFigures[] = [];
  for (const [name, entry] of Object.entries(LAMBDAS)) {
    progress(`lambda ${name}: bundling, ${RUNS} cold imports`);
    const file = await bundleLambda(entry, dir);
    const code = await readFile(file);
    const initMs = Array.from({ length: RUNS }, () => importMs(file, env));
    out.push({ name, entry, bytes: code.length, gzipBytes: gzipSync(code).length, initMs });
  }
  return out;
}

/** Spawns the bundled engine; resolves with ms from spawn to the first 200 from /health. */
async function engineStartMs(bundle: string, env: Record<string, string>): Promise<number> {
  const port = await candidatePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', bundle], {
    env: { ...process.env, ...env, port: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the engine exited (${child.exitCode})`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function fillChannelTable(count: number): Promise<void> {
  const store = dynamoChannelStore(documentClient(), tableName(tables.channels));
  const names = Array.from({ length: count }, (_, n) => `bench-${n}`);
  await mapLimit(names, 16, (name) =>
    store.create(
      {
        id: channelId('bench', name),
        tenant: 'bench',
        name,
        type: 'Loop',
        url: 'http://127.0.0.1:9/demo/master.m3u8',
        createdAt: Date.now(),
      },
      count + 1,
    ),
  );
}

async function main(): Promise<void> {
  const loadBefore = machineLoad();
  const dir = await mkdtemp(join(tmpdir(), 'onair-startup-'));
  // Bundles keep @aws-sdk/* external (the Lambda runtime has it): resolve it from the repository's.
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  progress('starting the local cloud (DynamoDB Local, fauxqs)');
  const cloud = await startLocalCloud();
  Object.assign(process.env, cloud.env);
  try {
    const fns = await lambdas(dir, cloud.env);
    progress('bundling the engine as engine-container/Dockerfile does');
    const engine = await bundleForNode(join(ROOT, 'engine-container/host/main.ts'), join(dir, 'engine.mjs'));
    const engineEnv = {
      ...cloud.env,
      ALLOW_PRIVATE_URLS: 'true',
      ENGINE_STATIC_DIR: join(ROOT, 'engine-container/static'),
    };
    const empty = [];
    for (let r = 0; r < RUNS; r++) empty.push(await engineStartMs(engine.file, engineEnv));
    progress(`writing ${CHANNELS} channels to the channel table`);
    await fillChannelTable(CHANNELS);
    const full = [];
    for (let r = 0; r < RUNS; r++) full.push(await engineStartMs(engine.file, engineEnv));
    const results = {
      startedAt: new Date().toISOString(),
      loadAverage: { before: loadBefore, after: machineLoad() },
      node: process.version,
      lambdas: fns,
      engine: { bundleBytes: engine.bytes, channels: CHANNELS, emptyTableMs: empty, fullTableMs: full },
    };
    const lines = [
      `Start-up: load average ${loadBefore} at the start, ${results.loadAverage.after} at the end; node ${process.version}; median of ${RUNS} runs`,
      '',
      'Lambda bundles (lib/api-function.ts options; @aws-sdk/* from the runtime), init = a cold import:',
      ...fns.map(
        (f) =>
          `  ${f.name.padEnd(31)} ${kb(f.bytes).padStart(8)} (${kb(f.gzipBytes).padStart(6)} gzip)  init ${median(f.initMs).toFixed(0).padStart(4)} ms (min ${Math.min(...f.initMs).toFixed(0)})`,
      ),
      '',
      `Engine container (bundled ${kb(engine.bytes)}), spawn to /health 200:`,
      `  empty channel table: ${median(empty).toFixed(0)} ms (min ${Math.min(...empty).toFixed(0)})`,
      `  ${CHANNELS} channels:      ${median(full).toFixed(0)} ms (min ${Math.min(...full).toFixed(0)})  ` +
        `[${median(full) < 1000 ? 'met' : 'NOT met'}] target < 1 s`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    await writeFile(opts.out, `${JSON.stringify(results, null, 2)}\n`);
    progress(`results written to ${opts.out}`);
  } finally {
    await cloud.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
