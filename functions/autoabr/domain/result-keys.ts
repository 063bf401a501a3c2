/**
 * Where result files live: `<prefix>/<job name>/<model>/<W>x<H>_<bitrate>_vmaf.json`, one folder per
 * output and per model, the rung in the file name, so a script can walk the results without the API.
 */
import { z } from 'zod';
import { isModelName, type ModelName } from './models';
import { MAX_KEY_BYTES } from './s3-url';

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

/**
 * Digits bounded by what a job can ask for (7680x4320, 10⁹ b/s): a result's name and its row in a
 * table stay short, so a page of results is bounded in bytes by its number of files.
 */
const FILE = /^(\d{1,5})x(\d{1,5})_(\d{1,10})_vmaf\.json$/;

/** The model and rung of a key below an output prefix, or undefined for anything else in that folder. */
export function parseResultKey(relativeKey: string): ResultFile | undefined {
  const [model, file, ...rest] = relativeKey.split('/');
  if (rest.length || !model || !file || !isModelName(model)) return undefined;
  const m = FILE.exec(file);
  if (!m) return undefined;
  return { model, width: Number(m[1]), height: Number(m[2]), bitrate: Number(m[3]) };
}

/**
 * The key a page of an output's results continues after: the last key listed, relative to the output's
 * folder (inside the model's folder when one model is asked for). A cursor (core/paging.ts) must have
 * exactly this shape; listing starts after it and never leaves the output's (or model's) folder.
 */
export const resultPageKey = (model?: ModelName) =>
  z
    .object({
      after: z
        .string()
        .min(1)
        .max(MAX_KEY_BYTES)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
        .refine((key) => !/[\u0000-\u001f\u007f]/.test(key))
        .refine((key) => model === undefined || key.startsWith(`${model}/`)),
    })
    .strict();
export type ResultPageKey = z.infer<ReturnType<typeof resultPageKey>>;
