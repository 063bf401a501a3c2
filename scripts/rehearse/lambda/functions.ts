/**
 * The template's Lambda functions as the rehearsal runs them: bundle folder and handler, the role that is
 * their principal, their environment (unresolved), how they are triggered (API route, schedule, queue,
 * custom resource). CDK's own framework functions are listed as skipped, with why.
 */
import { join } from 'node:path';
import type { RehearsedTemplate as Template } from '../cloud';

export interface LambdaFunction {
  id: string;
  bundleDir: string;
  handler: string;
  runtime: string;
  roleId: string;
  environment: Record<string, unknown>;
  /** API Gateway HTTP APIs whose integration invokes it. */
  apis: string[];
  /** EventBridge rules that invoke it, with their schedule expression. */
  schedules: { ruleId: string; expression: string }[];
  /** SQS queues (logical ids) whose event source mapping invokes it, with the batch size. */
  queues: { queueId: string; batchSize: number }[];
}

export interface Skipped {
  id: string;
  why: string;
}

type Resource = Template['Resources'][string];
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, read by known names
const props = (r: Resource) => (r.Properties ?? {}) as Record<string, any>;
const getAttId = (v: unknown): string | undefined =>
  v && typeof v === 'object' && 'Fn::GetAtt' in v
    ? (v as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]
    : undefined;
const refId = (v: unknown): string | undefined =>
  v && typeof v === 'object' && 'Ref' in v ? String((v as { Ref: string }).Ref) : undefined;

/** Why a function is not rehearsed, or undefined when it is. */
export function skipReason(id: string, r: Resource): string | undefined {
  const p = props(r);
  if (String(p.Runtime).startsWith('python'))
    return "CDK's BucketDeployment (Python): copies the console's files into its bucket at deploy; the console is not served by the rehearsal";
  if (p.Handler === 'framework.onEvent')
    return "CDK's custom-resource provider framework: the rehearsal sends the same Create event to the function it fronts";
  if (id.startsWith('CustomS3AutoDeleteObjects'))
    return "CDK's S3 auto-delete: runs only when the stack is deleted";
  return undefined;
}

export function lambdaFunctions(
  template: Template,
  outDir: string,
): { functions: LambdaFunction[]; skipped: Skipped[] } {
  const functions: LambdaFunction[] = [];
  const skipped: Skipped[] = [];
  const resources = Object.entries(template.Resources);
  for (const [id, r] of resources) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const why = skipReason(id, r);
    if (why) {
      skipped.push({ id, why });
      continue;
    }
    const p = props(r);
    const asset = r.Metadata?.['aws:asset:path'];
    const roleId = getAttId(p.Role);
    if (typeof asset !== 'string' || !roleId) throw new Error(`${id}: no asset path or role in the template`);
    const invokes = (v: unknown) => getAttId(v) === id || refId(v) === id;
    functions.push({
      id,
      bundleDir: join(outDir, asset),
      handler: String(p.Handler),
      runtime: String(p.Runtime),
      roleId,
      environment: (p.Environment?.Variables ?? {}) as Record<string, unknown>,
      apis: resources
        .filter(([, x]) => x.Type === 'AWS::ApiGatewayV2::Integration' && invokes(props(x).IntegrationUri))
        .map(([, x]) => refId(props(x).ApiId) ?? ''),
      schedules: resources
        .filter(
          ([, x]) =>
            x.Type === 'AWS::Events::Rule' &&
            (props(x).Targets ?? []).some((t: { Arn: unknown }) => invokes(t.Arn)),
        )
        .map(([ruleId, x]) => ({ ruleId, expression: String(props(x).ScheduleExpression) })),
      queues: resources
        .filter(([, x]) => x.Type === 'AWS::Lambda::EventSourceMapping' && invokes(props(x).FunctionName))
        .map(([, x]) => ({
          queueId: getAttId(props(x).EventSourceArn) ?? '',
          batchSize: Number(props(x).BatchSize ?? 10),
        })),
    });
  }
  return { functions, skipped };
}

/** rate(1 minute), rate(2 minutes), rate(30 seconds): the period in ms. */
export function rateMs(expression: string): number {
  const m = /^rate\((\d+) (second|minute|hour|day)s?\)$/.exec(expression);
  if (!m) throw new Error(`schedule ${expression}: only rate() expressions are rehearsed`);
  const unit = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 }[m[2] as 'second'];
  return Number(m[1]) * unit;
}
