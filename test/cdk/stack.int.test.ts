/** The synthesized CloudFormation holds the resources onair depends on, with the keys the local cloud uses. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TableDef, tables } from '../../core/resources';
import { OnairStack } from '../../lib/onair-stack';

const synth = (stage: 'test' | 'prod') =>
  Template.fromStack(
    new OnairStack(new App(), `onair-${stage}`, {
      stage,
      env: { account: '111111111111', region: 'eu-west-1' },
    }),
  );

describe('the onair stack', () => {
  let template: Template;
  let prod: Template;
  beforeAll(() => {
    template = synth('test');
    prod = synth('prod');
  });

  it.each(Object.values(tables) as TableDef[])(
    'creates table $id with exactly the keys of resources.ts',
    (def) => {
      const keySchema = [
        { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
        ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' }] : []),
      ];
      const indexes = (def.indexes ?? []).map((i) =>
        Match.objectLike({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey.name, KeyType: 'HASH' },
            ...(i.sortKey ? [{ AttributeName: i.sortKey.name, KeyType: 'RANGE' }] : []),
          ],
        }),
      );
      template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        KeySchema: keySchema,
        ...(indexes.length ? { GlobalSecondaryIndexes: indexes } : {}),
        ...(def.ttlAttribute
          ? { TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true } }
          : {}),
      });
    },
  );

  it('gives every work queue a dead-letter queue', () => {
    const queues = template.findResources('AWS::SQS::Queue', {
      Properties: { RedrivePolicy: Match.anyValue() },
    });
    expect(Object.keys(queues).length).toBeGreaterThanOrEqual(2);
  });

  it('runs the channel API on Node 22 Lambda', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Environment: {
        Variables: Match.objectLike({
          ONAIR_STAGE: 'test',
          JWT_KEY_PARAMETER: '/onair/test/jwt-signing-key',
        }),
      },
    });
  });

  it('routes POST /token in the test stage only', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /token' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'DELETE /channel/{id}' });
    expect(
      Object.keys(
        prod.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: 'POST /token' } }),
      ),
    ).toHaveLength(0);
    prod.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /channel' });
  });

  it('lets the channel function read and create its signing key parameter only', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: ['ssm:GetParameter', 'ssm:PutParameter'], Resource: Match.anyValue() }),
        ]),
      },
    });
  });

  it('keeps production data when the stack is deleted', () => {
    const retained = prod.findResources('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
    expect(Object.keys(retained)).toHaveLength(Object.keys(tables).length);
  });

  it('runs the engine as a Fargate service behind a load balancer with a health check', () => {
    template.hasResourceProperties('AWS::ECS::Service', { LaunchType: 'FARGATE' });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      HealthCheckPath: '/health',
      Port: 80,
    });
    prod.hasResourceProperties('AWS::ECS::Service', { DesiredCount: 2 });
  });

  it("puts CloudFront in front of the engine with a cache policy that follows the engine's Cache-Control", () => {
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({ MinTTL: 0, DefaultTTL: 0 }),
    });
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
  });

  it('sizes the engine fleet from the channel-events queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { BatchSize: 10 });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'ecs:UpdateService' })]) },
    });
  });

  it('serves the schedule API and runs the auto-scheduler every minute', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'GET /api/v1/channels/{id}/schedule',
    });
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ SCHEDULE_REQUIRE_AUTH: 'true', SCHEDULE_BLOCK_PRIVATE_URLS: 'true' }),
      },
    });
  });

  it('points the engine at the schedule API', () => {
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      ContainerDefinitions: Match.arrayWith([
        Match.objectLike({
          Environment: Match.arrayWith([Match.objectLike({ Name: 'SCHEDULE_SERVICE_API_URL' })]),
        }),
      ]),
    });
  });

  it('runs AutoABR: its API, a single dispatcher every minute and a Fargate worker task definition', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /{proxy+}' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      ReservedConcurrentExecutions: 1,
      Environment: { Variables: Match.objectLike({ AUTOABR_ECS_CONTAINER: 'worker' }) },
    });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '4096',
      Memory: '8192',
      ContainerDefinitions: Match.arrayWith([Match.objectLike({ Name: 'worker' })]),
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'ecs:RunTask' })]) },
    });
  });
});
