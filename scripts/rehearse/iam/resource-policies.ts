/**
 * The resource policies of a template that the calls can meet: S3 bucket policies (their objects
 * too), SQS queue policies, SNS topic policies and KMS key policies, each keyed by the ARN it protects.
 */
import type { PolicyDocument } from './policy';
import { type CfnTemplate, type PhysicalLookup, resolve, resolveString, resourcesOfType } from './template';

export interface ResourcePolicy {
  /** The logical id of the policy (or of the key, for a key policy). */
  logicalId: string;
  /** The ARN of the bucket, queue, topic or key. */
  resourceArn: string;
  /** Bucket policies also govern `<bucket ARN>/<key>`. */
  coversChildren: boolean;
  document: PolicyDocument;
}

export function resourcePoliciesOf(template: CfnTemplate, lookup: PhysicalLookup): ResourcePolicy[] {
  const policies: ResourcePolicy[] = [];
  const document = (value: unknown) => resolve(value, lookup) as PolicyDocument;
  for (const [id, r] of resourcesOfType(template, 'AWS::S3::BucketPolicy')) {
    const bucket = resolveString(r.Properties?.Bucket, lookup);
    const resourceArn =
      arnOfRef(template, lookup, 'AWS::S3::Bucket', bucket) ??
      `arn:${lookup.ref('AWS::Partition')}:s3:::${bucket}`;
    policies.push({
      logicalId: id,
      resourceArn,
      coversChildren: true,
      document: document(r.Properties?.PolicyDocument),
    });
  }
  for (const [id, r] of resourcesOfType(template, 'AWS::SQS::QueuePolicy'))
    for (const url of (resolve(r.Properties?.Queues, lookup) ?? []) as string[]) {
      const resourceArn = arnOfRef(template, lookup, 'AWS::SQS::Queue', url);
      if (resourceArn)
        policies.push({
          logicalId: id,
          resourceArn,
          coversChildren: false,
          document: document(r.Properties?.PolicyDocument),
        });
    }
  for (const [id, r] of resourcesOfType(template, 'AWS::SNS::TopicPolicy'))
    for (const topicArn of (resolve(r.Properties?.Topics, lookup) ?? []) as string[])
      policies.push({
        logicalId: id,
        resourceArn: topicArn,
        coversChildren: false,
        document: document(r.Properties?.PolicyDocument),
      });
  for (const [id, r] of resourcesOfType(template, 'AWS::KMS::Key'))
    if (r.Properties?.KeyPolicy)
      policies.push({
        logicalId: id,
        resourceArn: lookup.getAtt(id, 'Arn'),
        coversChildren: false,
        document: document(r.Properties.KeyPolicy),
      });
  return policies;
}

/** The policy governing `arn` (statements of every policy on it, merged), if any. */
export function resourcePolicyFor(policies: ResourcePolicy[], arn: string): PolicyDocument | undefined {
  const statements = policies
    .filter((p) => arn === p.resourceArn || (p.coversChildren && arn.startsWith(`${p.resourceArn}/`)))
    .flatMap((p) => (Array.isArray(p.document.Statement) ? p.document.Statement : [p.document.Statement]));
  return statements.length ? { Version: '2012-10-17', Statement: statements } : undefined;
}

/** The Arn of the resource of `type` whose Ref is `ref`. */
function arnOfRef(
  template: CfnTemplate,
  lookup: PhysicalLookup,
  type: string,
  ref: string,
): string | undefined {
  const match = resourcesOfType(template, type).find(([id]) => lookup.ref(id) === ref);
  return match ? lookup.getAtt(match[0], 'Arn') : undefined;
}
