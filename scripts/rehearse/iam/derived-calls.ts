/**
 * Authorizations AWS checks that no request to the stand-ins shows: the iam:PassRole of the roles a
 * task definition names when a task is started (RunTask passes them to ECS).
 */
import type { AwsCall } from './calls';
import { type CfnTemplate, type PhysicalLookup, resolveString, resourcesOfType } from './template';

/** The iam:PassRole each recorded RunTask/StartTask implies for its task definition's roles. */
export function passRoleCalls(template: CfnTemplate, lookup: PhysicalLookup, calls: AwsCall[]): AwsCall[] {
  const taskDefinitions = resourcesOfType(template, 'AWS::ECS::TaskDefinition').map(([id, r]) => ({
    arn: lookup.ref(id),
    roles: [r.Properties?.TaskRoleArn, r.Properties?.ExecutionRoleArn]
      .filter((role) => role !== undefined)
      .map((role) => resolveString(role, lookup)),
  }));
  return calls
    .filter((c) => c.action === 'ecs:RunTask' || c.action === 'ecs:StartTask')
    .flatMap((call) => {
      // A family without revision names its latest revision: matched on the family.
      const used = taskDefinitions.filter((t) =>
        call.resources.some((r) => r === t.arn || t.arn.startsWith(`${r}:`)),
      );
      const roles = [...new Set(used.flatMap((t) => t.roles))];
      return roles.length ? [{ ...call, action: 'iam:PassRole', resources: roles, context: undefined }] : [];
    });
}
