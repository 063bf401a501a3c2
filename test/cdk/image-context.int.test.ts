/**
 * What `cdk deploy` builds each image from: the repository root staged through its `.dockerignore`.
 * The context is part of an image asset's hash, so anything in it that no Dockerfile copies (docs,
 * tests, the console) would make a new image, and a rolling replacement of every engine task, for an
 * edit that changes nothing they run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPLOYED_IMAGES } from '../../scripts/images/image-names';
import { synth } from './synth';

const root = join(import.meta.dirname, '..', '..');

/** The top-level entries a Dockerfile copies from its build context (`COPY --from=<stage>` aside). */
function copiedFromContext(dockerfile: string): string[] {
  const text = readFileSync(join(root, dockerfile), 'utf8');
  return [...text.matchAll(/^COPY\s+(?!--from)(.+)$/gm)].flatMap((match) =>
    match[1]!
      .trim()
      .split(/\s+/)
      .slice(0, -1)
      .map((source) => source.split('/')[0]!),
  );
}

describe('the images cdk deploy builds', () => {
  it('are built from a context holding only what their Dockerfiles copy', () => {
    const copied = new Set(DEPLOYED_IMAGES.flatMap((image) => copiedFromContext(image.dockerfile)));
    const images = synth('test').dockerImages;
    expect(images.map((image) => image.dockerFile).sort()).toEqual(
      DEPLOYED_IMAGES.map((image) => image.dockerfile).sort(),
    );
    for (const image of images) {
      // The CDK keeps .dockerignore in the staged context itself; the Dockerfiles live in engine-container/.
      expect(image.contextEntries, image.dockerFile).toEqual([...copied, '.dockerignore'].sort());
    }
  });
});
