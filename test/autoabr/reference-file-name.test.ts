import { describe, expect, it } from 'vitest';
import { referenceFileName } from '../../functions/autoabr/worker/download-reference';

describe('the local file a reference is downloaded to', () => {
  it('keeps a plain extension of the key', () => {
    expect(referenceFileName('s3://media/refs/clip.MOV')).toBe('reference.MOV');
  });

  it.each([
    ['no extension', 's3://media/refs/clip'],
    ['an extension with a space', 's3://media/refs/clip.m p4'],
    ['an extension with a quote and a semicolon', "s3://media/refs/clip.mp4';rm -rf"],
    ['an over-long extension', `s3://media/refs/clip.${'x'.repeat(200)}`],
    ['an extension that is a traversal', 's3://media/refs/clip..'],
  ])('falls back to reference.mp4 for a key with %s', (_what, url) => {
    expect(referenceFileName(url)).toBe('reference.mp4');
  });
});
