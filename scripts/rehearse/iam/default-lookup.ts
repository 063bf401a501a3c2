/**
 * Plausible physical names and ARNs for every resource of a template, derived from logical ids the
 * way CloudFormation would shape them (a table's ARN is `...:table/<name>`, a queue's Ref is its URL).
 * `names` renames resources (every attribute then follows the new name); withOverrides() replaces
 * single values outright (e.g. a queue's Ref by the local queue's URL, its ARN kept).
 */
import { createHash } from 'node:crypto';
import { type AwsEnv, arnOf, awsEnv } from './aws-env';
import { detectEnv } from './detect-env';
import { type CfnResource, type CfnTemplate, type PhysicalLookup, resolveString } from './template';

/** Account and region default to those the template names literally (detect-env.ts), else DEFAULT_ENV's. */
export interface LookupOptions extends Partial<AwsEnv> {
  /** Physical names by logical id (a table's or bucket's name, a queue's name, a role's name ...). */
  names?: Record<string, string>;
}

export interface Physical {
  ref: string;
  attrs: Record<string, string>;
}

export interface DefaultLookup extends PhysicalLookup {
  env: AwsEnv;
}

/** A property of the resource that names it physically, when set. */
const NAME_PROPERTY: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::DynamoDB::GlobalTable': 'TableName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SSM::Parameter': 'Name',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::IAM::Policy': 'PolicyName',
  'AWS::ECS::Cluster': 'ClusterName',
  'AWS::ECS::TaskDefinition': 'Family',
  'AWS::ECS::Service': 'ServiceName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::Lambda::LayerVersion': 'LayerName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::Events::Rule': 'Name',
  'AWS::KMS::Alias': 'AliasName',
};

const PSEUDO: Record<string, (env: AwsEnv) => string> = {
  'AWS::AccountId': (e) => e.account,
  'AWS::Region': (e) => e.region,
  'AWS::Partition': (e) => e.partition,
  'AWS::URLSuffix': (e) => e.urlSuffix,
  'AWS::StackName': (e) => e.stackName,
  'AWS::StackId': (e) => arnOf(e, 'cloudformation', `stack/${e.stackName}/${fakeId(e.stackName, 8)}`),
  'AWS::NoValue': () => '',
};

export function defaultLookup(template: CfnTemplate, options: LookupOptions = {}): DefaultLookup {
  const { names = {}, ...envParts } = options;
  const env = awsEnv({ ...detectEnv(template), ...envParts });
  const cache = new Map<string, Physical>();
  const lookup: DefaultLookup = {
    env,
    ref(id) {
      const pseudo = PSEUDO[id];
      if (pseudo) return pseudo(env);
      const parameter = template.Parameters?.[id];
      if (parameter) return String(parameter.Default ?? id);
      return physical(id).ref;
    },
    getAtt(id, attr) {
      return physical(id).attrs[attr] ?? `${physical(id).ref}.${attr}`;
    },
  };
  const physical = (id: string): Physical => {
    let found = cache.get(id);
    if (!found) {
      const resource = template.Resources[id];
      if (!resource) throw new Error(`no resource ${id} in the template`);
      const name = names[id] ?? nameOf(id, resource, lookup);
      found = derive(id, name, resource, env, lookup);
      cache.set(id, found);
    }
    return found;
  };
  return lookup;
}

/** `lookup`, with some logical ids answered by the given values (attributes not given fall through). */
export function withOverrides<L extends PhysicalLookup>(
  lookup: L,
  overrides: Record<string, { ref?: string; attrs?: Record<string, string> }>,
): L {
  return {
    ...lookup,
    ref: (id: string) => overrides[id]?.ref ?? lookup.ref(id),
    getAtt: (id: string, attr: string) => overrides[id]?.attrs?.[attr] ?? lookup.getAtt(id, attr),
  };
}

function nameOf(id: string, resource: CfnResource, lookup: PhysicalLookup): string {
  const property = NAME_PROPERTY[resource.Type];
  const given = property ? resource.Properties?.[property] : undefined;
  if (given !== undefined) return resolveString(given, lookup);
  if (resource.Type === 'AWS::S3::Bucket') return id.toLowerCase().slice(0, 63);
  if (resource.Type === 'AWS::SQS::Queue' && resource.Properties?.FifoQueue === true) return `${id}.fifo`;
  return id;
}

