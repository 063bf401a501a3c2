/**
 * The synthesised CloudFormation of both stages: the resources onair depends on (with the keys the local
 * cloud uses), what is protected and how, and cdk-nag's AwsSolutions checks with nothing left unexplained.
 * The prod stage is synthesised with a custom playback domain and an extra AutoABR bucket.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TableDef, tables } from '../../core/resources';
import { WORKER_HEARTBEAT_TIMEOUT_MS } from '../../lib/autoabr-service';
import { nagSuppressions, type Synthesised, synth } from './synth';

const CERTIFICATE = 'arn:aws:acm:us-east-1:111111111111:certificate/abc-123';
const PROD_CONTEXT = {
  playbackDomain: 'tv.example.com',
  playbackCertificateArn: CERTIFICATE,
  autoabrBuckets: 'media-in',
  alarmEmail: 'ops@example.com',
};

/** Every IAM policy statement of the template, with the policy's logical id. */
function statements(t: Template): { policy: string; Action: string | string[]; Resource: unknown }[] {
  return Object.entries(t.findResources('AWS::IAM::Policy')).flatMap(([policy, r]) =>
    (r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).map(
      (s) => ({ policy, ...s }),
    ),
  );
}
const actionsOf = (s: { Action: string | string[] }) => [s.Action].flat();

