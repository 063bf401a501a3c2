/**
 * Every IAM role of a template, with the identity policies that apply to it (inline, AWS::IAM::Policy
 * and AWS::IAM::ManagedPolicy resources attached to it, AWS managed policies it names) resolved
 * through a PhysicalLookup, and the Lambda functions and ECS task definitions that use it.
 */
import { awsManagedPolicy } from './managed-policies';
import type { PolicyDocument } from './policy';
import { type CfnTemplate, type PhysicalLookup, resolve, resolveString, resourcesOfType } from './template';

export interface IdentityPolicy {
  /** Policy name (inline), logical id (AWS::IAM::Policy / ManagedPolicy) or managed policy ARN. */
  name: string;
  source: 'inline' | 'AWS::IAM::Policy' | 'AWS::IAM::ManagedPolicy' | 'aws-managed';
  document: PolicyDocument;
}

export interface RoleUse {
  logicalId: string;
  /** function: a Lambda's role; task: an ECS task's role (TaskRoleArn); execution: ECS's own (ExecutionRoleArn). */
  as: 'function' | 'task' | 'execution';
}

export interface RolePrincipal {
  logicalId: string;
  arn: string;
  policies: IdentityPolicy[];
  /** AWS managed policies named but not known to managed-policies.ts: their grants are not simulated. */
  unknownManagedPolicies: string[];
  usedBy: RoleUse[];
}

export function rolesOf(template: CfnTemplate, lookup: PhysicalLookup): RolePrincipal[] {
  const attached = attachedPolicies(template, lookup);
  const uses = roleUses(template, lookup);
  return resourcesOfType(template, 'AWS::IAM::Role').map(([id, role]) => {
    const props = role.Properties ?? {};
    const arn = lookup.getAtt(id, 'Arn');
    const name = lookup.ref(id);
    const inline = (
      (resolve(props.Policies, lookup) ?? []) as { PolicyName: string; PolicyDocument: PolicyDocument }[]
    ).map((p): IdentityPolicy => ({ name: p.PolicyName, source: 'inline', document: p.PolicyDocument }));
    const managedArns = ((resolve(props.ManagedPolicyArns, lookup) ?? []) as string[]).map(String);
    const managed: IdentityPolicy[] = [];
    const unknownManagedPolicies: string[] = [];
    for (const policyArn of managedArns) {
      const ours = attached.managedByArn.get(policyArn);
      const document = ours?.document ?? awsManagedPolicy(policyArn);
      if (ours) managed.push(ours);
      else if (document) managed.push({ name: policyArn, source: 'aws-managed', document });
      else unknownManagedPolicies.push(policyArn);
    }
    return {
      logicalId: id,
      arn,
      policies: [...inline, ...(attached.byRoleName.get(name) ?? []), ...managed],
      unknownManagedPolicies,
      usedBy: uses.get(arn) ?? [],
    };
  });
}

function attachedPolicies(template: CfnTemplate, lookup: PhysicalLookup) {
  const byRoleName = new Map<string, IdentityPolicy[]>();
  const managedByArn = new Map<string, IdentityPolicy>();
  const attach = (roles: unknown, policy: IdentityPolicy) => {
    for (const role of (resolve(roles, lookup) ?? []) as string[])
      byRoleName.set(role, [...(byRoleName.get(role) ?? []), policy]);
  };
  for (const [id, r] of resourcesOfType(template, 'AWS::IAM::Policy')) {
    const document = resolve(r.Properties?.PolicyDocument, lookup) as PolicyDocument;
    attach(r.Properties?.Roles, { name: id, source: 'AWS::IAM::Policy', document });
  }
  for (const [id, r] of resourcesOfType(template, 'AWS::IAM::ManagedPolicy')) {
    const policy: IdentityPolicy = {
      name: id,
      source: 'AWS::IAM::ManagedPolicy',
      document: resolve(r.Properties?.PolicyDocument, lookup) as PolicyDocument,
    };
    // Attached from the policy's side (Roles) or the role's (ManagedPolicyArns): counted once.
    managedByArn.set(lookup.ref(id), policy);
    attach(r.Properties?.Roles, policy);
  }
  return { byRoleName, managedByArn };
}

/** Role ARN → the functions and task definitions that run as it. */
function roleUses(template: CfnTemplate, lookup: PhysicalLookup): Map<string, RoleUse[]> {
  const uses = new Map<string, RoleUse[]>();
  const add = (roleArn: unknown, use: RoleUse) => {
    if (roleArn === undefined) return;
    const arn = resolveString(roleArn, lookup);
    uses.set(arn, [...(uses.get(arn) ?? []), use]);
  };
  for (const [id, fn] of resourcesOfType(template, 'AWS::Lambda::Function'))
    add(fn.Properties?.Role, { logicalId: id, as: 'function' });
  for (const [id, task] of resourcesOfType(template, 'AWS::ECS::TaskDefinition')) {
    add(task.Properties?.TaskRoleArn, { logicalId: id, as: 'task' });
    add(task.Properties?.ExecutionRoleArn, { logicalId: id, as: 'execution' });
  }
  return uses;
}
