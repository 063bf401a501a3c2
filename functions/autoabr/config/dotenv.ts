/**
 * A tiny `.env` reader: KEY=value lines, `#` comments, optional `export `, single or double quotes
 * (double quotes understand \n). Variables already set in the environment always win. Only the worker's
 * entry point loads one (entry/worker-main.ts): loading changes the environment it is given.
 */
import { readFileSync } from 'node:fs';

export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[m[1]!] = value;
  }
  return out;
}

/** Fills unset variables of `env` from the file; returns the names it set. A missing file is no error. */
export function loadDotEnv(path: string, env: Record<string, string | undefined>): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const set: string[] = [];
  for (const [k, v] of Object.entries(parseDotEnv(text))) {
    if (env[k] === undefined) {
      env[k] = v;
      set.push(k);
    }
  }
  return set;
}
