/**
 * The VPC: public subnets for the Fargate tasks (they reach DynamoDB, ECR, SSM and VOD hosts directly,
 * no NAT gateway to pay for; their security groups admit nothing from outside) and isolated subnets
 * for the internal load balancer, which only CloudFront's VPC origin reaches. Rejected traffic is
 * logged (flow logs) for a look at what knocked.
 */
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export class Network extends Construct {
  readonly vpc: ec2.Vpc;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 20 },
        { name: 'origin', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
      ],
      flowLogs: {
        rejected: {
          trafficType: ec2.FlowLogTrafficType.REJECT,
          destination: ec2.FlowLogDestination.toCloudWatchLogs(
            new logs.LogGroup(this, 'FlowLogs', { retention: logs.RetentionDays.TWO_WEEKS }),
          ),
        },
      },
    });
  }
}
