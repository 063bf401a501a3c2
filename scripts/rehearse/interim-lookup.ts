/**
 * INTERIM, until scripts/rehearse/iam/ (branch `iam`) lands: the template's intrinsics resolved through a
 * physical-name lookup. Same shape as that library's `PhysicalLookup`, so the swap is an import change.
 */
export interface Template {
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> }
  >;
}

export interface PhysicalLookup {
  ref(logicalId: string): string;
  getAtt(logicalId: string, attr: string): string;
}

export interface Overrides {
  [logicalId: string]: { ref?: string; attrs?: Record<string, string> };
}

export function defaultLookup(template: Template, env: { account: string; region: string }): PhysicalLookup {
  const { account, region } = env;
  const pseudo: Record<string, string> = {
    'AWS::AccountId': account,
    'AWS::Region': region,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': 'onair',
  };
  const type = (id: string) => template.Resources[id]?.Type ?? '';
  const ref = (id: string): string => {
    if (id in pseudo) return pseudo[id];
    const t = type(id);
    if (t === 'AWS::SQS::Queue') return `https://sqs.${region}.amazonaws.com/${account}/${id}`;
    if (t === 'AWS::SecretsManager::Secret')
      return `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`;
    if (t === 'AWS::ECS::TaskDefinition') return `arn:aws:ecs:${region}:${account}:task-definition/${id}:1`;
    return id;
  };
  const getAtt = (id: string, attr: string): string => {
    const t = type(id);
    if (attr === 'Arn') {
      if (t === 'AWS::SQS::Queue') return `arn:aws:sqs:${region}:${account}:${id}`;
      if (t === 'AWS::DynamoDB::GlobalTable') return `arn:aws:dynamodb:${region}:${account}:table/${id}`;
      if (t === 'AWS::S3::Bucket') return `arn:aws:s3:::${id.toLowerCase()}`;
      if (t === 'AWS::IAM::Role') return `arn:aws:iam::${account}:role/${id}`;
      if (t === 'AWS::Lambda::Function') return `arn:aws:lambda:${region}:${account}:function:${id}`;
      if (t === 'AWS::ECS::Cluster') return `arn:aws:ecs:${region}:${account}:cluster/${id}`;
    }
    return `${id}.${attr}`;
  };
  return { ref, getAtt };
}

export function withOverrides(base: PhysicalLookup, overrides: Overrides): PhysicalLookup {
  return {
    ref: (id) => overrides[id]?.ref ?? base.ref(id),
    getAtt: (id, attr) => overrides[id]?.attrs?.[attr] ?? base.getAtt(id, attr),
  };
}

export function resolve(value: unknown, lookup: PhysicalLookup): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, lookup));
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if ('Ref' in o) return lookup.ref(String(o.Ref));
  if ('Fn::GetAtt' in o) {
    const [id, attr] = o['Fn::GetAtt'] as [string, string];
    return lookup.getAtt(id, attr);
  }
  if ('Fn::Join' in o) {
    const [sep, parts] = o['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => String(resolve(p, lookup))).join(sep);
  }
  if ('Fn::Sub' in o) {
    const text = o['Fn::Sub'] as string;
    return text.replace(/\$\{([^}]+)\}/g, (_, name: string) =>
      name.includes('.') ? lookup.getAtt(name.split('.')[0], name.split('.')[1]) : lookup.ref(name),
    );
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, resolve(v, lookup)]));
}

export const resolveString = (value: unknown, lookup: PhysicalLookup): string =>
  String(resolve(value, lookup));
