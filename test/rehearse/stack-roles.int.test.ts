import { describe, expect, it } from 'vitest';
import type { AwsCall } from '../../scripts/rehearse/iam/calls';
import { defaultLookup } from '../../scripts/rehearse/iam/default-lookup';
import { evaluateCalls } from '../../scripts/rehearse/iam/evaluate';
import { statementsOf } from '../../scripts/rehearse/iam/policy';
import { rolesOf } from '../../scripts/rehearse/iam/principals';
import { resourcePoliciesOf } from '../../scripts/rehearse/iam/resource-policies';
import { type CfnTemplate, resourcesOfType } from '../../scripts/rehearse/iam/template';
import { synth } from '../cdk/synth';

describe("the onair stack's roles, as the rehearsal reads them", () => {
  const template = synth('test').template.toJSON() as CfnTemplate;
  const lookup = defaultLookup(template);
  const roles = rolesOf(template, lookup);

  it('finds the role of every Lambda function and task definition, with its policies fully resolved', () => {
    const users = roles.flatMap((r) => r.usedBy.map((u) => u.logicalId));
    for (const type of ['AWS::Lambda::Function', 'AWS::ECS::TaskDefinition'])
      for (const [id] of resourcesOfType(template, type)) expect(users).toContain(id);
    const resolved = JSON.stringify(roles.map((r) => r.policies));
    expect(resolved).not.toMatch(/"(Ref|Fn::[A-Za-z]+)"/);
    expect(roles.every((r) => r.unknownManagedPolicies.length === 0)).toBe(true);
  });

  it("grants the channel function's role its table by the ARN the lookup gives the table", () => {
    const channelRole = roles.find((r) =>
      r.usedBy.some((u) => u.logicalId.startsWith('ChannelServiceHandler')),
    )!;
    const [tableId] = resourcesOfType(template, 'AWS::DynamoDB::GlobalTable').find(([id]) =>
      id.startsWith('StateTablechannels'),
    )!;
    const resources = channelRole.policies.flatMap((p) =>
      statementsOf(p.document).flatMap((s) => s.Resource ?? []),
    );
    expect(resources).toContain(lookup.getAtt(tableId, 'Arn'));
  });

  it("reads the buckets' and queues' TLS-only policies", () => {
    const protectedArns = resourcePoliciesOf(template, lookup).map((p) => p.resourceArn);
    for (const [id] of [
      ...resourcesOfType(template, 'AWS::S3::Bucket'),
      ...resourcesOfType(template, 'AWS::SQS::Queue'),
    ])
      expect(protectedArns).toContain(lookup.getAtt(id, 'Arn'));
  });

  it('allows the channel function its signing keys, in the account and region synthesized, and not the AutoABR jobs', async () => {
    const channelRole = roles.find((r) =>
      r.usedBy.some((u) => u.logicalId.startsWith('ChannelServiceHandler')),
    )!;
    const [jobsId] = resourcesOfType(template, 'AWS::DynamoDB::GlobalTable').find(([id]) =>
      id.startsWith('StateTableautoabrjobs'),
    )!;
    const call = (action: string, resource: string): AwsCall => ({
      principal: channelRole.logicalId,
      service: action.split(':')[0] as AwsCall['service'],
      operation: action.split(':')[1]!,
      action,
      resources: [resource],
      status: 200,
    });
    const report = await evaluateCalls(template, lookup, [
      call(
        'ssm:GetParameters',
        'arn:aws:ssm:eu-west-1:111111111111:parameter/onair/test/jwt-signing-key/current',
      ),
      call('dynamodb:GetItem', lookup.getAtt(jobsId, 'Arn')),
    ]);
    const calls = report.principals.find((p) => p.principal === channelRole.logicalId)!.calls;
    expect(calls.map((c) => [c.action, c.decision])).toEqual([
      ['dynamodb:GetItem', 'ImplicitlyDenied'],
      ['ssm:GetParameters', 'Allowed'],
    ]);
  });
});
