/** Programmes as the timeline shows them: from an EPG's JSON (ISO times) or the engine's events (ms). */
export interface Programme {
  title: string;
  start: number;
  stop: number;
  type: string;
}

export interface WireProgramme {
  title: string;
  start: string;
  stop: string;
  type: string;
}

export const parseProgrammes = (list: readonly WireProgramme[]): Programme[] =>
  list.map((p) => ({ title: p.title, type: p.type, start: Date.parse(p.start), stop: Date.parse(p.stop) }));

/** How many programmes the playout timeline keeps. */
const KEPT = 40;

/** One programme per start time (the later report wins), in start order, the newest KEPT. */
export const mergeProgrammes = (a: readonly Programme[], b: readonly Programme[]): Programme[] => {
  const byStart = new Map<number, Programme>();
  for (const p of [...a, ...b]) byStart.set(p.start, p);
  return [...byStart.values()].sort((x, y) => x.start - y.start).slice(-KEPT);
};
