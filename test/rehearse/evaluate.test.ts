import { describe, expect, it } from 'vitest';
import type { AwsCall } from '../../scripts/rehearse/iam/calls';
import { defaultLookup } from '../../scripts/rehearse/iam/default-lookup';
import { executionRoleCalls } from '../../scripts/rehearse/iam/ecs-execution-calls';
import { evaluateCalls } from '../../scripts/rehearse/iam/evaluate';
import { lambdaServiceCalls } from '../../scripts/rehearse/iam/lambda-service-calls';
import { idStartingWith, smallApp } from './support/small-app';

describe('evaluating recorded calls against the synthesized policies', () => {
  const template = smallApp();
  const lookup = defaultLookup(template);
  const reader = idStartingWith(template, 'ReaderServiceRole');
  const table = lookup.getAtt(idStartingWith(template, 'Channels'), 'Arn');
  const object = `${lookup.getAtt(idStartingWith(template, 'Media'), 'Arn')}/ref.mp4`;
  const call = (action: string, resource: string, context?: Record<string, string>): AwsCall => ({
    principal: reader,
    service: action.split(':')[0] as AwsCall['service'],
    operation: action.split(':')[1]!,
    action,
    resources: [resource],
    ...(context ? { context } : {}),
    status: 200,
  });
  const decisionOf = async (c: AwsCall) =>
    (await evaluateCalls(template, lookup, [c])).principals.find((p) => p.principal === reader)!.calls[0]!
      .decision;

  it('allows what the role is granted', async () => {
    expect(await decisionOf(call('dynamodb:GetItem', table))).toBe('Allowed');
  });

  it('denies what it is not: a delete on a table granted for reading', async () => {
    const report = await evaluateCalls(template, lookup, [call('dynamodb:DeleteItem', table)]);
    expect([report.ok, report.denied]).toEqual([false, 1]);
    expect(report.principals.find((p) => p.principal === reader)!.denials).toEqual([
      expect.objectContaining({
        action: 'dynamodb:DeleteItem',
        resource: table,
        decision: 'ImplicitlyDenied',
      }),
    ]);
  });

  it("applies the bucket's policy: allowed over TLS, explicitly denied without", async () => {
    expect(await decisionOf(call('s3:GetObject', object))).toBe('Allowed');
    expect(await decisionOf(call('s3:GetObject', object, { 'aws:SecureTransport': 'false' }))).toBe(
      'ExplicitlyDenied',
    );
  });

  it('reports a caller that is no role of the template', async () => {
    const report = await evaluateCalls(template, lookup, [
      { ...call('dynamodb:GetItem', table), principal: 'local' },
    ]);
    expect([report.ok, report.unknownPrincipals.map((u) => u.principal)]).toEqual([false, ['local']]);
  });

  it("allows what ECS does as the task's execution role: its log stream and its secret", async () => {
    const calls = executionRoleCalls(template, lookup, idStartingWith(template, 'Worker'), lookup.env);
    const report = await evaluateCalls(template, lookup, calls);
    expect(calls.map((c) => c.action)).toEqual([
      'secretsmanager:GetSecretValue',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
    expect([report.ok, report.denied]).toEqual([true, 0]);
  });

  it("allows what the Lambda service does as the function's role: its logs and polling its queue", async () => {
    const calls = lambdaServiceCalls(template, lookup, idStartingWith(template, 'Reader'), lookup.env);
    const queue = lookup.getAtt(idStartingWith(template, 'Events'), 'Arn');
    expect(calls.filter((c) => c.service === 'sqs').map((c) => [c.action, c.resources])).toEqual([
      ['sqs:ReceiveMessage', [queue]],
      ['sqs:DeleteMessage', [queue]],
      ['sqs:GetQueueAttributes', [queue]],
    ]);
    const report = await evaluateCalls(template, lookup, calls);
    expect([report.ok, report.checks]).toEqual([true, 5]);
  });
});
