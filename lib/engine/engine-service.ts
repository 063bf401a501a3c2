/**
 * The playout engine's Fargate service behind an internal ALB (isolated subnets: no public address;
 * it admits port 80 from inside the VPC only, which is where CloudFront's VPC origin connects from).
 * The reset key is a generated secret, handed to the tasks as ENGINE_RESET_KEY. No desired count is
 * set: the first deploy starts one task, later deploys keep what the fleet dispatcher decided.
 */
import { Duration } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as ecsPatterns from 'aws-cdk-lib/aws-ecs-patterns';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { FargateSize } from '../fargate-size';
import { ECR_AUTH_TOKEN, PLAIN_ENVIRONMENT } from '../nag-suppressions';

/**
 * How long the ALB keeps an idle connection, to CloudFront and to an engine task. The engine keeps
 * idle keep-alive connections 65 s (ENGINE_KEEP_ALIVE_S, engine-container/host/config.ts), longer
 * than this, so the ALB always closes first and never forwards a request on a socket the engine is
 * closing (a 502).
 */
export const ALB_IDLE_TIMEOUT_S = 60;

/** One architecture for images and tasks: the images are built for it, Fargate runs them on it. */
export const X86_64_LINUX: ecs.RuntimePlatform = {
  cpuArchitecture: ecs.CpuArchitecture.X86_64,
  operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
};

/**
 * A Dockerfile of engine-container/, built from the repository root for linux/amd64. The CDK reads the
 * root's `.dockerignore` as podman does: it admits only what the Dockerfiles copy, so the image's asset
 * hash, and with it the tasks, change with the code they run and not with a doc or a test.
 */
export const imageFromRepo = (file: string): ecs.ContainerImage =>
  ecs.ContainerImage.fromAsset('.', { file, platform: Platform.LINUX_AMD64 });

export interface EngineServiceProps {
  vpc: ec2.IVpc;
  cluster: ecs.ICluster;
  size: FargateSize;
  environment: Record<string, string>;
}

export class EngineService extends Construct {
  readonly service: ecsPatterns.ApplicationLoadBalancedFargateService;
  readonly loadBalancer: elbv2.ApplicationLoadBalancer;
  readonly resetKey: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: EngineServiceProps) {
    super(scope, id);
    const { vpc } = props;
    this.resetKey = new secretsmanager.Secret(this, 'ResetKey', {
      description: 'onair engine reset key (ENGINE_RESET_KEY): required by /reset/<channel>',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    this.loadBalancer = new elbv2.ApplicationLoadBalancer(this, 'LB', {
      vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      dropInvalidHeaderFields: true,
      idleTimeout: Duration.seconds(ALB_IDLE_TIMEOUT_S),
    });
    this.loadBalancer.connections.allowFrom(
      ec2.Peer.ipv4(vpc.vpcCidrBlock),
      ec2.Port.tcp(80),
      'CloudFront VPC origin',
    );

    this.service = new ecsPatterns.ApplicationLoadBalancedFargateService(this, 'Engine', {
      cluster: props.cluster,
      cpu: props.size.cpu,
      memoryLimitMiB: props.size.memoryLimitMiB,
      runtimePlatform: X86_64_LINUX,
      loadBalancer: this.loadBalancer,
      openListener: false,
      assignPublicIp: true,
      taskSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      minHealthyPercent: 100,
      circuitBreaker: { rollback: true },
      taskImageOptions: {
        image: imageFromRepo('engine-container/Dockerfile'),
        containerPort: 8000,
        environment: { port: '8000', ...props.environment },
        secrets: { ENGINE_RESET_KEY: ecs.Secret.fromSecretsManager(this.resetKey) },
        logDriver: ecs.LogDrivers.awsLogs({
          streamPrefix: 'engine',
          logGroup: new logs.LogGroup(this, 'EngineLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        }),
      },
    });
    this.service.targetGroup.configureHealthCheck({
      path: '/health',
      interval: Duration.seconds(10),
      healthyThresholdCount: 2,
    });
    this.service.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '10');
    // The pattern outputs the ALB's address, which is internal and reached by no one outside: dropped.
    this.service.node.tryRemoveChild('LoadBalancerDNS');
    this.service.node.tryRemoveChild('ServiceURL');
    this.acceptFindings();
  }

  private acceptFindings(): void {
    const taskDefinition = this.service.taskDefinition;
    NagSuppressions.addResourceSuppressions(taskDefinition, [PLAIN_ENVIRONMENT]);
    NagSuppressions.addResourceSuppressions(taskDefinition.executionRole!, [ECR_AUTH_TOKEN], true);
    NagSuppressions.addResourceSuppressions(this.resetKey, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'One shared key, rotated by an operator when needed (put-secret-value, then a forced new deployment: docs/deploy.md); no rotation Lambda for it',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      this.loadBalancer,
      [
        {
          id: 'AwsSolutions-ELB2',
          reason:
            'Internal ALB reached only through CloudFront, whose standard logs record every request with the viewer address (the ALB sees only CloudFront)',
        },
        {
          id: 'AwsSolutions-EC23',
          reason:
            'Port 80 from the VPC CIDR only (cdk-nag cannot resolve the CIDR token): where the VPC origin connects from',
        },
      ],
      true,
    );
  }

  get taskRole() {
    return this.service.taskDefinition.taskRole;
  }
}
