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

  it.each([
    [{ cpu: 1024, memoryMiB: 1024 }, /^taskSize\.memoryMiB: .*2048-8192/],
    [{ cpu: 4096, memoryMiB: 32_768 }, /^taskSize\.memoryMiB: .*8192-30720/],
    [{ cpu: 8192, memoryMiB: 17_408 }, /^taskSize\.memoryMiB: /],
    [{ memoryMiB: 2048 }, /^taskSize\.memoryMiB: Fargate CPU 4096 takes/],
  ])('refuses the task size %o, which Fargate refuses, naming the memory field', (taskSize, issue) => {
    const res = pipelineSchema.safeParse({ taskSize });
    expect(res.success).toBe(false);
    if (!res.success) expect(describeIssue(res.error)).toMatch(issue);
  });

  it.each([
    [{ cpu: 256, memoryMiB: 512 }],
    [{ cpu: 1024, memoryMiB: 8192 }],
    [{ cpu: 16_384, memoryMiB: 122_880 }],
  ])('accepts the task size %o, which Fargate takes', (taskSize) => {
    expect(pipelineSchema.parse({ taskSize }).taskSize).toEqual(taskSize);
  });

  it('sizes memory to the least Fargate takes with the CPU when only the CPU is given', () => {
    expect(pipelineSchema.parse({ taskSize: { cpu: 256 } }).taskSize).toEqual({ cpu: 256, memoryMiB: 512 });
    expect(pipelineSchema.parse({ taskSize: { cpu: 8192 } }).taskSize).toEqual({
      cpu: 8192,
      memoryMiB: 16_384,
    });
    expect(DEFAULT_PIPELINE.taskSize).toEqual({ cpu: 4096, memoryMiB: 8192 });
  });

  it('refuses a result prefix that would escape its folder', () => {
    expect(pipelineSchema.safeParse({ resultPrefix: '../x' }).success).toBe(false);
    expect(pipelineSchema.safeParse({ resultPrefix: 'a//b' }).success).toBe(false);
    expect(pipelineSchema.safeParse({ resultPrefix: 'team-a/results' }).success).toBe(true);
  });
});
