import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENCODING_SETTINGS,
  DEFAULT_PIPELINE,
  describeIssue,
  encodingSettingsSchema,
  pipelineSchema,
} from '../../../functions/autoabr/domain/settings';

describe('settings documents', () => {
  it('defaults to H.264 medium, VBR, 2 s fixed GOPs, 8-bit 4:2:0 in MP4', () => {
    expect(DEFAULT_ENCODING_SETTINGS).toMatchObject({
      codec: 'h264',
      preset: 'medium',
      rateControl: { mode: 'VBR' },
      gop: { seconds: 2, sceneCut: false },
      pixelFormat: 'yuv420p',
      container: 'mp4',
    });
  });

  it('defaults the pipeline to results/ in the service bucket, 2 workers, every core, every frame', () => {
    expect(DEFAULT_PIPELINE).toMatchObject({
      resultPrefix: 'results',
      maxParallelWorkers: 2,
      ffmpegThreads: 0,
      nSubsample: 1,
    });
    expect(DEFAULT_PIPELINE.resultBucket).toBeUndefined();
  });

  it('fills what a partial document leaves out', () => {
    const doc = encodingSettingsSchema.parse({ codec: 'hevc', rateControl: { mode: 'CRF', crf: 28 } });
    expect(doc.codec).toBe('hevc');
    expect(doc.rateControl).toEqual({ mode: 'CRF', crf: 28, maxrateFactor: 1.5, bufsizeFactor: 2 });
    expect(doc.preset).toBe('medium');
  });

  it('refuses a misspelt field and names it', () => {
    const res = encodingSettingsSchema.safeParse({ codce: 'h264' });
    expect(res.success).toBe(false);
    if (!res.success) expect(describeIssue(res.error)).toContain('codce');
  });

  it('refuses a rate control mode other than CBR, VBR or CRF', () => {
    const res = encodingSettingsSchema.safeParse({ rateControl: { mode: 'ABR' } });
    expect(res.success).toBe(false);
    if (!res.success) expect(describeIssue(res.error)).toMatch(/^rateControl\.mode: /);
  });

  it('refuses a Fargate CPU size that does not exist', () => {
    const res = pipelineSchema.safeParse({ taskSize: { cpu: 3000 } });
    expect(res.success).toBe(false);
    if (!res.success) expect(describeIssue(res.error)).toMatch(/^taskSize\.cpu: /);
  });

  it('refuses a result prefix that would escape its folder', () => {
    expect(pipelineSchema.safeParse({ resultPrefix: '../x' }).success).toBe(false);
    expect(pipelineSchema.safeParse({ resultPrefix: 'a//b' }).success).toBe(false);
    expect(pipelineSchema.safeParse({ resultPrefix: 'team-a/results' }).success).toBe(true);
  });
});
