/** IAM policy documents as they appear in a template, after its intrinsics are resolved. */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: unknown;
  NotPrincipal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

export interface PolicyDocument {
  Version?: string;
  Statement: PolicyStatement | PolicyStatement[];
}

export function statementsOf(document: PolicyDocument): PolicyStatement[] {
  return Array.isArray(document.Statement) ? document.Statement : [document.Statement];
}

export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** IAM's wildcard match (`*` any run, `?` one character; case-sensitive, as for ARNs). */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}
