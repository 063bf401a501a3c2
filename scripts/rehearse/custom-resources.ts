/**
 * The template's custom resources whose provider framework fronts one of our functions: the rehearsal
 * sends that function the Create event the framework would, with the resolved properties.
 */
import type { RehearsedTemplate as Template } from './cloud';
import { type PhysicalLookup, resolve } from './iam/template';

export interface CustomResourceCall {
  resourceId: string;
  functionId: string;
  event: Record<string, unknown>;
}

const getAttId = (v: unknown): string | undefined =>
  v && typeof v === 'object' && 'Fn::GetAtt' in v
    ? (v as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]
    : undefined;

export function customResourceCreates(
  template: Template,
  lookup: PhysicalLookup,
  region: string,
  account: string,
): CustomResourceCall[] {
  const calls: CustomResourceCall[] = [];
  for (const [resourceId, r] of Object.entries(template.Resources)) {
    if (!r.Type.startsWith('Custom::') && r.Type !== 'AWS::CloudFormation::CustomResource') continue;
    const providerId = getAttId(r.Properties?.ServiceToken);
    const provider = providerId ? template.Resources[providerId] : undefined;
    const variables = (
      provider?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined
    )?.Variables;
    const functionId = getAttId(variables?.USER_ON_EVENT_FUNCTION_ARN);
    if (!functionId) continue; // CDK's own (auto-delete, bucket deployment): not ours to rehearse
    calls.push({
      resourceId,
      functionId,
      event: {
        RequestType: 'Create',
        ServiceToken: lookup.getAtt(providerId!, 'Arn'),
        ResponseURL: 'https://cloudformation-custom-resource-response.invalid/',
        StackId: `arn:aws:cloudformation:${region}:${account}:stack/onair/rehearsal`,
        RequestId: `rehearsal-${resourceId}`,
        ResourceType: r.Type,
        LogicalResourceId: resourceId,
        ResourceProperties: resolve(r.Properties, lookup),
      },
    });
  }
  return calls;
}
