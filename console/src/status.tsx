/**
 * A channel's health as the APIs report it (`status`: starting, on_air or on_slate, with `statusReason`
 * when on slate). Older APIs send neither: nothing is shown then rather than a guess.
 */
export interface Health {
  status?: string;
  statusReason?: string;
}

const LABELS: Record<string, string> = { starting: 'Starting', on_air: 'On air', on_slate: 'On slate' };

export function StatusBadge({ status, statusReason }: Health) {
  if (!status) return null;
  return (
    <span class="status" data-status={status}>
      <span class={`badge ${status}`}>{LABELS[status] ?? status}</span>
      {statusReason && <span class="hint"> {statusReason}</span>}
    </span>
  );
}
