/**
 * The images `npm run images` built do what the stack deploys them for: the engine starts and answers
 * /health, and the worker's ffmpeg encodes with libx264 and scores with libvmaf (the worker's own
 * score command) as the unprivileged user the task runs as, on Node 22.
 *
 * The containers get no network of their own (`--network=none`): these checks need none, and the
 * engine, which listens on every interface of its container, is then reachable from inside it only.
 * Skips, saying why, when podman or the images are absent: CI runs `npm run images` first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/wait-for';
import { scoreArgs } from '../../functions/autoabr/domain/ffmpeg-args';
import { modelFiles, parseLibvmafHelp } from '../../functions/autoabr/domain/libvmaf';
import { MODEL_NAMES } from '../../functions/autoabr/domain/models';
import { summariseVmafLog } from '../../functions/autoabr/domain/vmaf-log';
import { BASE_IMAGE, ENGINE_IMAGE, WORKER_IMAGE } from '../../scripts/images/image-names';
import { imageExistsSync, podman, podmanAvailable } from '../../scripts/images/podman';

function whyNot(image: string): string | undefined {
  if (!podmanAvailable()) return 'podman is not installed';
  if (!imageExistsSync(image)) return `${image} is not built (npm run images)`;
  return undefined;
}

const baseSkip = whyNot(BASE_IMAGE);
const engineSkip = whyNot(ENGINE_IMAGE);
const workerSkip = whyNot(WORKER_IMAGE);
for (const reason of new Set([baseSkip, engineSkip, workerSkip]))
  if (reason) console.warn(`skipped: ${reason}`);
const titled = (title: string, skip: string | undefined) => (skip ? `${title} (skipped: ${skip})` : title);

const ISOLATED = '--network=none';
/** Commands run in a throwaway worker container, as the image's user, through its shell. */
const inWorker = (script: string) =>
  podman(['run', '--rm', ISOLATED, '--entrypoint', 'sh', WORKER_IMAGE, '-c', script]);
const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
/**
 * A guard against a hang, not a speed limit: every command starts a container, and under a full test run
 * on two cores the scoring test, alone 5 s, has taken over 60 s.
 */
const CONTAINER_TEST_MS = 180_000;

describe(titled('the base image (the stand-in, or the real one)', baseSkip), {
  timeout: CONTAINER_TEST_MS,
}, () => {
  it.skipIf(baseSkip)('has Node 22, npm and npx, and the node user (uid and gid 1000)', async () => {
    const run = (script: string) => podman(['run', '--rm', ISOLATED, BASE_IMAGE, 'sh', '-c', script]);
    expect(await run('node --version')).toMatch(/^v22\./);
    expect(await run('npm --version && npx --version')).toMatch(/^\d+\.\d+\.\d+\n\d+\.\d+\.\d+\n$/);
    expect((await run('id node')).trim()).toMatch(/^uid=1000\(node\) gid=1000\(node\)/);
  });
});

describe(titled('the engine image', engineSkip), { timeout: CONTAINER_TEST_MS }, () => {
  const name = `onair-images-test-${process.pid}`;
  afterAll(async () => {
    if (!engineSkip) await podman(['rm', '--force', '--time', '0', '--ignore', name]);
  });

  it.skipIf(engineSkip)('starts and answers /health, healthy by its own HEALTHCHECK', async () => {
    // A store that refuses at once: /health answers while the channel table is out of reach.
    const env = {
      AWS_REGION: 'eu-north-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    };
    const envArgs = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
    await podman(['run', '--detach', '--name', name, ISOLATED, ...envArgs, ENGINE_IMAGE]);
    await waitFor(
      () => podman(['healthcheck', 'run', name]),
      () => true,
      {
        timeoutMs: 30_000,
        intervalMs: 250,
        what: 'the engine container healthy',
      },
    );
    const fetchHealth = "fetch('http://127.0.0.1:8000/health').then((r) => r.text()).then(console.log)";
    const health = JSON.parse(await podman(['exec', name, 'node', '-e', fetchHealth]));
    expect(['ok', 'degraded']).toContain(health.status);
    expect((await podman(['exec', name, 'id', '-un'])).trim()).toBe('node');
  });
});

describe(titled('the AutoABR worker image', workerSkip), { timeout: CONTAINER_TEST_MS }, () => {
  it.skipIf(workerSkip)('runs Node 22', async () => {
    expect(await inWorker('node --version')).toMatch(/^v22\./);
  });

  it.skipIf(workerSkip)('has an ffmpeg with libvmaf and libx264 on its FFMPEG_PATH', async () => {
    const help = await inWorker('"$FFMPEG_PATH" -hide_banner -h filter=libvmaf 2>&1');
    expect(parseLibvmafHelp(help)).toBeDefined();
    expect(await inWorker('"$FFMPEG_PATH" -hide_banner -h encoder=libx264 2>&1')).toMatch(
      /^Encoder libx264 /m,
    );
  });

  it.skipIf(workerSkip)(
    'holds every model’s files its libvmaf needs, readable by the node user',
    async () => {
      const libvmaf = parseLibvmafHelp(await inWorker('"$FFMPEG_PATH" -hide_banner -h filter=libvmaf 2>&1'));
      const modelDir = (await inWorker('echo "$VMAF_MODEL_DIR"')).trim();
      const files = libvmaf === 'v1' ? MODEL_NAMES.flatMap((name) => modelFiles(name, modelDir)) : [];
      const unreadable = await inWorker(
        `for f in ${files.map(quote).join(' ')}; do test -r "$f" || echo "$f"; done`,
      );
      expect(unreadable).toBe('');
    },
  );

  it.skipIf(workerSkip)('scores a libx264 encode with the worker’s own libvmaf command', async () => {
    const libvmaf = parseLibvmafHelp(await inWorker('"$FFMPEG_PATH" -hide_banner -h filter=libvmaf 2>&1'));
    const modelDir = (await inWorker('echo "$VMAF_MODEL_DIR"')).trim();
    const score = scoreArgs({
      distorted: '/tmp/distorted.mp4',
      reference: '/tmp/reference.mp4',
      targets: [{ model: 'HD', logPath: '/tmp/hd.json' }],
      libvmaf: libvmaf!,
      modelDir,
      threads: 1,
      nSubsample: 1,
      pixelFormat: 'yuv420p',
    });
    const source = '-f lavfi -i testsrc2=size=320x180:rate=25:duration=0.4 -c:v libx264 -pix_fmt yuv420p';
    const log = await inWorker(
      [
        `"$FFMPEG_PATH" -hide_banner -loglevel error ${source} -qp 0 /tmp/reference.mp4`,
        `"$FFMPEG_PATH" -hide_banner -loglevel error ${source} -crf 40 /tmp/distorted.mp4`,
        // libvmaf 1.x prints its score on stdout too: only the log goes there.
        `"$FFMPEG_PATH" ${score.map(quote).join(' ')} >&2`,
        'cat /tmp/hd.json',
      ].join(' && '),
    );
    const summary = summariseVmafLog(log);
    expect(summary.frames).toBe(10);
    expect(summary.harmonicMean).toBeGreaterThan(0);
    expect(summary.harmonicMean).toBeLessThan(100);
  });
});
