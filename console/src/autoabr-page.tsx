/**
 * AutoABR: submit a VMAF job, watch the active jobs (polled every 2 s), and for a finished output the
 * rate-quality chart (inline SVG, from the ladder endpoint's points and hull) and the suggested ladder.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';
import { type Point, RateQualityChart } from './chart';

interface Worker {
  id: string;
  name: string;
  status: string;
  phase: string;
  progress: { percent: number };
  error?: string;
}
type Ladders = Record<string, { points: Point[]; hull: Point[]; ladder: Point[] }>;

const MODELS = ['PhoneHD', 'HD', 'UHD'];

export function AutoabrPage() {
  const [workers, setWorkers] = useState<Worker[]>([]);
  const [listError, setListError] = useState('');
  const [output, setOutput] = useState('');
  useEffect(() => {
    const poll = () =>
      call<{ workers: Worker[] }>(cfg().autoabrApi, '/autoabr').then(
        (r) => {
          setWorkers(r.workers);
          setListError('');
        },
        (err) => setListError(message(err)),
      );
    void poll();
    const timer = setInterval(poll, 2000);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <SubmitJob onSubmitted={setOutput} />
      <section aria-labelledby="workers-title">
        <h2 id="workers-title">Active jobs</h2>
        {listError && <p class="error">{listError}</p>}
        {workers.length === 0 ? (
          <p>No job is queued or running.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Phase</th>
                <th scope="col">Progress</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {workers.map((w) => (
                <tr key={w.id}>
                  <td>{w.name}</td>
                  <td>{w.phase}</td>
                  <td>
                    <progress max={100} value={w.progress.percent} aria-label={`${w.name} progress`} />{' '}
                    {w.progress.percent}%
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Results output={output} setOutput={setOutput} />
    </>
  );
}

function SubmitJob({ onSubmitted }: { onSubmitted: (name: string) => void }) {
  const [form, setForm] = useState({
    name: '',
    reference: '',
    bitrates: '1000000, 3000000',
    resolutions: '640x360, 1280x720',
  });
  const [models, setModels] = useState(['HD']);
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const set = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    const job = {
      name: form.name,
      reference: form.reference,
      models,
      bitrates: form.bitrates
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number),
      resolutions: form.resolutions
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((r) => {
          const [width, height] = r.split('x').map(Number);
          return { width, height };
        }),
    };
    try {
      const w = await call<Worker>(cfg().autoabrApi, '/autoabr', { method: 'POST', body: { job } });
      setResult({ ok: true, text: `Job ${w.id} queued.` });
      onSubmitted(w.name);
    } catch (err) {
      setResult({ ok: false, text: message(err) });
    }
  };
  return (
    <section aria-labelledby="submit-title">
      <h2 id="submit-title" tabIndex={-1}>
        Submit a VMAF job
      </h2>
      <form onSubmit={submit} noValidate>
        <label for="job-name">Job name</label>
        <input id="job-name" value={form.name} onInput={set('name')} />
        <label for="reference">Reference video (s3://bucket/key)</label>
        <input id="reference" value={form.reference} onInput={set('reference')} />
        <fieldset>
          <legend>Models</legend>
          {MODELS.map((m) => (
            <label key={m} style="display:inline-flex;gap:0.3rem;margin-right:1rem;font-weight:normal">
              <input
                type="checkbox"
                style="width:auto"
                checked={models.includes(m)}
                onChange={(e) =>
                  setModels(e.currentTarget.checked ? [...models, m] : models.filter((x) => x !== m))
                }
              />
              {m}
            </label>
          ))}
        </fieldset>
        <label for="bitrates">Bitrates (bit/s, comma separated)</label>
        <input id="bitrates" value={form.bitrates} onInput={set('bitrates')} />
        <label for="resolutions">Resolutions (WxH, comma separated)</label>
        <input id="resolutions" value={form.resolutions} onInput={set('resolutions')} />
        <button type="submit">Submit job</button>
        {result && (
          <p role={result.ok ? 'status' : 'alert'} class={result.ok ? '' : 'error'}>
            {result.text}
          </p>
        )}
      </form>
    </section>
  );
}

function Results({ output, setOutput }: { output: string; setOutput: (o: string) => void }) {
  const [ladders, setLadders] = useState<Ladders | undefined>();
  const [error, setError] = useState('');
  const load = async (e?: Event) => {
    e?.preventDefault();
    try {
      const r = await call<{ models: Ladders }>(
        cfg().autoabrApi,
        `/autoabr/result/${encodeURIComponent(output)}/ladder`,
      );
      setLadders(r.models);
      setError('');
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Rate–quality and ladder</h2>
      <form onSubmit={load}>
        <label for="output">Job name</label>
        <input id="output" value={output} onInput={(e) => setOutput(e.currentTarget.value)} />
        <button type="submit">Show results</button>
      </form>
      {error && <p class="error">{error}</p>}
      {ladders && Object.keys(ladders).length === 0 && <p>No results yet.</p>}
      {ladders &&
        Object.entries(ladders).map(([model, l]) => (
          <div key={model}>
            <h3>{model}</h3>
            <RateQualityChart model={model} points={l.points} hull={l.hull} ladder={l.ladder} />
            <table>
              <caption class="hint">Suggested ladder</caption>
              <thead>
                <tr>
                  <th scope="col">Resolution</th>
                  <th scope="col">Bitrate</th>
                  <th scope="col">VMAF</th>
                </tr>
              </thead>
              <tbody>
                {l.ladder.map((p) => (
                  <tr key={`${p.width}x${p.height}@${p.bitrate}`}>
                    <td>
                      {p.width}×{p.height}
                    </td>
                    <td>{(p.bitrate / 1000).toFixed(0)} kbit/s</td>
                    <td>{p.score.toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
