/**
 * The Dockerfiles `npm run images` builds are the ones the stack deploys, on the one base it stands in
 * for, and they carry nothing of this machine (docs/rehearsal.md, "Building the images here").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_IMAGE, DEPLOYED_IMAGES } from '../../scripts/images/image-names';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function tsFilesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/** The Dockerfiles lib/ hands to `imageFromRepo(...)`: what `cdk deploy` builds. */
function dockerfilesTheStackDeploys(): string[] {
  return tsFilesUnder('lib').flatMap((file) =>
    [...read(file).matchAll(/imageFromRepo\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!),
  );
}

/** `FROM <image> [AS <stage>]` lines, without those that start from an earlier stage. */
function baseImages(dockerfile: string): string[] {
  const text = read(dockerfile);
  const stages = [...text.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((match) => match[1]!);
  return [...text.matchAll(/^FROM\s+(\S+)/gim)]
    .map((match) => match[1]!)
    .filter((from) => !stages.includes(from));
}

const qualified = (name: string) => (name.includes('/') ? name : `docker.io/library/${name}`);

describe('the images npm run images builds', () => {
  it('are every image the stack deploys, and only those', () => {
    const deployed = dockerfilesTheStackDeploys();
    expect(deployed.length).toBeGreaterThan(0);
    expect(DEPLOYED_IMAGES.map((image) => image.dockerfile).sort()).toEqual([...new Set(deployed)].sort());
  });

  it('start from the one base image the stand-in is tagged as', () => {
    for (const { dockerfile } of DEPLOYED_IMAGES) {
      const bases = baseImages(dockerfile);
      expect(bases.length, dockerfile).toBeGreaterThan(0);
      expect(bases.map(qualified), dockerfile).toEqual(bases.map(() => BASE_IMAGE));
    }
  });

  it('carry no certificate of the machine that built them (that is the stand-in base only)', () => {
    for (const { dockerfile } of DEPLOYED_IMAGES) {
      expect(read(dockerfile), dockerfile).not.toMatch(/NODE_EXTRA_CA_CERTS|share\/ca-certificates|\.crt\b/);
    }
  });
});

describe('one Node major everywhere', () => {
  const major = BASE_IMAGE.match(/node:(\d+)-/)![1]!;

  it('is the base image’s, and the bundles target it', () => {
    for (const { dockerfile } of DEPLOYED_IMAGES) {
      const targets = [...read(dockerfile).matchAll(/--target=node(\d+)/g)].map((match) => match[1]);
      expect(targets, dockerfile).toEqual(targets.map(() => major));
    }
  });

  it('is the Lambda runtime of every function', () => {
    const runtimes = tsFilesUnder('lib').flatMap((file) =>
      [...read(file).matchAll(/Runtime\.NODEJS_(\d+)_X/g)].map((match) => match[1]),
    );
    expect(runtimes.length).toBeGreaterThan(0);
    expect(runtimes).toEqual(runtimes.map(() => major));
  });

  it('is the lowest Node package.json accepts', () => {
    expect(JSON.parse(read('package.json')).engines.node).toBe(`>=${major}`);
  });
});
