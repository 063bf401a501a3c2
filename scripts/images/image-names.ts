/**
 * The images the stack deploys (lib/: `imageFromRepo(...)`), by the names `npm run images` tags them
 * with, and the base image their Dockerfiles name. The rehearsal runs these tags.
 */

/** The one base both Dockerfiles are FROM, fully qualified as podman stores it. */
export const BASE_IMAGE = 'docker.io/library/node:22-bookworm-slim';

export const ENGINE_IMAGE = 'onair-engine:rehearsal';
export const WORKER_IMAGE = 'onair-autoabr-worker:rehearsal';

export interface DeployedImage {
  /** What the image is, for the build's report. */
  label: string;
  tag: string;
  /** Relative to the repository root, which is the build context (as `cdk deploy` builds it). */
  dockerfile: string;
}

export const DEPLOYED_IMAGES: readonly DeployedImage[] = [
  { label: 'engine', tag: ENGINE_IMAGE, dockerfile: 'engine-container/Dockerfile' },
  { label: 'worker', tag: WORKER_IMAGE, dockerfile: 'engine-container/worker.Dockerfile' },
];
