import { describe, expect, it } from 'vitest';
import { stackConfig } from '../../lib/stack-config';

const config = (context: Record<string, unknown>) => stackConfig('test', (key) => context[key]);

describe('deployment settings from CDK context', () => {
  it('defaults to no extra buckets, no custom domain, and the usual Fargate sizes', () => {
    expect(config({})).toEqual({
      stage: 'test',
      autoabrBuckets: [],
      consoleOrigins: [],
      engineSize: { cpu: 1024, memoryLimitMiB: 2048 },
      workerSize: { cpu: 4096, memoryLimitMiB: 8192 },
      apiThrottle: { rateLimit: 50, burstLimit: 100 },
      asRunRetentionDays: 7,
      timeshiftRetentionHours: 24,
    });
  });

  it('keeps the as-run log 7 days in test and 90 in prod, or the days context asRunRetentionDays sets', () => {
    expect(stackConfig('prod', () => undefined).asRunRetentionDays).toBe(90);
    expect(config({ asRunRetentionDays: '30' }).asRunRetentionDays).toBe(30);
    expect(() => config({ asRunRetentionDays: '0' })).toThrow(/asRunRetentionDays/);
  });

  it('throttles prod APIs ten times higher than test, and takes other limits from context', () => {
    expect(stackConfig('prod', () => undefined).apiThrottle).toEqual({ rateLimit: 500, burstLimit: 1000 });
    expect(config({ apiRateLimit: '20', apiBurstLimit: 40 }).apiThrottle).toEqual({
      rateLimit: 20,
      burstLimit: 40,
    });
    expect(() => config({ apiRateLimit: '0' })).toThrow(/apiRateLimit/);
    expect(() => config({ apiBurstLimit: 'lots' })).toThrow(/apiBurstLimit/);
  });

  it('reads AutoABR buckets from a comma-separated string or a cdk.json list', () => {
    expect(config({ autoabrBuckets: 'media-in, results-out' }).autoabrBuckets).toEqual([
      'media-in',
      'results-out',
    ]);
    expect(config({ autoabrBuckets: ['media-in'] }).autoabrBuckets).toEqual(['media-in']);
  });

  it('refuses an AutoABR bucket that is not a bucket name', () => {
    expect(() => config({ autoabrBuckets: 's3://media-in' })).toThrow(/autoabrBuckets/);
  });

  it('takes a playback domain only with an ACM certificate in us-east-1', () => {
    const arn = 'arn:aws:acm:us-east-1:111111111111:certificate/abc-123';
    expect(config({ playbackDomain: 'tv.example.com', playbackCertificateArn: arn }).playbackDomain).toEqual({
      domainName: 'tv.example.com',
      certificateArn: arn,
    });
    expect(() => config({ playbackDomain: 'tv.example.com' })).toThrow(/go together/);
    expect(() =>
      config({
        playbackDomain: 'tv.example.com',
        playbackCertificateArn: arn.replace('us-east-1', 'eu-west-1'),
      }),
    ).toThrow(/us-east-1/);
  });

  it('fails the synth on a CPU/memory pair Fargate refuses', () => {
    expect(() => config({ workerCpu: '4096', workerMemory: '4096' })).toThrow(/takes memory/);
    expect(config({ engineCpu: '2048', engineMemory: '4096' }).engineSize).toEqual({
      cpu: 2048,
      memoryLimitMiB: 4096,
    });
  });
});
