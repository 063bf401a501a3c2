import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { formatBitrate, renderChart } from '../../../functions/autoabr/domain/chart-svg';
import { convexHull, type RatePoint, suggestLadder } from '../../../functions/autoabr/domain/ladder';

const points: RatePoint[] = [
  { width: 640, height: 360, bitrate: 300_000, score: 60 },
  { width: 640, height: 360, bitrate: 3_000_000, score: 82 },
  { width: 1280, height: 720, bitrate: 1_000_000, score: 80 },
  { width: 1280, height: 720, bitrate: 3_000_000, score: 92 },
];

describe('rate-quality chart', () => {
  const hull = convexHull(points);
  const svg = renderChart({ title: 'clip <HD>', points, hull, ladder: suggestLadder(hull) });

  it('is well-formed SVG', () => {
    const doc = new XMLParser({ ignoreAttributes: false }).parse(svg);
    expect(doc.svg['@_xmlns']).toBe('http://www.w3.org/2000/svg');
  });

  it('escapes the title', () => {
    expect(svg).toContain('clip &lt;HD&gt;');
  });

  it('has a legend entry per resolution and for the hull', () => {
    expect(svg).toContain('>640x360</text>');
    expect(svg).toContain('>1280x720</text>');
    expect(svg).toContain('>convex hull</text>');
  });

  it('draws one line per resolution and a dashed hull', () => {
    expect(svg.match(/<polyline[^>]*stroke-width="2"/g)).toHaveLength(2);
    expect(svg).toMatch(/<polyline[^>]*stroke-dasharray/);
  });

  it('labels bitrate ticks in k and M', () => {
    expect(svg).toContain('>1M</text>');
    expect(formatBitrate(250_000)).toBe('250k');
    expect(formatBitrate(1_500_000)).toBe('1.5M');
  });

  it('says so when there is nothing to draw', () => {
    expect(renderChart({ title: 't', points: [], hull: [], ladder: [] })).toContain('No results yet');
  });
});
