import { describe, expect, it } from 'vitest';
import { defaultLookup } from '../../scripts/rehearse/iam/default-lookup';
import { statementsOf } from '../../scripts/rehearse/iam/policy';
import { rolesOf } from '../../scripts/rehearse/iam/principals';
import { idStartingWith, smallApp } from './support/small-app';

describe("a template's roles", () => {
  const template = smallApp();
  const lookup = defaultLookup(template);
  const roles = rolesOf(template, lookup);
  const role = (prefix: string) => roles.find((r) => r.logicalId === idStartingWith(template, prefix))!;

  it("finds a Lambda's role with its grants (resolved to ARNs) and the AWS managed basic execution policy", () => {
    const reader = role('ReaderServiceRole');
    const table = lookup.getAtt(idStartingWith(template, 'Channels'), 'Arn');
    const statements = reader.policies.flatMap((p) => statementsOf(p.document));
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: expect.arrayContaining(['dynamodb:GetItem']), Resource: table }),
    );
    expect(reader.policies.map((p) => p.source)).toEqual(['AWS::IAM::Policy', 'aws-managed']);
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: expect.arrayContaining(['logs:PutLogEvents']) }),
    );
    expect(reader.usedBy).toEqual([{ logicalId: idStartingWith(template, 'Reader'), as: 'function' }]);
  });

  it("tells a task definition's task role from its execution role", () => {
    const taskDefinition = idStartingWith(template, 'Worker');
    expect(role('WorkerTaskRole').usedBy).toEqual([{ logicalId: taskDefinition, as: 'task' }]);
    expect(role('WorkerExecutionRole').usedBy).toEqual([{ logicalId: taskDefinition, as: 'execution' }]);
  });
});
