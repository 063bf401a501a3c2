/**
 * A page of results is bounded in bytes by its number of files: the largest page of the largest
 * names and numbers a result key can hold still fits a Lambda response (6 MB), as JSON and as a table;
 * so does a chart of as many points as it takes, each a resolution of its own.
 */
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../functions/autoabr/domain/chart-svg';
import {
  compileJson,
  compileTable,
  type ScoredFile,
} from '../../../functions/autoabr/domain/compile-results';
import { convexHull, suggestLadder } from '../../../functions/autoabr/domain/ladder';
import { MODEL_NAMES } from '../../../functions/autoabr/domain/models';
import { parseResultKey } from '../../../functions/autoabr/domain/result-keys';

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
/** RESULT_PAGES.maxLimit (api/result-handlers.ts). */
const MAX_PAGE_FILES = 10_000;
/** MAX_CHART_FILES (api/chart-handlers.ts). */
const MAX_CHART_FILES = 6_144;

describe('a page of results', () => {
  it('refuses result names with more digits than a job can ask for', () => {
    expect(parseResultKey('HD/99999x99999_9999999999_vmaf.json')).toBeDefined();
    expect(parseResultKey('HD/999999x360_500000_vmaf.json')).toBeUndefined();
    expect(parseResultKey(`HD/640x360_${'9'.repeat(11)}_vmaf.json`)).toBeUndefined();
  });

  it('fits a Lambda response at its largest, as JSON, CSV and TSV', () => {
    const name = 'n'.repeat(128);
    const files: ScoredFile[] = Array.from({ length: MAX_PAGE_FILES }, (_, i) => ({
      model: MODEL_NAMES[i % 3]!,
      width: 99_990 + (i % 10),
      height: 99_999,
      bitrate: 9_999_990_000 + i,
      score: 1 / 3 + i,
    }));
    const json = JSON.stringify({
      id: null,
      status: 'INACTIVE',
      result: compileJson(name, files, MODEL_NAMES),
    });
    expect(Buffer.byteLength(json)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    for (const format of ['csv', 'tsv'] as const)
      expect(Buffer.byteLength(compileTable(name, files, format))).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });
});

describe('a chart', () => {
  it('fits a Lambda response at its largest, every point a resolution of its own', () => {
    const points = Array.from({ length: MAX_CHART_FILES }, (_, i) => ({
      model: 'HD' as const,
      width: 7680 - 2 * (i % 3840),
      height: 4320 - 2 * Math.floor(i / 3840),
      bitrate: 999_000_000 + i * 97,
      score: 100 - (i % 997) / 10.123,
    }));
    const hull = convexHull(points);
    const svg = renderChart({
      title: `${'n'.repeat(128)}: HD rate-quality`,
      points,
      hull,
      ladder: suggestLadder(hull, { targetScore: 100, minStep: 0 }),
    });
    expect(Buffer.byteLength(svg)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });
});
