import { describe, expect, it } from 'vitest';
import {
  compileJson,
  compileTable,
  type ScoredFile,
} from '../../../functions/autoabr/domain/compile-results';
import { parseResultKey, resultKey } from '../../../functions/autoabr/domain/result-keys';

const files: ScoredFile[] = [
  { model: 'HD', width: 1280, height: 720, bitrate: 800000, score: 88.5 },
  { model: 'PhoneHD', width: 640, height: 360, bitrate: 300000, score: 80.25 },
  { model: 'HD', width: 640, height: 360, bitrate: 800000, score: 75 },
  { model: 'HD', width: 640, height: 360, bitrate: 300000, score: 61.125 },
];

describe('result file names', () => {
  it('round-trips a key through the reference layout', () => {
    const key = resultKey('results', 'clip', { model: 'UHD', width: 3840, height: 2160, bitrate: 12000000 });
    expect(key).toBe('results/clip/UHD/3840x2160_12000000_vmaf.json');
    expect(parseResultKey(key.slice('results/clip/'.length))).toEqual({
      model: 'UHD',
      width: 3840,
      height: 2160,
      bitrate: 12000000,
    });
  });

  it('ignores files that are not results', () => {
    for (const key of [
      'HD/notes.txt',
      'SD/640x360_1_vmaf.json',
      'HD/sub/640x360_1_vmaf.json',
      'HD/640x360_vmaf.json',
    ]) {
      expect(parseResultKey(key)).toBeUndefined();
    }
  });
});

describe('compiling results', () => {
  it('keys the JSON by job name, then model, then file name, with {} for a model without files', () => {
    const json = compileJson('clip', files, ['PhoneHD', 'HD', 'UHD']);
    expect(json).toEqual({
      clip: {
        PhoneHD: { '640x360_300000_vmaf.json': 80.25 },
        HD: {
          '640x360_300000_vmaf.json': 61.125,
          '640x360_800000_vmaf.json': 75,
          '1280x720_800000_vmaf.json': 88.5,
        },
        UHD: {},
      },
    });
  });

  it('writes a CSV with a header row, then rows sorted by model, height and bitrate', () => {
    const csv = compileTable('clip', files, 'csv');
    expect(csv.split('\n')).toEqual([
      'jobname,model,width,height,bitrate,score',
      'clip,HD,640,360,300000,61.125',
      'clip,HD,640,360,800000,75',
      'clip,HD,1280,720,800000,88.5',
      'clip,PhoneHD,640,360,300000,80.25',
      '',
    ]);
  });

  it('writes the same rows tab-separated for TSV', () => {
    const tsv = compileTable('clip', files, 'tsv');
    expect(tsv.split('\n')[0]).toBe('jobname\tmodel\twidth\theight\tbitrate\tscore');
    expect(tsv.split('\n')[1]).toBe('clip\tHD\t640\t360\t300000\t61.125');
  });

  it('writes only the header when there are no files', () => {
    expect(compileTable('clip', [], 'csv')).toBe('jobname,model,width,height,bitrate,score\n');
  });
});
