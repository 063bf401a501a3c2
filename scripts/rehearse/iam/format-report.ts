/**
 * The report as text for a person: the verdict first, then per role its allowed calls by action (a
 * few of the resources, then how many more), every denial in full, and what it is granted but never used.
 */
import type { CallSummary, Report } from './report';

const RESOURCES_SHOWN = 3;

export function formatReport(report: Report): string {
  const lines: string[] = [];
  const exercised = report.principals.filter((p) => p.exercised);
  lines.push(
    `IAM: ${report.ok ? 'OK' : 'FAILED'}: ${report.checks} checks, ${report.denied} denied, ${report.errors} not evaluable, ` +
      `${report.unknownPrincipals.length} unknown callers; ${exercised.length} of ${report.principals.length} roles exercised`,
  );
  for (const p of exercised) {
    lines.push(
      '',
      `${p.principal} (${p.usedBy.map((u) => `${u.as} ${u.logicalId}`).join(', ') || 'unused'})`,
    );
    lines.push(...allowedLines(p.calls.filter((c) => c.decision === 'Allowed')));
    for (const c of p.denials) lines.push(`  ${c.decision === 'Error' ? '!' : '✗'} ${line(c)}`);
    for (const u of p.unknownManagedPolicies) lines.push(`  ! managed policy not modelled: ${u}`);
    if (p.unusedGrants.length) lines.push('  granted, never used:');
    for (const g of p.unusedGrants) {
      if (g.actions.length) lines.push(`    ${g.policy}#${g.statement} actions: ${g.actions.join(', ')}`);
      if (g.resources.length)
        lines.push(`    ${g.policy}#${g.statement} resources: ${g.resources.join(', ')}`);
    }
  }
  const idle = report.principals.filter((p) => !p.exercised);
  if (idle.length) {
    lines.push('', 'Roles with no call in the rehearsal (their grants are not judged):');
    for (const p of idle)
      lines.push(
        `  ${p.principal} (${p.usedBy.map((u) => `${u.as} ${u.logicalId}`).join(', ') || 'unused'})`,
      );
  }
  for (const u of report.unknownPrincipals) {
    lines.push('', `Unknown caller ${u.principal} (no role of the template has this name):`);
    for (const c of u.calls) lines.push(`  ? ${line(c)}`);
  }
  return lines.join('\n');
}

/** One line per action: its count, operations and first resources. */
function allowedLines(calls: CallSummary[]): string[] {
  const byAction = new Map<string, CallSummary[]>();
  for (const c of calls) byAction.set(c.action, [...(byAction.get(c.action) ?? []), c]);
  return [...byAction].map(([action, group]) => {
    const count = group.reduce((n, c) => n + c.count, 0);
    const operations = [...new Set(group.flatMap((c) => c.operations))].sort().join(', ');
    const shown = group.slice(0, RESOURCES_SHOWN).map((c) => c.resource);
    const more = group.length > RESOURCES_SHOWN ? ` and ${group.length - RESOURCES_SHOWN} more` : '';
    return `  ✓ ${action} ×${count} (${operations}) on ${shown.join(', ')}${more}`;
  });
}

function line(c: CallSummary): string {
  const verdict = c.decision === 'Allowed' ? '' : ` ${c.decision}${c.error ? `: ${c.error}` : ''}`;
  return `${c.action} ${c.resource} ×${c.count} (${c.operations.join(', ')})${verdict}`;
}
