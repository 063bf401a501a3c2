/**
 * The AutoABR jobs: the active ones the API lists (polled every 2 s) and the ones this browser
 * submitted or saw (job-history.ts), each with its phase, progress and error, read from
 * GET /autoabr/{id} until it is final. A row's "Results" fills the results form.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, cfg, message } from './api';
import { isFinal, type KnownJob, readJobs, rememberJobs } from './job-history';

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

type Row = KnownJob & { job?: Worker; missing?: boolean };

export function Jobs({ submitted, onResults }: { submitted: number; onResults: (name: string) => void }) {
  const [rows, setRows] = useState<Row[]>(readJobs());
  const [error, setError] = useState('');
  useEffect(() => {
    const states = new Map<string, Row>();
    const poll = async () => {
      try {
        const { workers } = await call<{ workers: Worker[] }>(cfg().autoabrApi, '/autoabr');
        for (const w of workers) states.set(w.id, { ...w, job: w });
        const known = rememberJobs(workers.map((w) => ({ id: w.id, name: w.name, createdAt: w.createdAt })));
        // A job no longer active is read once more, then left as it ended.
        await Promise.all(
          known
            .filter((k) => !workers.some((w) => w.id === k.id))
            .filter((k) => !states.get(k.id)?.missing && !isFinal(states.get(k.id)?.job?.phase ?? ''))
            .map((k) =>
              call<Worker>(cfg().autoabrApi, `/autoabr/${encodeURIComponent(k.id)}`).then(
                (job) => states.set(k.id, { ...k, job }),
                (err) => {
                  if (err instanceof ApiError && err.status === 404)
                    states.set(k.id, { ...k, missing: true });
                },
              ),
            ),
        );
        setRows(known.map((k) => states.get(k.id) ?? k));
        setError('');
      } catch (err) {
        setError(message(err));
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [submitted]);
  return (
    <section aria-labelledby="jobs-title">
      <h2 id="jobs-title">Jobs</h2>
      <p class="hint">
        Active jobs, and the ones submitted from this browser (the API lists only active jobs). The API has no
        way to cancel a job.
      </p>
      {error && <p class="error">{error}</p>}
      {rows.length === 0 ? (
        <p>No job is queued or running.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Phase</th>
              <th scope="col">Progress</th>
              <th scope="col">
                <span class="hint">Results</span>
              </th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {rows.map((r) => (
              <tr key={r.id} data-job={r.name}>
                <td>
                  {r.name}
                  <br />
                  <span class="hint">{new Date(r.createdAt).toLocaleString()}</span>
                </td>
                <td data-phase={r.job?.phase}>
                  {r.missing ? 'not found' : (r.job?.phase ?? '…')}
                  {r.job?.error && <span class="error"> {r.job.error}</span>}
                </td>
                <td>
                  {r.job && (
                    <>
                      <progress max={100} value={r.job.progress.percent} aria-label={`${r.name} progress`} />{' '}
                      {r.job.progress.percent}%
                    </>
                  )}
                </td>
                <td>
                  <button type="button" class="secondary" onClick={() => onResults(r.name)}>
                    Results
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
