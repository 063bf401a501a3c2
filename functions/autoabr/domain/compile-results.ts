/** Compiling scored result files into the JSON object and the CSV/TSV tables the API serves. */
import type { ModelName } from './models';
import { type ResultFile, resultFileName } from './result-keys';

export interface ScoredFile extends ResultFile {
  score: number;
}

/** The order of table rows and JSON keys: model, height, bitrate, then width. */
export function compareScored(a: ResultFile, b: ResultFile): number {
  if (a.model !== b.model) return a.model < b.model ? -1 : 1;
  return a.height - b.height || a.bitrate - b.bitrate || a.width - b.width;
}

export type ModelResults = Record<string, number>;

/**
 * `{ <jobName>: { <model>: { "<W>x<H>_<bitrate>_vmaf.json": score } } }`, one key per requested model,
 * `{}` for a model without files.
 */
export function compileJson(
  jobName: string,
  files: readonly ScoredFile[],
  models: readonly ModelName[],
): Record<string, Record<string, ModelResults>> {
  const byModel: Record<string, ModelResults> = {};
  for (const model of models) byModel[model] = {};
  for (const f of [...files].sort(compareScored)) {
    const bucket = byModel[f.model];
    if (bucket) bucket[resultFileName(f)] = f.score;
  }
  return { [jobName]: byModel };
}

export type TableFormat = 'csv' | 'tsv';

export const TABLE_HEADER = ['jobname', 'model', 'width', 'height', 'bitrate', 'score'] as const;

export const TABLE_CONTENT_TYPE: Record<TableFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
};

function cell(value: string, format: TableFormat): string {
  if (format === 'tsv') return value.replace(/[\t\r\n]/g, ' ');
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Header plus one row per file, sorted by model, height, bitrate; newline-terminated. */
export function compileTable(jobName: string, files: readonly ScoredFile[], format: TableFormat): string {
  const sep = format === 'csv' ? ',' : '\t';
  const rows = [...files]
    .sort(compareScored)
    .map((f) =>
      [jobName, f.model, String(f.width), String(f.height), String(f.bitrate), String(f.score)]
        .map((v) => cell(v, format))
        .join(sep),
    );
  return `${[TABLE_HEADER.join(sep), ...rows].join('\n')}\n`;
}
