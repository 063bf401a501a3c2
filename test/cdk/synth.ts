/**
 * Synthesises an onair stage offline with cdk-nag's AwsSolutions checks, and hands back what the stack
 * tests look at. Neither Lambdas nor images are built: the tests read the template, and the bundles are
 * built and run by the deployment rehearsal (`npm run rehearse`), which synthesises as `cdk deploy` does.
 * Bundling eleven Lambdas was a third of each synthesis's CPU (7 of 18-25 s). A synthesis is a pure
 * function of the checkout, the stage and the context, and still takes over ten seconds of CPU: the first file
 * of a run to ask for one makes it and leaves it in the run's folder (test/support/run/run-folder.ts);
 * the others read it, waiting for it if it is being made.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { OnairStack } from '../../lib/onair-stack';
import { runFolder } from '../support/run/run-folder';

export interface Synthesised {
  template: Template;
  /** cdk-nag errors and warnings not suppressed: `<rule>: <path>`. */
  nagFindings: string[];
  /** The Docker image assets' sources (Dockerfile, platform) and what their staged build context holds. */
  dockerImages: { dockerFile?: string; platform?: string; contextEntries: string[] }[];
  /** Whether CloudFormation refuses to delete the stack. */
  terminationProtection: boolean;
}

export function synth(stage: 'test' | 'prod', context: Record<string, string> = {}): Synthesised {
  const folder = runFolder();
  if (!folder) return synthNow(stage, context);
  const key = createHash('sha256')
    .update(JSON.stringify([stage, context]))
    .digest('hex')
    .slice(0, 16);
  const file = join(folder, `synth-${key}.json`);
  const making = `${file}.making`;
  // Files start together: one makes each synthesis, the others wait for its result rather than make it
  // again on the same two cores. A maker that fails removes its mark, and a waiter then makes its own.
  if (!existsSync(file) && !claim(making)) waitWhile(() => !existsSync(file) && existsSync(making));
  if (existsSync(file)) {
    const { template, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Stored;
    return { ...rest, template: Template.fromJSON(template) };
  }
  try {
    const made = synthNow(stage, context);
    const stored: Stored = { ...made, template: made.template.toJSON() };
    // Written whole, then renamed: a file reading it at the same time sees all of it or none.
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(stored));
    renameSync(`${file}.${process.pid}`, file);
    return made;
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
}

/** Whether this process took the mark (a folder: made or refused at once, across processes). */
function claim(mark: string): boolean {
  try {
    mkdirSync(mark);
    return true;
  } catch {
    return false;
  }
}

/** Blocks while `condition` holds, looking every 200 ms, for at most five minutes (synth is synchronous). */
function waitWhile(condition: () => boolean): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 300_000;
  while (condition() && Date.now() < deadline) Atomics.wait(cell, 0, 0, 200);
}

type Stored = Omit<Synthesised, 'template'> & { template: Record<string, unknown> };

function synthNow(stage: 'test' | 'prod', context: Record<string, string>): Synthesised {
  // No stack bundled (the context the CDK CLI sets to bundle only the stacks it works on): each Lambda's
  // code is a placeholder asset.
  const app = new App({ context: { ...context, [cxapi.BUNDLING_STACKS]: [] } });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const stack = new OnairStack(app, `onair-${stage}`, {
    stage,
    env: { account: '111111111111', region: 'eu-west-1' },
  });
  const template = Template.fromStack(stack);
  const annotations = Annotations.fromStack(stack);
  const nag = Match.stringLikeRegexp('AwsSolutions-');
  const nagFindings = [...annotations.findError('*', nag), ...annotations.findWarning('*', nag)].map(
    (m) => `${String(m.entry.data).split(':')[0]}: ${m.id}`,
  );
  const assembly = app.synth();
  const manifest = assembly.artifacts.find(
    (a): a is cxapi.AssetManifestArtifact => a instanceof cxapi.AssetManifestArtifact,
  );
  // Staged as `cdk deploy` stages it: the build context copied through the root's .dockerignore.
  const dockerImages = Object.values(manifest?.contents.dockerImages ?? {}).map(({ source }) => ({
    ...source,
    contextEntries: readdirSync(join(assembly.directory, source.directory ?? '.')).sort(),
  }));
  return { template, nagFindings, dockerImages, terminationProtection: stack.terminationProtection };
}

type WithMetadata = { Metadata?: { cdk_nag?: { rules_to_suppress?: { id: string; reason: string }[] } } };

/** Every cdk-nag suppression in the template (the stack's and each resource's), with its reason. */
export function nagSuppressions(template: Template): { id: string; reason: string }[] {
  const json = template.toJSON() as WithMetadata & { Resources: Record<string, WithMetadata> };
  return [json, ...Object.values(json.Resources)].flatMap(
    (r) => r.Metadata?.cdk_nag?.rules_to_suppress ?? [],
  );
}
