/**
 * The doors a deployment must not leave open (issue 19): who may read the private signing key, API
 * throttling per stage, the alarms that say the service is down, and a prod stack that cannot be
 * deleted by accident.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesised, synth } from './synth';

let test: Synthesised;
let prod: Synthesised;

beforeAll(() => {
  test = synth('test');
  prod = synth('prod');
}, 300_000);

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** Each role's policy statements (inline policies attached to it, by the role's logical id). */
function statementsByRole(t: Template): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>();
  for (const policy of Object.values(t.findResources('AWS::IAM::Policy'))) {
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    for (const role of policy.Properties.Roles as { Ref: string }[])
      byRole.set(role.Ref, [...(byRole.get(role.Ref) ?? []), ...statements]);
  }
  return byRole;
}

/** The role of the Lambda function whose environment has `name` = `value`. */
function roleOfFunctionWith(t: Template, name: string, value: string): string {
  const fns = Object.values(t.findResources('AWS::Lambda::Function')).filter(
    (f) => f.Properties.Environment?.Variables?.[name] === value,
  );
  expect(fns, `one function with ${name}=${value}`).toHaveLength(1);
  return fns[0]!.Properties.Role['Fn::GetAtt'][0];
}

const actions = (s: Statement) => [s.Action].flat();
const readsPrivateKey = (s: Statement) =>
  s.Effect === 'Allow' &&
  JSON.stringify(s.Resource).includes('jwt-signing-key') &&
  actions(s).some((a) => /^ssm:(GetParameter|\*)|^kms:(Decrypt|\*)|^\*$/.test(a));
const decryptsAnything = (s: Statement) =>
  s.Effect === 'Allow' && actions(s).some((a) => a === 'kms:Decrypt' || a === 'kms:*' || a === '*');

describe('the signing keys', () => {
  it.each([
    ['the schedule API', 'SCHEDULE_REQUIRE_AUTH'],
    ['the AutoABR API', 'AUTOABR_REQUIRE_AUTH'],
  ])('lets %s verify tokens with the public keys only, never reading the private key', (_, flag) => {
    const role = roleOfFunctionWith(test.template, flag, 'true');
    const statements = statementsByRole(test.template).get(role) ?? [];
    expect(statements.filter(readsPrivateKey)).toEqual([]);
    expect(statements.filter(decryptsAnything)).toEqual([]);
    const readsPublic = statements.filter(
      (s) =>
        JSON.stringify(s.Resource).includes('jwt-public-keys') && actions(s).includes('ssm:GetParameters'),
    );
    expect(readsPublic).toHaveLength(1);
    const fn = Object.values(test.template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Environment?.Variables?.[flag] === 'true',
    )!;
    expect(fn.Properties.Environment.Variables).toMatchObject({
      JWT_PUBLIC_KEY_PARAMETER: '/onair/test/jwt-public-keys',
    });
    expect(fn.Properties.Environment.Variables.JWT_KEY_PARAMETER).toBeUndefined();
  });

  it('lets only the token issuers (the channel API, the engine) and the key-creating function read the private key', () => {
    const readers = [...statementsByRole(test.template)]
      .filter(([, statements]) => statements.some(readsPrivateKey))
      .map(([role]) => role)
      .sort();
    expect(readers).toEqual([
      expect.stringMatching(/^ChannelServiceHandler/),
      expect.stringMatching(/^EngineFleetServiceEngineTaskDefTaskRole/),
      expect.stringMatching(/^SigningKeysCreate/),
    ]);
  });

  it('has the key-creating function publish the public keys as parameters', () => {
    test.template.hasResourceProperties('Custom::OnairSigningKeys', {
      Prefix: '/onair/test/jwt-signing-key',
      PublicPrefix: '/onair/test/jwt-public-keys',
    });
  });
});

describe('API throttling', () => {
  it.each([
    ['test', 50, 100],
    ['prod', 500, 1000],
  ] as const)('throttles each API of the %s stage at %i requests/s, bursts of %i', (stage, rate, burst) => {
    const t = (stage === 'test' ? test : prod).template;
    const stages = Object.values(t.findResources('AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(3);
    for (const s of stages)
      expect(s.Properties.DefaultRouteSettings).toMatchObject({
        ThrottlingRateLimit: rate,
        ThrottlingBurstLimit: burst,
      });
  });
});

describe('alarms', () => {
  const alarms = (t: Template) => Object.values(t.findResources('AWS::CloudWatch::Alarm'));

  it('alarms on the CloudFront 5xx rate where CloudFront metrics are (a stack in us-east-1)', () => {
    const [alarm, ...others] = alarms(test.template).filter(
      (a) => a.Properties.Namespace === 'AWS/CloudFront' && a.Properties.MetricName === '5xxErrorRate',
    );
    expect(others).toEqual([]);
    expect(alarm?.Properties.Dimensions).toEqual(
      expect.arrayContaining([
        { Name: 'Region', Value: 'Global' },
        { Name: 'DistributionId', Value: { Ref: expect.stringMatching(/Playback/) } },
      ]),
    );
    const condition = test.template.toJSON().Conditions[alarm!.Condition];
    expect(condition).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
  });

  it('alarms when no engine task is running while the service wants one', () => {
    type Query = {
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { Namespace: string; MetricName: string } };
    };
    const [alarm, ...others] = alarms(test.template).filter((a) =>
      (a.Properties.Metrics as Query[] | undefined)?.some(
        (m) => m.MetricStat?.Metric.MetricName === 'RunningTaskCount',
      ),
    );
    expect(others).toEqual([]);
    const queries = alarm!.Properties.Metrics as Query[];
    const names = queries.flatMap((q) => (q.MetricStat ? [q.MetricStat.Metric] : []));
    expect(names).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Namespace: 'ECS/ContainerInsights', MetricName: 'RunningTaskCount' }),
        expect.objectContaining({ Namespace: 'ECS/ContainerInsights', MetricName: 'DesiredTaskCount' }),
      ]),
    );
    const expression = queries.find((q) => q.Expression)!.Expression!;
    const ids = Object.fromEntries(queries.map((q) => [q.MetricStat?.Metric.MetricName, q.Id]));
    expect(expression).toBe(
      `IF(FILL(${ids.DesiredTaskCount}, 0) >= 1 AND FILL(${ids.RunningTaskCount}, 0) < 1, 1, 0)`,
    );
    expect(alarm!.Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
    });
  });

  it.each([
    ['the auto-scheduler', /^ScheduleServiceAutoScheduler/],
    ['the AutoABR dispatcher', /^AutoabrServiceDispatcher/],
    ['the fleet dispatcher', /^EngineFleetFleetDispatcher/],
  ])('alarms on any error of %s', (_, fn) => {
    const found = alarms(test.template).filter(
      (a) =>
        a.Properties.Namespace === 'AWS/Lambda' &&
        a.Properties.MetricName === 'Errors' &&
        (a.Properties.Dimensions as { Value: { Ref?: string } }[]).some((d) => fn.test(d.Value.Ref ?? '')),
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
    });
  });
});

describe('termination protection', () => {
  it('protects the prod stack from deletion, and leaves the test stack deletable', () => {
    expect(prod.terminationProtection).toBe(true);
    expect(test.terminationProtection).toBe(false);
  });
});
