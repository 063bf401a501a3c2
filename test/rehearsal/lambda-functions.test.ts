import { describe, expect, it } from 'vitest';
import type { RehearsedTemplate } from '../../scripts/rehearse/cloud';
import { customResourceCreates } from '../../scripts/rehearse/custom-resources';
import { defaultLookup } from '../../scripts/rehearse/iam/default-lookup';
import { lambdaFunctions, rateMs } from '../../scripts/rehearse/lambda/functions';

const fn = (handler: string, role: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Lambda::Function',
  Properties: { Handler: handler, Runtime: 'nodejs22.x', Role: { 'Fn::GetAtt': [role, 'Arn'] }, ...extra },
  Metadata: { 'aws:asset:path': `asset.${role}` },
});

const template: RehearsedTemplate = {
  Resources: {
    ApiRole: { Type: 'AWS::IAM::Role' },
    Api: fn('index.handler', 'ApiRole', { Environment: { Variables: { TABLE: { Ref: 'Table' } } } }),
    HttpApi: { Type: 'AWS::ApiGatewayV2::Api' },
    Integration: {
      Type: 'AWS::ApiGatewayV2::Integration',
      Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationUri: { 'Fn::GetAtt': ['Api', 'Arn'] } },
    },
    Timer: fn('index.handler', 'TimerRole'),
    EveryMinute: {
      Type: 'AWS::Events::Rule',
      Properties: {
        ScheduleExpression: 'rate(1 minute)',
        Targets: [{ Arn: { 'Fn::GetAtt': ['Timer', 'Arn'] } }],
      },
    },
    Queue: { Type: 'AWS::SQS::Queue' },
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        BatchSize: 5,
        EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] },
        FunctionName: { Ref: 'Timer' },
      },
    },
    Create: fn('index.handler', 'CreateRole'),
    Framework: fn('framework.onEvent', 'FrameworkRole', {
      Environment: { Variables: { USER_ON_EVENT_FUNCTION_ARN: { 'Fn::GetAtt': ['Create', 'Arn'] } } },
    }),
    Keys: {
      Type: 'Custom::Keys',
      Properties: { ServiceToken: { 'Fn::GetAtt': ['Framework', 'Arn'] }, Prefix: '/app/keys' },
    },
    Deploy: fn('index.handler', 'DeployRole', { Runtime: 'python3.13' }),
    Table: { Type: 'AWS::DynamoDB::GlobalTable' },
  },
};

describe('the functions the rehearsal runs', () => {
  const { functions, skipped } = lambdaFunctions(template, '/out');
  const byId = (id: string) => functions.find((f) => f.id === id);

  it('runs each from its bundle folder and handler, as its role', () => {
    expect(byId('Api')).toMatchObject({
      bundleDir: '/out/asset.ApiRole',
      handler: 'index.handler',
      roleId: 'ApiRole',
    });
    expect(byId('Api')?.environment).toEqual({ TABLE: { Ref: 'Table' } });
  });

  it('knows what triggers each: API integrations, schedule rules and queue mappings', () => {
    expect(byId('Api')).toMatchObject({ apis: ['HttpApi'], schedules: [], queues: [] });
    expect(byId('Timer')).toMatchObject({
      apis: [],
      schedules: [{ ruleId: 'EveryMinute', expression: 'rate(1 minute)' }],
      queues: [{ queueId: 'Queue', batchSize: 5 }],
    });
  });

  it("skips CDK's provider framework and Python functions, saying why", () => {
    expect(skipped.map((s) => s.id).sort()).toEqual(['Deploy', 'Framework']);
    expect(skipped.every((s) => s.why.length > 20)).toBe(true);
    expect(byId('Create')).toBeDefined();
  });

  it('sends a custom resource its Create event at the function behind the provider framework', () => {
    const [create] = customResourceCreates(template, defaultLookup(template), 'us-east-1', '123456789012');
    expect(create).toMatchObject({
      resourceId: 'Keys',
      functionId: 'Create',
      event: { RequestType: 'Create', ResourceType: 'Custom::Keys', LogicalResourceId: 'Keys' },
    });
    expect(create?.event.ResourceProperties).toMatchObject({ Prefix: '/app/keys' });
  });

  it('reads rate() schedules and refuses others', () => {
    expect(rateMs('rate(1 minute)')).toBe(60_000);
    expect(rateMs('rate(2 minutes)')).toBe(120_000);
    expect(() => rateMs('cron(0 * * * ? *)')).toThrow(/rate/);
  });
});
