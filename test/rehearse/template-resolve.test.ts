// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CloudFormation Fn::Sub text, not JavaScript templates
import { describe, expect, it } from 'vitest';
import { type PhysicalLookup, resolve } from '../../scripts/rehearse/iam/template';

const lookup: PhysicalLookup = {
  ref: (id) =>
    ({ 'AWS::Region': 'eu-north-1', 'AWS::AccountId': '111111111111', Table: 'channels' })[id] ?? `ref-${id}`,
  getAtt: (id, attr) => `${id}.${attr}`,
};

describe('resolving intrinsic functions', () => {
  it('replaces Ref and Fn::GetAtt (list and dotted forms) through the lookup', () => {
    expect(
      resolve(
        { a: { Ref: 'Table' }, b: { 'Fn::GetAtt': ['Queue', 'Arn'] }, c: { 'Fn::GetAtt': 'Role.Arn' } },
        lookup,
      ),
    ).toEqual({
      a: 'channels',
      b: 'Queue.Arn',
      c: 'Role.Arn',
    });
  });

  it('joins, and resolves what it joins', () => {
    expect(
      resolve(
        {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Region' }, ':', { 'Fn::GetAtt': ['T', 'Arn'] }, '/index/*']],
        },
        lookup,
      ),
    ).toBe('arn:eu-north-1:T.Arn/index/*');
  });

  it('substitutes pseudo parameters, Refs, GetAtts and its own variables, and keeps ${!literal} literal', () => {
    const sub = {
      'Fn::Sub': ['${AWS::AccountId}/${Table}/${Q.Arn}/${name}/${!Keep}', { name: { Ref: 'Table' } }],
    };
    expect(resolve(sub, lookup)).toBe('111111111111/channels/Q.Arn/channels/${Keep}');
  });

  it('selects from a split', () => {
    expect(resolve({ 'Fn::Select': [2, { 'Fn::Split': ['/', 'a/b/c'] }] }, lookup)).toBe('c');
  });

  it('refuses an intrinsic it does not know rather than passing it through', () => {
    expect(() => resolve({ 'Fn::ImportValue': 'x' }, lookup)).toThrow(/Fn::ImportValue is not supported/);
  });
});
