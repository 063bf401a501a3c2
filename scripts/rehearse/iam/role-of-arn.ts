import { type CfnTemplate, type PhysicalLookup, resourcesOfType } from './template';

/** The logical id of the template's role with this ARN (the ARN itself if none has it). */
export function roleIdOfArn(template: CfnTemplate, lookup: PhysicalLookup, roleArn: string): string {
  return (
    resourcesOfType(template, 'AWS::IAM::Role').find(([id]) => lookup.getAtt(id, 'Arn') === roleArn)?.[0] ??
    roleArn
  );
}
