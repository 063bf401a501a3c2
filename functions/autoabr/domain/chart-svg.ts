/**
 * A rate-quality chart as a standalone SVG: one line per resolution, the convex hull dashed on top and
 * the suggested ladder's rungs ringed. Bitrate runs on a log axis once the range spans more than 4x,
 * since ladders are roughly geometric and a linear axis crams the low rungs into a corner.
 */
import type { RatePoint } from './ladder';

export interface ChartInput {
  title: string;
  points: readonly RatePoint[];
  hull: readonly RatePoint[];
  ladder: readonly RatePoint[];
}

const W = 860;
const H = 520;
const M = { left: 64, right: 170, top: 48, bottom: 56 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;
const PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
];

export const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** 250000 -> "250k", 1500000 -> "1.5M". */
export function formatBitrate(bps: number): string {
  const trim = (n: number) => String(Number(n.toFixed(2)));
  if (bps >= 1e6) return `${trim(bps / 1e6)}M`;
  if (bps >= 1e3) return `${trim(bps / 1e3)}k`;
  return String(bps);
}

interface Axis {
  toPx(v: number): number;
  ticks: number[];
}

/** 1-2-5 ticks per decade for a log axis; `niceStep` ticks for a linear one. */
function bitrateAxis(min: number, max: number): Axis {
  const log = max / min > 4;
  if (log) {
    const lo = Math.log10(min / 1.15);
    const hi = Math.log10(max * 1.15);
    const ticks: number[] = [];
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (Math.log10(v) >= lo && Math.log10(v) <= hi) ticks.push(v);
      }
    }
    return { toPx: (v) => M.left + ((Math.log10(v) - lo) / (hi - lo)) * PLOT_W, ticks };
  }
  const pad = (max - min || max || 1) * 0.08;
  const lo = Math.max(0, min - pad);
  const hi = max + pad;
  const step = niceStep((hi - lo) / 6);
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
  return { toPx: (v) => M.left + ((v - lo) / (hi - lo)) * PLOT_W, ticks };
}

function niceStep(raw: number): number {
  const e = 10 ** Math.floor(Math.log10(raw));
  const f = raw / e;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

function scoreAxis(min: number): Axis {
  const lo = Math.max(0, Math.min(90, Math.floor((min - 2) / 10) * 10));
  const step = 100 - lo <= 30 ? 5 : 10;
  const ticks: number[] = [];
  for (let v = lo; v <= 100; v += step) ticks.push(v);
  // VMAF is clipped to [0, 100] anyway; clamping keeps a stray value inside the frame.
  const clamp = (v: number) => Math.min(100, Math.max(lo, v));
  return { toPx: (v) => M.top + PLOT_H - ((clamp(v) - lo) / (100 - lo)) * PLOT_H, ticks };
}

const f1 = (n: number) => n.toFixed(1);
const label = (p: RatePoint) =>
  `${p.width}x${p.height} @ ${formatBitrate(p.bitrate)}b/s: VMAF ${p.score.toFixed(2)}`;

export function renderChart(input: ChartInput): string {
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="28" font-size="16" font-weight="bold" fill="#222">${escapeXml(input.title)}</text>`,
  ];
  if (input.points.length === 0) {
    out.push(
      `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#666">No results yet</text>`,
      '</svg>',
    );
    return out.join('\n');
  }
  const bitrates = input.points.map((p) => p.bitrate);
  const plot: Plot = {
    x: bitrateAxis(Math.min(...bitrates), Math.max(...bitrates)),
    y: scoreAxis(Math.min(...input.points.map((p) => p.score))),
  };
  const series = seriesByResolution(input.points);
  out.push(
    ...gridAndAxes(plot),
    ...seriesLines(plot, series),
    ...hullAndLadder(plot, input),
    ...legend(series),
    '</svg>',
  );
  return out.join('\n');
}

interface Plot {
  x: Axis;
  y: Axis;
}

const pointPx = ({ x, y }: Plot, p: RatePoint) => ({ cx: f1(x.toPx(p.bitrate)), cy: f1(y.toPx(p.score)) });
const polylinePoints = (plot: Plot, points: readonly RatePoint[]) =>
  points
    .map((p) => {
      const { cx, cy } = pointPx(plot, p);
      return `${cx},${cy}`;
    })
    .join(' ');