/** A stable id of `length` hex digits, so repeated runs give the same ARNs. */
function fakeId(seed: string, length: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

function derive(
  id: string,
  name: string,
  resource: CfnResource,
  env: AwsEnv,
  lookup: PhysicalLookup,
): Physical {
  const arn = (service: string, rest: string) => arnOf(env, service, rest);
  const props = resource.Properties ?? {};
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table':
    case 'AWS::DynamoDB::GlobalTable': {
      const tableArn = arn('dynamodb', `table/${name}`);
      return { ref: name, attrs: { Arn: tableArn, StreamArn: `${tableArn}/stream/2026-01-01T00:00:00.000` } };
    }
    case 'AWS::SQS::Queue': {
      const url = `https://sqs.${env.region}.${env.urlSuffix}/${env.account}/${name}`;
      return { ref: url, attrs: { Arn: arn('sqs', name), QueueName: name, QueueUrl: url } };
    }
    case 'AWS::S3::Bucket':
      return {
        ref: name,
        attrs: {
          Arn: arn('s3', name),
          DomainName: `${name}.s3.${env.urlSuffix}`,
          RegionalDomainName: `${name}.s3.${env.region}.${env.urlSuffix}`,
          WebsiteURL: `http://${name}.s3-website-${env.region}.${env.urlSuffix}`,
        },
      };
    case 'AWS::SSM::Parameter':
      return { ref: name, attrs: { Type: String(props.Type ?? 'String'), Value: String(props.Value ?? '') } };
    case 'AWS::SecretsManager::Secret': {
      const secretArn = arn('secretsmanager', `secret:${name}-${fakeId(id, 6)}`);
      return { ref: secretArn, attrs: { Id: secretArn } };
    }
    case 'AWS::IAM::Role': {
      const path = typeof props.Path === 'string' ? props.Path.replace(/^\//, '') : '';
      return {
        ref: name,
        attrs: { Arn: arn('iam', `role/${path}${name}`), RoleId: `AROA${fakeId(id, 16)}` },
      };
    }
    case 'AWS::IAM::ManagedPolicy': {
      const policyArn = arn('iam', `policy/${name}`);
      return { ref: policyArn, attrs: { PolicyArn: policyArn } };
    }
    case 'AWS::ECS::Cluster':
      return { ref: name, attrs: { Arn: arn('ecs', `cluster/${name}`) } };
    case 'AWS::ECS::TaskDefinition': {
      const taskDefinitionArn = arn('ecs', `task-definition/${name}:1`);
      return { ref: taskDefinitionArn, attrs: { TaskDefinitionArn: taskDefinitionArn } };
    }
    case 'AWS::ECS::Service': {
      const cluster = props.Cluster ? resolveString(props.Cluster, lookup).split('/').pop() : 'default';
      const serviceArn = arn('ecs', `service/${cluster}/${name}`);
      return { ref: serviceArn, attrs: { ServiceArn: serviceArn, Name: name } };
    }
    case 'AWS::Lambda::Function':
      return { ref: name, attrs: { Arn: arn('lambda', `function:${name}`) } };
    case 'AWS::Lambda::LayerVersion':
      return { ref: arn('lambda', `layer:${name}:1`), attrs: {} };
    case 'AWS::Logs::LogGroup':
      return { ref: name, attrs: { Arn: arn('logs', `log-group:${name}:*`) } };
    case 'AWS::SNS::Topic': {
      const topicArn = arn('sns', name);
      return { ref: topicArn, attrs: { TopicArn: topicArn, TopicName: name } };
    }
    case 'AWS::KMS::Key': {
      const keyId = fakeId(id, 32).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
      return { ref: keyId, attrs: { Arn: arn('kms', `key/${keyId}`), KeyId: keyId } };
    }
    case 'AWS::KMS::Alias':
      return { ref: name, attrs: {} };
    case 'AWS::Events::Rule':
      return { ref: name, attrs: { Arn: arn('events', `rule/${name}`) } };
    case 'AWS::ApiGatewayV2::Api': {
      const apiId = fakeId(id, 10);
      return {
        ref: apiId,
        attrs: { ApiId: apiId, ApiEndpoint: `https://${apiId}.execute-api.${env.region}.${env.urlSuffix}` },
      };
    }
    case 'AWS::CloudFront::Distribution': {
      const distributionId = `E${fakeId(id, 13).toUpperCase()}`;
      return {
        ref: distributionId,
        attrs: { Id: distributionId, DomainName: `d${fakeId(id, 13)}.cloudfront.net` },
      };
    }
    case 'AWS::ElasticLoadBalancingV2::LoadBalancer': {
      const fullName = `app/${name.slice(0, 32)}/${fakeId(id, 16)}`;
      return {
        ref: arn('elasticloadbalancing', `loadbalancer/${fullName}`),
        attrs: {
          LoadBalancerFullName: fullName,
          LoadBalancerName: name.slice(0, 32),
          DNSName: `${name.slice(0, 32).toLowerCase()}.${env.region}.elb.${env.urlSuffix}`,
          LoadBalancerArn: arn('elasticloadbalancing', `loadbalancer/${fullName}`),
        },
      };
    }
    case 'AWS::ElasticLoadBalancingV2::TargetGroup': {
      const fullName = `targetgroup/${name.slice(0, 32)}/${fakeId(id, 16)}`;
      return {
        ref: arn('elasticloadbalancing', fullName),
        attrs: {
          TargetGroupFullName: fullName,
          TargetGroupName: name.slice(0, 32),
          TargetGroupArn: arn('elasticloadbalancing', fullName),
        },
      };
    }
    case 'AWS::EC2::VPC':
      return { ref: `vpc-${fakeId(id, 17)}`, attrs: { CidrBlock: String(props.CidrBlock ?? '10.0.0.0/16') } };
    case 'AWS::EC2::Subnet':
      return { ref: `subnet-${fakeId(id, 17)}`, attrs: { SubnetId: `subnet-${fakeId(id, 17)}` } };
    case 'AWS::EC2::SecurityGroup':
      return { ref: `sg-${fakeId(id, 17)}`, attrs: { GroupId: `sg-${fakeId(id, 17)}` } };
    default:
      return { ref: name, attrs: {} };
  }
}
