/**
 * The master manifest filter (engine README, "Filter"): parenthesised terms joined by AND, each term
 * `type=="video"AND<attribute><op><integer>` (more conditions may follow inside a term, joined by AND).
 * Attributes: height (pixels) and systemBitrate (BANDWIDTH); operators > and <. Whitespace is ignored.
 * Only video variants are filtered; anything else in the filter is a FilterError (a 400 for the client).
 */
import type { OutputVariant } from '../ladder/output-ladder';

export class FilterError extends Error {
  override name = 'FilterError';
}

export interface Condition {
  attribute: 'height' | 'systemBitrate';
  op: '>' | '<';
  value: number;
}

const CONDITION = /^(height|systemBitrate)([<>])(\d+)$/;
const VIDEO_TYPE = /^type==(?:"video"|'video')$/;

export function parseFilter(raw: string): Condition[] {
  const text = raw.replace(/\s+/g, '');
  if (!text.startsWith('(') || !text.endsWith(')'))
    throw new FilterError('each filter term must be in parentheses');
  const conditions: Condition[] = [];
  for (const term of text.slice(1, -1).split(')AND(')) {
    if (/[()]/.test(term)) throw new FilterError(`terms must be joined by AND: "${term}"`);
    const [type, ...rest] = term.split('AND');
    if (!VIDEO_TYPE.test(type ?? ''))
      throw new FilterError(`a term must start with type=="video": "${term}"`);
    if (rest.length === 0) throw new FilterError(`term "${term}" has no condition`);
    for (const part of rest) {
      const m = part.match(CONDITION);
      if (!m)
        throw new FilterError(`unsupported condition "${part}" (use height or systemBitrate with > or <)`);
      conditions.push({
        attribute: m[1] as Condition['attribute'],
        op: m[2] as Condition['op'],
        value: Number(m[3]),
      });
    }
  }
  return conditions;
}

const VIDEO_CODEC = /avc|hvc|hev|av01|vp0|vp9|dvh|dva/i;
export const isVideoVariant = (v: OutputVariant): boolean =>
  v.height !== undefined || v.width !== undefined || VIDEO_CODEC.test(v.codecs ?? '');

function holds(v: OutputVariant, c: Condition): boolean {
  const actual = c.attribute === 'height' ? v.height : v.bandwidth;
  if (actual === undefined) return false;
  return c.op === '>' ? actual > c.value : actual < c.value;
}

/** Indexes of the variants the filter keeps (audio-only variants always stay). */
export function applyFilter(variants: readonly OutputVariant[], conditions: readonly Condition[]): number[] {
  return variants
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => !isVideoVariant(v) || conditions.every((c) => holds(v, c)))
    .map(({ i }) => i);
}
