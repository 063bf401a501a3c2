import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors';
import { parseJobRequest } from '../../functions/autoabr/api/job-request';

const valid = () => ({
  job: {
    name: 'clip_01',
    reference: 's3://media/ref/clip.mp4',
    models: ['HD', 'PhoneHD'],
    bitrates: [300000, 800000],
    resolutions: [
      { width: 640, height: 360 },
      { width: 1280, height: 720 },
    ],
  },
});

function fieldOf(body: unknown): string | undefined {
  try {
    parseJobRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).details.field as string;
  }
  return undefined;
}

describe('a valid job request', () => {
  it('accepts a complete job with the settings URLs left out', () => {
    const req = parseJobRequest(valid());
    expect(req.job.name).toBe('clip_01');
    expect(req.encodingSettingsUrl).toBeUndefined();
    expect(req.pipelineUrl).toBeUndefined();
  });

  it('accepts settings documents given as s3 URLs', () => {
    const req = parseJobRequest({
      ...valid(),
      encodingSettingsUrl: 's3://cfg/enc.json',
      pipelineUrl: 's3://cfg/p.json',
    });
    expect(req.pipelineUrl).toBe('s3://cfg/p.json');
  });

  it('accepts the largest resolution, 7680x4320', () => {
    const body = valid();
    body.job.resolutions = [{ width: 7680, height: 4320 }];
    expect(parseJobRequest(body).job.resolutions[0]).toEqual({ width: 7680, height: 4320 });
  });
});

describe('an invalid job request', () => {
  it('requires the job object', () => {
    expect(fieldOf({})).toBe('job');
  });

  it.each([['a/b'], ['..'], [''], ['name with space'], ['x'.repeat(129)]])(
    'refuses the job name %j, which is not one S3 key segment',
    (name) => {
      const body = valid();
      body.job.name = name;
      expect(fieldOf(body)).toBe('job.name');
    },
  );

  it.each([['https://media/ref.mp4'], ['s3://media'], ['s3://Media_Bucket/ref.mp4'], ['/tmp/ref.mp4']])(
    'refuses the reference %j, which is not an s3://bucket/key URL',
    (reference) => {
      const body = valid();
      body.job.reference = reference;
      expect(fieldOf(body)).toBe('job.reference');
    },
  );

  it.each([
    ['a NUL', 's3://media/ref\u0000.mp4', /control/],
    ['a right-to-left override', 's3://media/clip\u202e4pm.mp4', /bidirectional/],
    ['a traversal', 's3://media/refs/../../etc/passwd', /\.\. segments/],
    ['an encoded traversal', 's3://media/refs/..%2F..%2Fsecret.mp4', /percent-decoded/],
    ['2 KB of key', `s3://media/${'k'.repeat(2048)}`, /2048 characters/],
  ])('refuses a reference holding %s, saying why', (_what, reference, why) => {
    const body = valid();
    body.job.reference = reference;
    expect(fieldOf(body)).toBe('job.reference');
    expect(() => parseJobRequest(body)).toThrow(why);
  });

  it('refuses a settings URL that is not an s3 URL', () => {
    expect(fieldOf({ ...valid(), pipelineUrl: 'http://example.com/p.json' })).toBe('pipelineUrl');
  });

  it('refuses models outside PhoneHD, HD and UHD', () => {
    const body = valid();
    body.job.models = ['HD', 'SD'];
    expect(fieldOf(body)).toBe('job.models.1');
  });

  it('refuses an empty model list and repeated models', () => {
    const empty = valid();
    empty.job.models = [];
    expect(fieldOf(empty)).toBe('job.models');
    const twice = valid();
    twice.job.models = ['HD', 'HD'];
    expect(fieldOf(twice)).toBe('job.models');
  });

  it.each([[0], [-500], [1.5], ['800000']])('refuses the bitrate %j', (bitrate) => {
    const body = valid() as { job: { bitrates: unknown[] } };
    body.job.bitrates = [bitrate];
    expect(fieldOf(body)).toBe('job.bitrates.0');
  });

  it.each([
    [{ width: 641, height: 360 }, 'job.resolutions.0.width'],
    [{ width: 640, height: 0 }, 'job.resolutions.0.height'],
    [{ width: 7682, height: 4320 }, 'job.resolutions.0.width'],
    [{ width: 7680, height: 4322 }, 'job.resolutions.0.height'],
  ])('refuses the resolution %j', (resolution, field) => {
    const body = valid();
    body.job.resolutions = [resolution];
    expect(fieldOf(body)).toBe(field);
  });

  it('names an unknown field instead of ignoring it', () => {
    const body = { ...valid(), priority: 'high' };
    expect(fieldOf(body)).toBe('priority');
  });
});
