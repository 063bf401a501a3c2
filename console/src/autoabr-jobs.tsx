/**
 * The caller's AutoABR jobs from the API (GET /autoabr/jobs), polled every 2 s: the active ones
 * (queued or running) with a Cancel button, and the most recent finished ones with their phase and
 * error. A row's "Results" fills the results form.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';

export interface Worker {
  id: string;
  name: string;
  status: string;
  phase: string;
  progress: { percent: number };
  createdAt: number;
  error?: string;
}

const POLL_MS = 2000;
/** Finished jobs shown: the newest page of this many. */
const FINISHED_SHOWN = 20;

const jobs = (status: 'ACTIVE' | 'INACTIVE', limit: number) =>
  call<{ jobs: Worker[] }>(cfg().autoabrApi, `/autoabr/jobs?status=${status}&limit=${limit}`).then(
    (page) => page.jobs,
  );

export function Jobs({ submitted, onResults }: { submitted: number; onResults: (name: string) => void }) {
  const [rows, setRows] = useState<Worker[] | undefined>();
  const [error, setError] = useState('');
  const [changed, setChanged] = useState(0);
  useEffect(() => {
    const poll = async () => {
      try {
        const [active, finished] = await Promise.all([jobs('ACTIVE', 100), jobs('INACTIVE', FINISHED_SHOWN)]);
        setRows([...active, ...finished]);
        setError('');
      } catch (err) {
        setError(message(err));
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [submitted, changed]);
  return (
    <section aria-labelledby="jobs-title">
      <h2 id="jobs-title">Jobs</h2>
      <p class="hint">
        Your queued and running jobs, then the {FINISHED_SHOWN} most recent finished ones. Cancelling a
        running job stops its worker at its next step; what it measured so far stays.
      </p>
      {error && <p class="error">{error}</p>}
      {rows?.length === 0 ? (
        <p>No job is queued or running. None has finished yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Phase</th>
              <th scope="col">Progress</th>
              <th scope="col">
                <span class="hint">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {rows?.map((job) => (
              <JobRow
                key={job.id}
                job={job}
                onResults={onResults}
                onChanged={() => setChanged((n) => n + 1)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function JobRow({
  job,
  onResults,
  onChanged,
}: {
  job: Worker;
  onResults: (name: string) => void;
  onChanged: () => void;
}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await call(cfg().autoabrApi, `/autoabr/${encodeURIComponent(job.id)}/cancel`, { method: 'POST' });
      setError('');
      onChanged();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-job={job.name} data-id={job.id}>
      <td>
        {job.name}
        <br />
        <span class="hint">{new Date(job.createdAt).toLocaleString()}</span>
      </td>
      <td data-phase={job.phase}>
        {job.phase}
        {job.error && <span class="error"> {job.error}</span>}
      </td>
      <td>
        <progress max={100} value={job.progress.percent} aria-label={`${job.name} progress`} />{' '}
        {job.progress.percent}%
      </td>
      <td>
        {job.status === 'ACTIVE' && (
          <button type="button" class="danger" disabled={busy} onClick={cancel}>
            Cancel
          </button>
        )}{' '}
        <button type="button" class="secondary" onClick={() => onResults(job.name)}>
          Results
        </button>
        {error && (
          <p role="alert" class="field-error">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
