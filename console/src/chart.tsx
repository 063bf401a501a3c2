/** A rate-quality chart as inline SVG: every measured point, the convex hull as a line, the ladder ringed. */
export interface Point {
  width: number;
  height: number;
  bitrate: number;
  score: number;
}

const W = 640;
const H = 320;
const PAD = 44;

export function RateQualityChart({
  model,
  points,
  hull,
  ladder,
}: {
  model: string;
  points: Point[];
  hull: Point[];
  ladder: Point[];
}) {
  if (points.length === 0) return null;
  const maxRate = Math.max(...points.map((p) => p.bitrate));
  const x = (rate: number) => PAD + (rate / maxRate) * (W - 2 * PAD);
  const y = (score: number) => H - PAD - (Math.max(0, score) / 100) * (H - 2 * PAD);
  const hullPath = hull
    .map((p, i) => `${i ? 'L' : 'M'}${x(p.bitrate).toFixed(1)},${y(p.score).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`${model}: VMAF against bitrate, ${points.length} points`}
    >
      <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} stroke="#5a6b7b" />
      <line x1={PAD} y1={PAD} x2={PAD} y2={H - PAD} stroke="#5a6b7b" />
      {[0, 25, 50, 75, 100].map((s) => (
        <text key={s} x={PAD - 6} y={y(s) + 4} font-size="11" text-anchor="end">
          {s}
        </text>
      ))}
      <text x={W / 2} y={H - 8} font-size="12" text-anchor="middle">
        bitrate (max {(maxRate / 1000).toFixed(0)} kbit/s)
      </text>
      <text x={12} y={H / 2} font-size="12" transform={`rotate(-90 12 ${H / 2})`} text-anchor="middle">
        VMAF
      </text>
      <path d={hullPath} fill="none" stroke="#2d6cdf" stroke-dasharray="5 4" />
      {points.map((p) => (
        <circle
          key={`${p.width}x${p.height}@${p.bitrate}`}
          cx={x(p.bitrate)}
          cy={y(p.score)}
          r="3.5"
          fill="#14212e"
        >
          <title>{`${p.width}×${p.height} ${(p.bitrate / 1000).toFixed(0)} kbit/s: ${p.score.toFixed(1)}`}</title>
        </circle>
      ))}
      {ladder.map((p) => (
        <circle
          key={`l${p.bitrate}`}
          cx={x(p.bitrate)}
          cy={y(p.score)}
          r="8"
          fill="none"
          stroke="#1d7a3a"
          stroke-width="2"
        />
      ))}
    </svg>
  );
}
