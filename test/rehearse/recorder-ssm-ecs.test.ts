import { ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs';
import { GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from '../../scripts/rehearse/iam/recorder';
import { type AwsTarget, startAwsTarget } from './support/aws-target';
import { signedAs } from './support/client-config';

describe('the recording proxy, for SSM and ECS', () => {
  let target: AwsTarget;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    target = await startAwsTarget();
    proxy = await startRecordingProxy({
      targets: { ssm: target.url, ecs: target.url },
      env: { account: '111111111111' },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await target?.close();
  });
  const callsOf = (operation: string) => proxy.calls().filter((c) => c.operation === operation);

  it('records GetParameters on each named parameter, its leading slash dropped from the ARN', async () => {
    const ssm = new SSMClient(signedAs('EngineTaskRole', proxy.endpoints.ssm!));
    await ssm.send(
      new GetParametersCommand({
        Names: ['/onair/test/key/current', '/onair/test/key/next'],
        WithDecryption: true,
      }),
    );
    ssm.destroy();
    expect(callsOf('GetParameters').map((c) => [c.principal, c.action, c.resources])).toEqual([
      [
        'EngineTaskRole',
        'ssm:GetParameters',
        [
          'arn:aws:ssm:us-east-1:111111111111:parameter/onair/test/key/current',
          'arn:aws:ssm:us-east-1:111111111111:parameter/onair/test/key/next',
        ],
      ],
    ]);
  });

  it('records RunTask on the task definition with its cluster, and iam:PassRole for a role it overrides', async () => {
    const ecs = new ECSClient(signedAs('DispatcherRole', proxy.endpoints.ecs!));
    const taskDefinition = 'arn:aws:ecs:us-east-1:111111111111:task-definition/worker:1';
    const taskRoleArn = 'arn:aws:iam::111111111111:role/Other';
    await ecs.send(new RunTaskCommand({ cluster: 'onair', taskDefinition, overrides: { taskRoleArn } }));
    ecs.destroy();
    expect(callsOf('RunTask').map((c) => [c.action, c.resources, c.context])).toEqual([
      [
        'ecs:RunTask',
        [taskDefinition],
        { 'ecs:cluster': 'arn:aws:ecs:us-east-1:111111111111:cluster/onair' },
      ],
      ['iam:PassRole', [taskRoleArn], undefined],
    ]);
  });
});
