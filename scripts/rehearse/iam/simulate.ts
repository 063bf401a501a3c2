/**
 * One authorization check (principal, action, resource) evaluated by @cloud-copilot/iam-simulate
 * against the principal's identity policies and the resource's policy, as AWS would for a same-account
 * request over TLS (aws:SecureTransport=true: SDK calls to AWS always are).
 */
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { AwsEnv } from './aws-env';
import type { PolicyDocument } from './policy';
import type { IdentityPolicy } from './principals';

export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied' | 'Error';

export interface Check {
  principalArn: string;
  action: string;
  resource: string;
  context?: Record<string, string>;
}

export interface CheckResult {
  decision: Decision;
  /** The simulator's validation errors, for Error. */
  error?: string;
}

export async function simulateCheck(
  check: Check,
  policies: IdentityPolicy[],
  resourcePolicy: PolicyDocument | undefined,
  env: AwsEnv,
): Promise<CheckResult> {
  const response = await runSimulation(
    {
      request: {
        principal: check.principalArn,
        action: check.action,
        resource: { resource: check.resource, accountId: env.account },
        contextVariables: {
          'aws:SecureTransport': 'true',
          'aws:PrincipalArn': check.principalArn,
          'aws:PrincipalAccount': env.account,
          ...check.context,
        },
      },
      identityPolicies: policies.map((p) => ({ name: p.name, policy: p.document })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      resourcePolicy,
    },
    {},
  );
  if (response.resultType === 'error') return { decision: 'Error', error: JSON.stringify(response.errors) };
  return { decision: response.overallResult };
}
