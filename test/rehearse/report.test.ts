import { describe, expect, it } from 'vitest';
import type { AwsCall } from '../../scripts/rehearse/iam/calls';
import { formatReport } from '../../scripts/rehearse/iam/format-report';
import type { RolePrincipal } from '../../scripts/rehearse/iam/principals';
import { buildReport, type CheckedCall } from '../../scripts/rehearse/iam/report';

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/jobs';
const role: RolePrincipal = {
  logicalId: 'WorkerRole',
  arn: 'arn:aws:iam::123456789012:role/WorkerRole',
  usedBy: [{ logicalId: 'Worker', as: 'task' }],
  unknownManagedPolicies: [],
  policies: [
    {
      name: 'WorkerPolicy',
      source: 'AWS::IAM::Policy',
      document: {
        Statement: [
          {
            Effect: 'Allow',
            Action: ['dynamodb:GetItem', 'dynamodb:Put*'],
            Resource: [TABLE, `${TABLE}/index/*`],
          },
        ],
      },
    },
  ],
};
const checked = (
  action: string,
  resource: string,
  decision: CheckedCall['decision'] = 'Allowed',
): CheckedCall => {
  const call: AwsCall = {
    principal: 'WorkerRole',
    service: 'dynamodb',
    operation: action.split(':')[1]!,
    action,
    resources: [resource],
    status: 200,
  };
  return { call, resource, decision };
};

describe('the IAM report', () => {
  it('lists granted actions never used, wildcards expanded against the known actions, and resources never touched', () => {
    const report = buildReport([role], [checked('dynamodb:GetItem', TABLE)], {
      dynamodb: ['GetItem', 'PutItem', 'PutResourcePolicy'],
    });
    expect(report.principals[0]!.unusedGrants).toEqual([
      {
        policy: 'WorkerPolicy',
        statement: '0',
        actions: ['dynamodb:PutItem', 'dynamodb:PutResourcePolicy'],
        resources: [`${TABLE}/index/*`],
      },
    ]);
  });

  it('counts calls per action and resource, and lists the denials', () => {
    const report = buildReport(
      [role],
      [
        checked('dynamodb:GetItem', TABLE),
        checked('dynamodb:GetItem', TABLE),
        checked('dynamodb:DeleteItem', TABLE, 'ImplicitlyDenied'),
      ],
      {},
    );
    expect(report.principals[0]!.calls.map((c) => [c.action, c.count, c.decision])).toEqual([
      ['dynamodb:DeleteItem', 1, 'ImplicitlyDenied'],
      ['dynamodb:GetItem', 2, 'Allowed'],
    ]);
    expect([report.ok, report.denied, report.principals[0]!.denials.map((d) => d.action)]).toEqual([
      false,
      1,
      ['dynamodb:DeleteItem'],
    ]);
  });

  it('prints the verdict first and each denial with its resource', () => {
    const text = formatReport(
      buildReport([role], [checked('dynamodb:DeleteItem', TABLE, 'ImplicitlyDenied')], {}),
    );
    expect(text.split('\n')[0]).toMatch(/^IAM: FAILED: 1 checks, 1 denied/);
    expect(text).toContain(`✗ dynamodb:DeleteItem ${TABLE} ×1 (DeleteItem) ImplicitlyDenied`);
  });

  it('prints allowed calls one line per action, with the first resources and how many more', () => {
    const objects = ['a', 'b', 'c', 'd', 'e'].map((k) => `${TABLE}/${k}`);
    const text = formatReport(
      buildReport(
        [role],
        objects.map((o) => checked('dynamodb:GetItem', o)),
        {},
      ),
    );
    expect(text).toContain(`✓ dynamodb:GetItem ×5 (GetItem) on ${objects.slice(0, 3).join(', ')} and 2 more`);
  });

  it('is not OK when no call was recorded at all', () => {
    expect(buildReport([role], [], {}).ok).toBe(false);
  });
});
