/**
 * Where result files live: `<prefix>/<job name>/<model>/<W>x<H>_<bitrate>_vmaf.json`, one folder per
 * output and per model, the rung in the file name, so a script can walk the results without the API.
 */
import { isModelName, type ModelName } from './models';

export interface Rung {
  width: number;
  height: number;
  bitrate: number;
}

export interface ResultFile extends Rung {
  model: ModelName;
}

export const resultFileName = (r: Rung): string => `${r.width}x${r.height}_${r.bitrate}_vmaf.json`;

/** The folder (with trailing slash) holding every result of a job output. */
export const outputPrefix = (prefix: string, output: string): string => `${prefix}/${output}/`;

export const resultKey = (prefix: string, output: string, file: ResultFile): string =>
  `${outputPrefix(prefix, output)}${file.model}/${resultFileName(file)}`;

const FILE = /^(\d+)x(\d+)_(\d+)_vmaf\.json$/;

/** The model and rung of a key below an output prefix, or undefined for anything else in that folder. */
export function parseResultKey(relativeKey: string): ResultFile | undefined {
  const [model, file, ...rest] = relativeKey.split('/');
  if (rest.length || !model || !file || !isModelName(model)) return undefined;
  const m = FILE.exec(file);
  if (!m) return undefined;
  return { model, width: Number(m[1]), height: Number(m[2]), bitrate: Number(m[3]) };
}
