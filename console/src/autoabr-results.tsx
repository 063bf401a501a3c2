/**
 * An AutoABR output's rate–quality chart per model (inline SVG from the ladder endpoint's points and
 * hull) and its suggested ladder. An output no job made says so ("no job named …"); a job still
 * running or failed says that, instead of "no results".
 */
import { useEffect, useState } from 'preact/hooks';
import { call, cfg, message } from './api';
import type { Worker } from './autoabr-jobs';
import { type Point, RateQualityChart } from './chart';

type Ladders = Record<string, { points: Point[]; hull: Point[]; ladder: Point[] }>;
type Answer =
  | { kind: 'none' }
  | { kind: 'error'; text: string }
  | { kind: 'not-found'; output: string }
  | { kind: 'pending'; output: string; job?: Worker }
  | { kind: 'ladders'; ladders: Ladders };

async function lookUp(output: string): Promise<Answer> {
  const r = await call<{ id: string | null; models: Ladders }>(
    cfg().autoabrApi,
    `/autoabr/result/${encodeURIComponent(output)}/ladder`,
  );
  if (Object.keys(r.models).length > 0) return { kind: 'ladders', ladders: r.models };
  if (r.id === null) return { kind: 'not-found', output };
  const job = await call<Worker>(cfg().autoabrApi, `/autoabr/${encodeURIComponent(r.id)}`).catch(
    () => undefined,
  );
  return { kind: 'pending', output, job };
}

export function Results({ output, setOutput }: { output: string; setOutput: (o: string) => void }) {
  const [answer, setAnswer] = useState<Answer>({ kind: 'none' });
  const load = async (name: string) => {
    if (!name) return;
    try {
      setAnswer(await lookUp(name));
    } catch (err) {
      setAnswer({ kind: 'error', text: message(err) });
    }
  };
  // A job picked in the jobs table (or just submitted) is looked up at once.
  useEffect(() => void load(output), [output]);
  const [typed, setTyped] = useState(output);
  useEffect(() => setTyped(output), [output]);
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Rate–quality and ladder</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (typed === output) void load(typed);
          else setOutput(typed);
        }}
      >
        <label for="output">Results of job (name)</label>
        <input id="output" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        <button type="submit">Show results</button>
      </form>
      <div role="status" data-answer={answer.kind}>
        {answer.kind === 'error' && <p class="error">{answer.text}</p>}
        {answer.kind === 'not-found' && <p class="error">No job named “{answer.output}” was found.</p>}
        {answer.kind === 'pending' && (
          <p>
            No results yet for “{answer.output}”
            {answer.job
              ? `: the job is ${answer.job.phase} (${answer.job.progress.percent}%)${answer.job.error ? `: ${answer.job.error}` : ''}.`
              : '.'}
          </p>
        )}
      </div>
      {answer.kind === 'ladders' &&
        Object.entries(answer.ladders).map(([model, l]) => (
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
