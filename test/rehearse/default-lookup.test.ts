import { describe, expect, it } from 'vitest';
import { defaultLookup, withOverrides } from '../../scripts/rehearse/iam/default-lookup';
import type { CfnTemplate } from '../../scripts/rehearse/iam/template';

const template: CfnTemplate = {
  Resources: {
    Channels: { Type: 'AWS::DynamoDB::GlobalTable', Properties: {} },
    Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'onair-test-jobs' } },
    Media: { Type: 'AWS::S3::Bucket', Properties: {} },
    Cluster: { Type: 'AWS::ECS::Cluster', Properties: {} },
    Engine: { Type: 'AWS::ECS::Service', Properties: { Cluster: { Ref: 'Cluster' } } },
  },
};

describe('the default physical lookup', () => {
  const lookup = defaultLookup(template, { account: '111111111111', region: 'eu-west-1' });

  it("names a table after its logical id and gives its ARN in the lookup's account and region", () => {
    expect([lookup.ref('Channels'), lookup.getAtt('Channels', 'Arn')]).toEqual([
      'Channels',
      'arn:aws:dynamodb:eu-west-1:111111111111:table/Channels',
    ]);
  });

  it("gives a queue's URL as its Ref, with its given name in the URL and the ARN", () => {
    expect([lookup.ref('Jobs'), lookup.getAtt('Jobs', 'Arn')]).toEqual([
      'https://sqs.eu-west-1.amazonaws.com/111111111111/onair-test-jobs',
      'arn:aws:sqs:eu-west-1:111111111111:onair-test-jobs',
    ]);
  });

  it('gives a bucket a valid (lowercase) name and an ARN without region or account', () => {
    expect([lookup.ref('Media'), lookup.getAtt('Media', 'Arn')]).toEqual(['media', 'arn:aws:s3:::media']);
  });

  it("puts an ECS service's ARN under its cluster's name", () => {
    expect(lookup.ref('Engine')).toBe('arn:aws:ecs:eu-west-1:111111111111:service/Cluster/Engine');
  });

  it('answers pseudo parameters', () => {
    expect(['AWS::AccountId', 'AWS::Region', 'AWS::Partition'].map(lookup.ref)).toEqual([
      '111111111111',
      'eu-west-1',
      'aws',
    ]);
  });

  it('renames a resource with every attribute following the new name', () => {
    const renamed = defaultLookup(template, { names: { Channels: 'local-channels' } });
    expect(renamed.getAtt('Channels', 'Arn')).toBe(
      'arn:aws:dynamodb:us-east-1:123456789012:table/local-channels',
    );
  });

  it('lets an override replace one value and keeps the others', () => {
    const local = withOverrides(lookup, {
      Jobs: { ref: 'http://127.0.0.1:4566/000000000000/onair-test-jobs' },
    });
    expect([local.ref('Jobs'), local.getAtt('Jobs', 'Arn')]).toEqual([
      'http://127.0.0.1:4566/000000000000/onair-test-jobs',
      'arn:aws:sqs:eu-west-1:111111111111:onair-test-jobs',
    ]);
  });

  it('takes account and region from the ARNs the template names literally', () => {
    const synthesizedFor: CfnTemplate = {
      Resources: {
        ...template.Resources,
        Policy: {
          Type: 'AWS::IAM::Policy',
          Properties: {
            PolicyDocument: { Statement: [{ Resource: 'arn:aws:ssm:eu-north-1:222222222222:parameter/k' }] },
          },
        },
      },
    };
    expect(defaultLookup(synthesizedFor).getAtt('Channels', 'Arn')).toBe(
      'arn:aws:dynamodb:eu-north-1:222222222222:table/Channels',
    );
  });
});
