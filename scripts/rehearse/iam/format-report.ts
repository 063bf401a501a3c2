/** The report as text for a person: the verdict first, then each role's calls, denials and unused grants. */
import type { CallSummary, Report } from './report';

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
    for (const c of p.calls) lines.push(`  ${mark(c)} ${line(c)}`);
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

const mark = (c: CallSummary) => (c.decision === 'Allowed' ? '✓' : c.decision === 'Error' ? '!' : '✗');

function line(c: CallSummary): string {
  const verdict = c.decision === 'Allowed' ? '' : ` ${c.decision}${c.error ? `: ${c.error}` : ''}`;
  return `${c.action} ${c.resource} ×${c.count} (${c.operations.join(', ')})${verdict}`;
}
