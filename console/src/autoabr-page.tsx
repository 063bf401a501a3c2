/**
 * AutoABR: submit a VMAF job (a refused one marks the field the API names), the jobs with their
 * status (autoabr-jobs.tsx), and an output's rate–quality chart and ladder (autoabr-results.tsx).
 */
import { useState } from 'preact/hooks';
import { call, cfg } from './api';
import { Jobs, type Worker } from './autoabr-jobs';
import { Results } from './autoabr-results';
import { type FormError, formError, invalidProps } from './form-errors';

const MODELS = ['PhoneHD', 'HD', 'UHD'];

export function AutoabrPage() {
  const [output, setOutput] = useState('');
  const [submitted, setSubmitted] = useState(0);
  return (
    <>
      <SubmitJob onSubmitted={() => setSubmitted((n) => n + 1)} />
      <Jobs submitted={submitted} onResults={setOutput} />
      <Results output={output} setOutput={setOutput} />
    </>
  );
}

function SubmitJob({ onSubmitted }: { onSubmitted: (job: Worker) => void }) {
  const [form, setForm] = useState({
    name: '',
    reference: '',
    bitrates: '1000000, 3000000',
    resolutions: '640x360, 1280x720',
  });
  const [models, setModels] = useState(['HD']);
  const [result, setResult] = useState<{ ok: true; text: string } | undefined>();
  const [error, setError] = useState<FormError | undefined>();
  const invalid = (field: string) => invalidProps(error, field, 'submit-error');
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
      setError(undefined);
      onSubmitted(w);
    } catch (err) {
      setResult(undefined);
      setError(formError(err));
    }
  };
  return (
    <section aria-labelledby="submit-title">
      <h2 id="submit-title" tabIndex={-1}>
        Submit a VMAF job
      </h2>
      <form onSubmit={submit} noValidate>
        <label for="job-name">Job name</label>
        <input id="job-name" value={form.name} onInput={set('name')} {...invalid('job.name')} />
        <label for="reference">Reference video (s3://bucket/key)</label>
        <input
          id="reference"
          value={form.reference}
          onInput={set('reference')}
          {...invalid('job.reference')}
        />
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
        <input id="bitrates" value={form.bitrates} onInput={set('bitrates')} {...invalid('job.bitrates')} />
        <label for="resolutions">Resolutions (WxH, comma separated)</label>
        <input
          id="resolutions"
          value={form.resolutions}
          onInput={set('resolutions')}
          {...invalid('job.resolutions')}
        />
        <button type="submit">Submit job</button>
        {result && <p role="status">{result.text}</p>}
        {error && (
          <p id="submit-error" role="alert" class="error">
            {error.text}
          </p>
        )}
      </form>
    </section>
  );
}
