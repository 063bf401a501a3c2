/**
 * `npm run images`: every image the stack deploys, built here with podman from the real Dockerfiles
 * (docs/rehearsal.md, "Building the images here"). Docker Hub is out of reach, so the base image is
 * stood in for first (stand-in-base.ts) unless podman already has it; builds never pull.
 *
 *   npm run images                  # the stand-in base if missing, then every deployed image
 *   npm run images -- --rebuild-base  # make the stand-in base again
 *   npm run images -- --no-cache    # build the images without podman's layer cache
 *   npm run images -- --verbose     # show the builders' output as it comes (it is always logged)
 *
 * Prints how long each step took and each image's size; exits non-zero with the builder's output
 * when a step fails. Logs: .cache/images/.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_IMAGE, DEPLOYED_IMAGES } from './image-names';
import { HOST_NETWORK, imageExistsSync, imageSize, podmanCommand } from './podman';
import { runLogged } from './run-logged';
import { buildStandInBase } from './stand-in-base';
import { createStepTimer } from './step-timer';

const root = join(import.meta.dirname, '..', '..');
const logDir = join(root, '.cache', 'images');
const FLAGS = ['--rebuild-base', '--no-cache', '--verbose'];
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((arg) => !FLAGS.includes(arg));
if (unknown.length) {
  console.error(`npm run images: unknown ${unknown.join(' ')} (flags: ${FLAGS.join(' ')})`);
  process.exit(2);
}
const echo = args.has('--verbose');
const timer = createStepTimer();

await mkdir(logDir, { recursive: true });
try {
  if (args.has('--rebuild-base') || !imageExistsSync(BASE_IMAGE)) {
    const caBundle = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
    const workDir = join(logDir, 'base');
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    const nodeVersion = await buildStandInBase({ workDir, caBundle, echo }, timer);
    timer.note(`stand-in base ${BASE_IMAGE}: Node ${nodeVersion}`);
  } else {
    timer.note(`stand-in base ${BASE_IMAGE}: present, kept (--rebuild-base makes it again)`);
  }
  for (const image of DEPLOYED_IMAGES) {
    const build = [
      'build',
      '--pull=never',
      // Docker's image format, as `cdk deploy` builds it: OCI drops the Dockerfile's HEALTHCHECK.
      '--format=docker',
      HOST_NETWORK,
      ...(args.has('--no-cache') ? ['--no-cache'] : []),
      '--file',
      image.dockerfile,
      '--tag',
      image.tag,
      root,
    ];
    await timer.step(`${image.label}: podman build -f ${image.dockerfile} -t ${image.tag}`, () => {
      const { command, args: full, env } = podmanCommand(build);
      return runLogged(command, full, { env, cwd: root, logFile: join(logDir, `${image.label}.log`), echo });
    });
  }
  for (const name of [BASE_IMAGE, ...DEPLOYED_IMAGES.map((image) => image.tag)]) {
    timer.note(`${name}: ${((await imageSize(name)) / 1e6).toFixed(0)} MB`);
  }
  timer.note(`total: ${timer.totalSeconds().toFixed(1)} s`);
} catch (err) {
  console.error(`\nnpm run images failed: ${(err as Error).message}`);
  process.exit(1);
}
