/**
 * One object for equal ladders. Channels on the same content and profile decide equal ladders, and
 * what is remembered per ladder object (the tracks mapped onto it per VOD, its rendition keys) is then
 * made once for all of them instead of once per channel: most of a Loop channel's start-up CPU at
 * 100,000 channels. A ladder never changes once made (it is copied into every log item), so sharing it
 * is safe; it is frozen to keep it so.
 */
import type { OutputLadder } from './output-ladder';

/** Distinct ladders remembered; past this the memo starts again (a ladder in use stays with its items). */
const MAX_LADDERS = 1024;
const ladders = new Map<string, OutputLadder>();

export function sharedLadder(ladder: OutputLadder): OutputLadder {
  const key = JSON.stringify(ladder);
  const known = ladders.get(key);
  if (known) return known;
  if (ladders.size >= MAX_LADDERS) ladders.clear();
  ladders.set(key, deepFreeze(ladder));
  return ladder;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
