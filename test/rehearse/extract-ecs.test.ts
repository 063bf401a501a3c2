import { describe, expect, it } from 'vitest';
import { DEFAULT_ENV } from '../../scripts/rehearse/iam/aws-env';
import { extractEcs } from '../../scripts/rehearse/iam/extract/ecs';

const extract = (operation: string, input: unknown) =>
  extractEcs(
    {
      method: 'POST',
      path: '/',
      query: new URLSearchParams(),
      headers: { 'x-amz-target': `AmazonEC2ContainerServiceV20141113.${operation}` },
      body: Buffer.from(JSON.stringify(input)),
    },
    DEFAULT_ENV,
  ).authorizations;

describe('ECS requests as IAM authorizations', () => {
  it("authorizes UpdateService on the service's ARN under its cluster, whether the cluster is named or an ARN", () => {
    const arn = 'arn:aws:ecs:us-east-1:123456789012:service/onair/engine';
    expect([
      extract('UpdateService', { cluster: 'onair', service: 'engine', desiredCount: 2 })[0]!.resources,
      extract('UpdateService', {
        cluster: 'arn:aws:ecs:us-east-1:123456789012:cluster/onair',
        service: 'engine',
      })[0]!.resources,
    ]).toEqual([[arn], [arn]]);
  });

  it('authorizes DescribeTasks on each task, named by id or ARN', () => {
    expect(
      extract('DescribeTasks', {
        cluster: 'onair',
        tasks: ['abc', 'arn:aws:ecs:us-east-1:123456789012:task/onair/def'],
      })[0]!.resources,
    ).toEqual([
      'arn:aws:ecs:us-east-1:123456789012:task/onair/abc',
      'arn:aws:ecs:us-east-1:123456789012:task/onair/def',
    ]);
  });

  it('authorizes RunTask of a family:revision on its task definition ARN', () => {
    expect(extract('RunTask', { cluster: 'onair', taskDefinition: 'worker:3' })).toEqual([
      {
        action: 'ecs:RunTask',
        resources: ['arn:aws:ecs:us-east-1:123456789012:task-definition/worker:3'],
        context: { 'ecs:cluster': 'arn:aws:ecs:us-east-1:123456789012:cluster/onair' },
      },
    ]);
  });
});
