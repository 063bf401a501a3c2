import { describe, expect, it } from 'vitest';
import { parseS3Url, s3UrlProblem } from '../../../functions/autoabr/domain/s3-url';

describe('an acceptable s3 URL', () => {
  it.each([
    ['s3://media/ref/clip.mp4', { bucket: 'media', key: 'ref/clip.mp4' }],
    ['s3://my.bucket-1/a b/Ünïcode ✓.mov', { bucket: 'my.bucket-1', key: 'a b/Ünïcode ✓.mov' }],
    ['s3://media/100%/clip.mp4', { bucket: 'media', key: '100%/clip.mp4' }],
    ['s3://media/a..b/c...mp4', { bucket: 'media', key: 'a..b/c...mp4' }],
  ])('parses %j into its bucket and key', (url, loc) => {
    expect(s3UrlProblem(url)).toBeUndefined();
    expect(parseS3Url(url)).toEqual(loc);
  });

  it('accepts a key of exactly 1,024 UTF-8 bytes', () => {
    expect(parseS3Url(`s3://media/${'é'.repeat(512)}`)).toBeDefined();
  });
});

describe('an unacceptable s3 URL', () => {
  it.each([
    ['no scheme', 'media/clip.mp4', /s3:\/\/bucket\/key/],
    ['another scheme', 'https://media/clip.mp4', /s3:\/\/bucket\/key/],
    ['no key', 's3://media/', /key is missing/],
    ['a bucket with capitals', 's3://Media/clip.mp4', /bucket name/],
    ['a bucket with adjacent dots', 's3://me..dia/clip.mp4', /bucket name/],
    ['a key over 1,024 bytes', `s3://media/${'é'.repeat(513)}`, /1024 bytes/],
    ['a NUL in the key', 's3://media/a\u0000b.mp4', /control/],
    ['a newline in the key', 's3://media/a\nb.mp4', /control/],
    ['a right-to-left override in the key', 's3://media/clip\u202e4pm.exe', /bidirectional/],
    ['a backslash in the key', 's3://media/a\\..\\b.mp4', /backslash/],
    ['a .. segment', 's3://media/refs/../../etc/passwd', /\.\. segments/],
    ['a . segment', 's3://media/./clip.mp4', /\.\. segments/],
    ['a leading slash', 's3://media//clip.mp4', /empty/],
    ['a trailing slash', 's3://media/refs/', /empty/],
    ['a percent-encoded traversal', 's3://media/refs/..%2F..%2Fetc%2Fpasswd', /percent-decoded/],
    ['a percent-encoded dot segment', 's3://media/%2e%2e/clip.mp4', /percent-decoded/],
    ['a percent-encoded NUL', 's3://media/clip%00.mp4', /percent-decoded.*control/],
  ])('refuses %s, saying why', (_what, url, why) => {
    expect(s3UrlProblem(url)).toMatch(why);
    expect(parseS3Url(url)).toBeUndefined();
  });
});
