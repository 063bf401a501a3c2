/**
 * The IAM report of a rehearsal, built purely from the roles, the checks made and their decisions:
 * per role the calls it made, the denials, and what its policies grant that no call used (the
 * actions of each Allow statement, wildcards expanded against the simulator's action list, and the
 * resources no used action touched) — what to cut.
 */
import type { AwsCall } from './calls';
import { asList, statementsOf, wildcardMatch } from './policy';
import type { RolePrincipal, RoleUse } from './principals';
import type { Decision } from './simulate';

/** One recorded call's authorization on one resource, with the simulator's decision. */
export interface CheckedCall {
  call: AwsCall;
  resource: string;
  decision: Decision;
  error?: string;
}

export interface CallSummary {
  action: string;
  resource: string;
  operations: string[];
  count: number;
  decision: Decision;
  error?: string;
}

export interface UnusedGrant {
  /** The identity policy and statement (Sid or index) granting it. */
  policy: string;
  statement: string;
  /** Granted actions no allowed call used on any of the statement's resources. */
  actions: string[];
  /** Resources of the statement no allowed call of its actions touched. */
  resources: string[];
}

export interface PrincipalReport {
  principal: string;
  arn: string;
  usedBy: RoleUse[];
  /** Whether the rehearsal saw any call by this role (if not, its grants say nothing of use). */
  exercised: boolean;
  calls: CallSummary[];
  denials: CallSummary[];
  unusedGrants: UnusedGrant[];
  unknownManagedPolicies: string[];
}

export interface Report {
  /** True when calls were checked, every one was allowed and every caller is a role of the template. */
  ok: boolean;
  checks: number;
  denied: number;
  errors: number;
  principals: PrincipalReport[];
  /** Calls signed by an access key that is no role of the template (nothing to evaluate them against). */
  unknownPrincipals: { principal: string; calls: CallSummary[] }[];
}

/** IAM action names (without service prefix) by service prefix, to expand wildcards; services absent stay unexpanded. */
export type KnownActions = Record<string, string[]>;

export function buildReport(
  roles: RolePrincipal[],
  checked: CheckedCall[],
  knownActions: KnownActions,
): Report {
  const byPrincipal = groupBy(checked, (c) => c.call.principal);
  const principals = roles.map((role): PrincipalReport => {
    const mine = byPrincipal.get(role.logicalId) ?? [];
    const calls = summarize(mine);
    return {
      principal: role.logicalId,
      arn: role.arn,
      usedBy: role.usedBy,
      exercised: mine.length > 0,
      calls,
      denials: calls.filter((c) => c.decision !== 'Allowed'),
      unusedGrants: unusedGrants(
        role,
        mine.filter((c) => c.decision === 'Allowed'),
        knownActions,
      ),
      unknownManagedPolicies: role.unknownManagedPolicies,
    };
  });
  const known = new Set(roles.map((r) => r.logicalId));
  const unknownPrincipals = [...byPrincipal]
    .filter(([principal]) => !known.has(principal))
    .map(([principal, calls]) => ({ principal, calls: summarize(calls) }));
  const roleChecks = checked.filter((c) => known.has(c.call.principal));
  const denied = roleChecks.filter(
    (c) => c.decision === 'ImplicitlyDenied' || c.decision === 'ExplicitlyDenied',
  ).length;
  const errors = roleChecks.filter((c) => c.decision === 'Error').length;
  return {
    // No call at all means the recording failed, not that every call was allowed.
    ok: checked.length > 0 && denied === 0 && errors === 0 && unknownPrincipals.length === 0,
    checks: checked.length,
    denied,
    errors,
    principals,
    unknownPrincipals,
  };
}

function summarize(checked: CheckedCall[]): CallSummary[] {
  const groups = groupBy(checked, (c) => `${c.call.action} ${c.resource} ${c.decision}`);
  return [...groups.values()]
    .map((group) => {
      const first = group[0]!;
      return {
        action: first.call.action,
        resource: first.resource,
        operations: [...new Set(group.map((c) => c.call.operation))].sort(),
        count: group.length,
        decision: first.decision,
        ...(first.error ? { error: first.error } : {}),
      };
    })
    .sort((a, b) => a.action.localeCompare(b.action) || a.resource.localeCompare(b.resource));
}

function unusedGrants(
  role: RolePrincipal,
  allowed: CheckedCall[],
  knownActions: KnownActions,
): UnusedGrant[] {
  const used = (action: string, pattern: string) =>
    allowed.some(
      (c) =>
        c.call.action.toLowerCase() === action.toLowerCase() &&
        (pattern === '*' || wildcardMatch(pattern, c.resource)),
    );
  return role.policies.flatMap((policy) =>
    statementsOf(policy.document).flatMap((statement, index): UnusedGrant[] => {
      if (statement.Effect !== 'Allow') return [];
      const label = statement.Sid ?? String(index);
      if (statement.NotAction)
        return [
          {
            policy: policy.name,
            statement: label,
            actions: asList(statement.NotAction).map((a) => `NotAction ${a}`),
            resources: [],
          },
        ];
      const actions = [...new Set(asList(statement.Action).flatMap((a) => expand(a, knownActions)))];
      const resources = statement.NotResource ? ['*'] : asList(statement.Resource);
      const unusedActions = actions.filter((a) => !resources.some((r) => used(a, r)));
      const unusedResources = resources.filter((r) => !actions.some((a) => used(a, r)));
      return unusedActions.length || unusedResources.length
        ? [{ policy: policy.name, statement: label, actions: unusedActions, resources: unusedResources }]
        : [];
    }),
  );
}

/** `s3:Get*` → every s3 action it matches; left as is when the service's actions are not known. */
function expand(pattern: string, knownActions: KnownActions): string[] {
  const [service, name] = pattern.split(':');
  const names = service ? knownActions[service.toLowerCase()] : undefined;
  if (!names || name === undefined || !/[*?]/.test(name)) return [pattern];
  const matches = names.filter((n) => wildcardMatch(name, n, true)).map((n) => `${service}:${n}`);
  return matches.length ? matches : [pattern];
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