function gridAndAxes({ x, y }: Plot): string[] {
  const out: string[] = [];
  for (const t of x.ticks) {
    const xp = f1(x.toPx(t));
    out.push(
      `<line x1="${xp}" y1="${M.top}" x2="${xp}" y2="${M.top + PLOT_H}" stroke="#e6e6e6"/>`,
      `<text x="${xp}" y="${M.top + PLOT_H + 18}" text-anchor="middle" fill="#444">${formatBitrate(t)}</text>`,
    );
  }
  for (const t of y.ticks) {
    const yp = f1(y.toPx(t));
    out.push(
      `<line x1="${M.left}" y1="${yp}" x2="${M.left + PLOT_W}" y2="${yp}" stroke="#e6e6e6"/>`,
      `<text x="${M.left - 8}" y="${yp}" text-anchor="end" dominant-baseline="middle" fill="#444">${t}</text>`,
    );
  }
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${PLOT_W}" height="${PLOT_H}" fill="none" stroke="#888"/>`,
    `<text x="${M.left + PLOT_W / 2}" y="${H - 14}" text-anchor="middle" fill="#222">Bitrate (b/s)</text>`,
    `<text transform="translate(18 ${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" fill="#222">VMAF (harmonic mean)</text>`,
  );
  return out;
}

/** One series per resolution, smallest first, each sorted by bitrate. */
function seriesByResolution(points: readonly RatePoint[]): Map<string, RatePoint[]> {
  const series = new Map<string, RatePoint[]>();
  for (const p of [...points].sort((a, b) => a.height - b.height || a.width - b.width)) {
    const key = `${p.width}x${p.height}`;
    series.set(key, [...(series.get(key) ?? []), p]);
  }
  for (const pts of series.values()) pts.sort((a, b) => a.bitrate - b.bitrate);
  return series;
}

const seriesColor = (i: number) => PALETTE[i % PALETTE.length]!;

function seriesLines(plot: Plot, series: Map<string, RatePoint[]>): string[] {
  const out: string[] = [];
  [...series.values()].forEach((pts, i) => {
    const color = seriesColor(i);
    out.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${polylinePoints(plot, pts)}"/>`,
    );
    for (const p of pts) {
      const { cx, cy } = pointPx(plot, p);
      out.push(
        `<circle cx="${cx}" cy="${cy}" r="3.5" fill="${color}"><title>${escapeXml(label(p))}</title></circle>`,
      );
    }
  });
  return out;
}

/** The convex hull dashed on top, the suggested ladder's rungs ringed. */
function hullAndLadder(plot: Plot, input: ChartInput): string[] {
  const out: string[] = [];
  if (input.hull.length > 1) {
    out.push(
      `<polyline fill="none" stroke="#111" stroke-width="1.5" stroke-dasharray="6 4" points="${polylinePoints(plot, input.hull)}"/>`,
    );
  }
  for (const p of input.ladder) {
    const { cx, cy } = pointPx(plot, p);
    out.push(
      `<circle cx="${cx}" cy="${cy}" r="8" fill="none" stroke="#111" stroke-width="1.5"><title>${escapeXml(`ladder rung: ${label(p)}`)}</title></circle>`,
    );
  }
  return out;
}

/** Right of the plot: one entry per resolution, then the hull and the ladder. */
function legend(series: Map<string, RatePoint[]>): string[] {
  const out: string[] = [];
  [...series.keys()].forEach((key, i) => {
    const color = seriesColor(i);
    const ly = M.top + 10 + i * 20;
    out.push(
      `<line x1="${W - M.right + 16}" y1="${ly}" x2="${W - M.right + 40}" y2="${ly}" stroke="${color}" stroke-width="2"/>`,
      `<circle cx="${W - M.right + 28}" cy="${ly}" r="3.5" fill="${color}"/>`,
      `<text x="${W - M.right + 48}" y="${ly}" dominant-baseline="middle" fill="#222">${escapeXml(key)}</text>`,
    );
  });
  const ly = M.top + 10 + series.size * 20 + 10;
  out.push(
    `<line x1="${W - M.right + 16}" y1="${ly}" x2="${W - M.right + 40}" y2="${ly}" stroke="#111" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    `<text x="${W - M.right + 48}" y="${ly}" dominant-baseline="middle" fill="#222">convex hull</text>`,
    `<circle cx="${W - M.right + 28}" cy="${ly + 22}" r="8" fill="none" stroke="#111" stroke-width="1.5"/>`,
    `<text x="${W - M.right + 48}" y="${ly + 22}" dominant-baseline="middle" fill="#222">suggested ladder</text>`,
  );
  return out;
}