describe('the onair stack', () => {
  let test: Synthesised;
  let prod: Synthesised;
  let template: Template;
  beforeAll(() => {
    test = synth('test');
    prod = synth('prod', PROD_CONTEXT);
    template = test.template;
  }, 300_000);

  describe('state', () => {
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

    it('keeps production tables when the stack is deleted and protects them from deletion', () => {
      const retained = prod.template.findResources('AWS::DynamoDB::GlobalTable', {
        DeletionPolicy: 'Retain',
        Properties: { Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] },
      });
      expect(Object.keys(retained)).toHaveLength(Object.keys(tables).length);
    });

    it('leaves test-stage tables unprotected', () => {
      const protectedTables = template.findResources('AWS::DynamoDB::GlobalTable', {
        Properties: { Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] },
      });
      expect(Object.keys(protectedTables)).toHaveLength(0);
    });

    it('tags the stack with the project and the stage', () => {
      const tags = [
        { Key: 'project', Value: 'onair' },
        { Key: 'stage', Value: 'prod' },
      ];
      prod.template.hasResourceProperties('AWS::SQS::Queue', { Tags: Match.arrayWith(tags) });
      prod.template.hasResourceProperties('AWS::ECS::Cluster', { Tags: Match.arrayWith(tags) });
    });
  });

  describe('APIs', () => {
    it('runs the channel API on Node 22 Lambda with the signing keys prefix', () => {
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
      const prodToken = prod.template.findResources('AWS::ApiGatewayV2::Route', {
        Properties: { RouteKey: 'POST /token' },
      });
      expect(Object.keys(prodToken)).toHaveLength(0);
      prod.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /channel' });
    });

    it('logs every request of each API to a log group', () => {
      const stages = template.findResources('AWS::ApiGatewayV2::Stage', {
        Properties: { StageName: '$default', AccessLogSettings: { DestinationArn: Match.anyValue() } },
      });
      expect(Object.keys(stages)).toHaveLength(3);
    });

    it('serves the as-run log on both APIs, keeps it the stage days, and exports it daily at 00:30 UTC', () => {
      for (const RouteKey of ['GET /channel/{id}/asrun', 'GET /api/v1/channels/{id}/asrun'])
        template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey });
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        ContainerDefinitions: Match.arrayWith([
          Match.objectLike({
            Environment: Match.arrayWith([{ Name: 'ASRUN_RETENTION_DAYS', Value: '7' }]),
          }),
        ]),
      });
      template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'cron(30 0 * * ? *)' });
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: Match.objectLike({ TABLE_ASRUN: Match.anyValue(), BUCKET_ASRUN: Match.anyValue() }),
        },
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
  });

  describe('AutoABR auth', () => {
    it('runs the AutoABR API with AUTOABR_REQUIRE_AUTH and the public signing keys', () => {
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: Match.objectLike({
            AUTOABR_REQUIRE_AUTH: 'true',
            JWT_PUBLIC_KEY_PARAMETER: '/onair/test/jwt-public-keys',
          }),
        },
      });
    });
  });

  describe('signing keys', () => {
    it('creates the keys at deploy with a custom resource', () => {
      template.hasResourceProperties('Custom::OnairSigningKeys', { Prefix: '/onair/test/jwt-signing-key' });
    });

    it('lets no role but the key-creating function write an SSM parameter', () => {
      const writers = statements(template).filter((s) => actionsOf(s).some((a) => a.startsWith('ssm:Put')));
      expect(writers.map((s) => s.policy)).toEqual([expect.stringMatching(/^SigningKeysCreate/)]);
    });

    it('lets the channel, schedule and AutoABR APIs and the engine read keys (private or public: deployment-doors)', () => {
      const readers = statements(template).filter((s) => actionsOf(s).includes('ssm:GetParameters'));
      expect(readers.map((s) => s.policy).sort()).toEqual([
        expect.stringMatching(/^AutoabrServiceHandler/),
        expect.stringMatching(/^ChannelServiceHandler/),
        expect.stringMatching(/^EngineFleetServiceEngineTaskDefTaskRole/),
        expect.stringMatching(/^ScheduleServiceHandler/),
        expect.stringMatching(/^SigningKeysCreate/),
      ]);
    });
  });

  describe('the engine fleet', () => {
    it('runs the engine as a Fargate service behind an internal load balancer with a health check', () => {
      template.hasResourceProperties('AWS::ECS::Service', { LaunchType: 'FARGATE' });
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', { Scheme: 'internal' });
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
        HealthCheckPath: '/health',
        Port: 80,
      });
    });

    it('sets no desired count, so a deploy keeps the count the fleet dispatcher chose', () => {
      for (const t of [template, prod.template]) {
        const service = Object.values(t.findResources('AWS::ECS::Service'))[0]!;
        expect(service.Properties.DesiredCount).toBeUndefined();
      }
    });

    it('admits only the VPC (where the CloudFront VPC origin connects from) to the load balancer', () => {
      const groups = Object.values(template.findResources('AWS::EC2::SecurityGroup'));
      const ingress = groups.flatMap((g) => g.Properties.SecurityGroupIngress ?? []);
      expect(ingress.some((rule: { CidrIp?: unknown }) => rule.CidrIp === '0.0.0.0/0')).toBe(false);
      template.hasResourceProperties('AWS::EC2::SecurityGroup', {
        SecurityGroupIngress: [
          Match.objectLike({ CidrIp: { 'Fn::GetAtt': [Match.anyValue(), 'CidrBlock'] } }),
        ],
      });
    });

    it('reaches the engine from CloudFront through a VPC origin, viewers redirected to HTTPS', () => {
      template.hasResourceProperties('AWS::CloudFront::VpcOrigin', {
        VpcOriginEndpointConfig: Match.objectLike({ OriginProtocolPolicy: 'http-only' }),
      });
      template.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          Origins: Match.arrayWith([Match.objectLike({ VpcOriginConfig: Match.anyValue() })]),
          DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
        }),
      });
    });

    it("caches playback as the engine's Cache-Control says", () => {
      template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
        CachePolicyConfig: Match.objectLike({ MinTTL: 0, DefaultTTL: 0 }),
      });
    });

    it('holds viewers to TLS 1.2 on a custom playback domain', () => {
      prod.template.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          Aliases: ['tv.example.com'],
          ViewerCertificate: Match.objectLike({
            AcmCertificateArn: CERTIFICATE,
            MinimumProtocolVersion: 'TLSv1.2_2021',
          }),
        }),
      });
    });

    it('forwards /reset/* uncached with every method, for the engine to check the reset key', () => {
      template.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          CacheBehaviors: Match.arrayWith([
            Match.objectLike({
              PathPattern: '/reset/*',
              CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
              AllowedMethods: Match.arrayWith(['POST']),
            }),
          ]),
        }),
      });
    });

    it('hands the engine a generated reset key from Secrets Manager and outputs where to read it', () => {
      template.hasResourceProperties('AWS::SecretsManager::Secret', {
        GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
      });
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        ContainerDefinitions: [
          Match.objectLike({ Secrets: [{ Name: 'ENGINE_RESET_KEY', ValueFrom: Match.anyValue() }] }),
        ],
      });
      template.hasOutput('*', { Value: { Ref: Match.stringLikeRegexp('^EngineFleetServiceResetKey') } });
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

    it('sizes the fleet from both channel tables, on channel events and every two minutes', () => {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { BatchSize: 10 });
      template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(2 minutes)' });
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ TABLE_SCHEDULE_CHANNELS: Match.anyValue() }) },
      });
      const dispatcher = statements(template).filter((s) =>
        s.policy.startsWith('EngineFleetFleetDispatcher'),
      );
      expect(dispatcher.flatMap(actionsOf)).toContain('ecs:UpdateService');
      const scheduleTableReads = dispatcher.filter((s) =>
        JSON.stringify(s.Resource).includes('StateTableschedulechannels'),
      );
      expect(scheduleTableReads.flatMap(actionsOf)).toContain('dynamodb:Scan');
    });
  });

  describe('AutoABR', () => {
    it('runs its API, a dispatcher every minute and a Fargate worker task definition', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /{proxy+}' });
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        Cpu: '4096',
        Memory: '8192',
        ContainerDefinitions: Match.arrayWith([Match.objectLike({ Name: 'worker' })]),
      });
      const actions = statements(template).flatMap(actionsOf);
      expect(actions).toContain('ecs:RunTask');
    });

    it('gives the dispatcher no reserved concurrency and a heartbeat timeout that outlasts an image pull', () => {
      expect(WORKER_HEARTBEAT_TIMEOUT_MS).toBeGreaterThanOrEqual(180_000);
      const dispatcher = template.findResources('AWS::Lambda::Function', {
        Properties: { Environment: { Variables: { AUTOABR_ECS_CONTAINER: 'worker' } } },
      });
      const [fn] = Object.values(dispatcher);
      expect(fn!.Properties.ReservedConcurrentExecutions).toBeUndefined();
      expect(fn!.Properties.Environment.Variables.AUTOABR_HEARTBEAT_TIMEOUT_MS).toBe(
        String(WORKER_HEARTBEAT_TIMEOUT_MS),
      );
    });

    it("grants the worker the operator's buckets and outputs AutoABR's own bucket", () => {
      const mediaIn = statements(prod.template).filter((s) =>
        JSON.stringify(s.Resource).includes(':s3:::media-in'),
      );
      expect(mediaIn.map((s) => s.policy)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^AutoabrServiceWorkerTaskRole/)]),
      );
      expect(mediaIn.flatMap(actionsOf)).toContain('s3:PutObject');
      template.hasOutput('*', { Value: { Ref: Match.stringLikeRegexp('^StateBucketautoabr') } });
    });

    it('pins images and task definitions to linux/amd64', () => {
      expect(test.dockerImages.map((d) => d.platform)).toEqual(['linux/amd64', 'linux/amd64']);
      const taskDefinitions = Object.values(template.findResources('AWS::ECS::TaskDefinition'));
      expect(taskDefinitions.map((t) => t.Properties.RuntimePlatform)).toEqual([
        { CpuArchitecture: 'X86_64', OperatingSystemFamily: 'LINUX' },
        { CpuArchitecture: 'X86_64', OperatingSystemFamily: 'LINUX' },
      ]);
    });

    it('fails the synth on a worker size Fargate refuses', () => {
      expect(() => synth('test', { workerCpu: '4096', workerMemory: '4096' })).toThrow(/takes memory/);
    });
  });

  describe('alarms', () => {
    it('alarms on each API, unhealthy engine targets, each dead-letter queue and failed AutoABR jobs', () => {
      const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
      // … and (deployment-doors.int.test.ts) playback 5xx, no engine running, 4 scheduled functions.
      expect(alarms).toHaveLength(3 + 1 + 2 + 1 + 1 + 1 + 4);
      for (const alarm of alarms)
        expect(alarm.Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^AlarmsTopic/) }]);
    });

    it('counts failed AutoABR jobs from their log lines', () => {
      template.hasResourceProperties('AWS::Logs::MetricFilter', {
        FilterPattern: '{ $.msg = "job failed" }',
        MetricTransformations: [Match.objectLike({ MetricName: 'AutoabrJobsFailed' })],
      });
    });

    it('outputs the alarm topic and subscribes the alarm email', () => {
      template.hasOutput('*', { Value: { Ref: Match.stringLikeRegexp('^AlarmsTopic') } });
      prod.template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'ops@example.com',
      });
    });
  });

  describe('cdk-nag AwsSolutions checks', () => {
    it('finds nothing unsuppressed in the test stage', () => {
      expect(test.nagFindings).toEqual([]);
    });

    it('finds nothing unsuppressed in the prod stage', () => {
      expect(prod.nagFindings).toEqual([]);
    });

    it('gives every suppression a reason', () => {
      const suppressions = [...nagSuppressions(template), ...nagSuppressions(prod.template)];
      expect(suppressions.length).toBeGreaterThan(0);
      for (const s of suppressions) expect(s.reason.length, s.id).toBeGreaterThan(30);
    });
  });
});
