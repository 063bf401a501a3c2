/** What the API accepted with a warning (a source that did not answer as HLS), said after a save. */
import type { SourceWarning } from './form-errors';

export function Warnings({ id, saved, warnings }: { id: string; saved: string; warnings: SourceWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div id={id} role="status" class="warning" data-warnings>
      <p>
        {saved}, with {warnings.length === 1 ? 'a warning' : 'warnings'}:
      </p>
      <ul>
        {warnings.map((w) => (
          <li key={w.field} data-field={w.field} data-code={w.code}>
            <code>{w.field}</code>: {w.message}
          </li>
        ))}
      </ul>
      <p class="hint">The channel plays the slate for as long as a source does not answer.</p>
    </div>
  );
}
