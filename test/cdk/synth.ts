/**
 * Synthesises an onair stage offline (Lambdas bundled by the local esbuild, images not built) with
 * cdk-nag's AwsSolutions checks, and hands back what the stack tests look at.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { OnairStack } from '../../lib/onair-stack';

export interface Synthesised {
  template: Template;
  /** cdk-nag errors and warnings not suppressed: `<rule>: <path>`. */
  nagFindings: string[];
  /** The Docker image assets' sources (Dockerfile, platform). */
  dockerImages: { dockerFile?: string; platform?: string }[];
  /** Whether CloudFormation refuses to delete the stack. */
  terminationProtection: boolean;
}

export function synth(stage: 'test' | 'prod', context: Record<string, string> = {}): Synthesised {
  const app = new App({ context });
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
  const manifest = app
    .synth()
    .artifacts.find((a): a is cxapi.AssetManifestArtifact => a instanceof cxapi.AssetManifestArtifact);
  const dockerImages = Object.values(manifest?.contents.dockerImages ?? {}).map((d) => d.source);
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
