/**
 * Live HLS through the playback CloudFront as players need it (issue 19): playlists fresh, segments
 * long-cached, errors not held, idle connections closed by the nearer end first, every request logged.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synth } from './synth';

let template: Template;

beforeAll(() => {
  template = synth('test').template;
}, 300_000);

type Behavior = {
  PathPattern: string;
  CachePolicyId: unknown;
  Compress?: boolean;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
};

function distributionConfig(t: Template) {
  const [distribution] = Object.values(t.findResources('AWS::CloudFront::Distribution'));
  return distribution!.Properties.DistributionConfig;
}

function behavior(t: Template, pathPattern: string): Behavior {
  const found = (distributionConfig(t).CacheBehaviors as Behavior[]).find(
    (b) => b.PathPattern === pathPattern,
  );
  expect(found, `a cache behavior for ${pathPattern}`).toBeDefined();
  return found!;
}

/** The cache policy a behavior names (by Ref to a policy of the stack). */
function cachePolicy(t: Template, b: Behavior) {
  const id = (b.CachePolicyId as { Ref?: string }).Ref;
  expect(id, `${b.PathPattern} uses a cache policy of the stack`).toBeDefined();
  return t.toJSON().Resources[id!].Properties.CachePolicyConfig;
}

describe('playback through CloudFront', () => {
  it('caches playlists at most 1 s (below half of any target duration), origin max-age and query included', () => {
    const policy = cachePolicy(template, behavior(template, '*.m3u8'));
    expect(policy.MinTTL).toBe(0);
    expect(policy.MaxTTL).toBeLessThanOrEqual(1);
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin.QueryStringsConfig.QueryStringBehavior).toBe(
      'all',
    );
  });

  it('compresses playlists with gzip and brotli', () => {
    const playlists = behavior(template, '*.m3u8');
    expect(playlists.Compress).toBe(true);
    const keys = cachePolicy(template, playlists).ParametersInCacheKeyAndForwardedToOrigin;
    expect(keys.EnableAcceptEncodingGzip).toBe(true);
    expect(keys.EnableAcceptEncodingBrotli).toBe(true);
  });

  it.each(['*.ts', '*.m4s', '*.mp4', '*.aac', '*.vtt', '*.webvtt'])(
    'caches segments (%s) for a day unless the origin says otherwise',
    (pattern) => {
      const policy = cachePolicy(template, behavior(template, pattern));
      expect(policy.DefaultTTL).toBeGreaterThanOrEqual(86_400);
      expect(policy.MaxTTL).toBeGreaterThanOrEqual(policy.DefaultTTL);
    },
  );

  it.each([404, 500, 502, 503, 504])('caches a %i answer at most 1 s, as the origin sent it', (status) => {
    const responses = (distributionConfig(template).CustomErrorResponses ?? []) as Record<string, unknown>[];
    const response = responses.find((r) => r.ErrorCode === status);
    expect(response, `an error response for ${status}`).toBeDefined();
    expect(response!.ErrorCachingMinTTL).toBeLessThanOrEqual(1);
    expect(response!.ResponsePagePath).toBeUndefined();
    expect(response!.ResponseCode).toBeUndefined();
  });

  it("closes CloudFront's idle origin connections before the ALB does (ALB idle timeout 60 s)", () => {
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      LoadBalancerAttributes: Match.arrayWith([{ Key: 'idle_timeout.timeout_seconds', Value: '60' }]),
    });
    const origins = distributionConfig(template).Origins as {
      VpcOriginConfig?: { OriginKeepaliveTimeout?: number };
    }[];
    const keepalive = origins.find((o) => o.VpcOriginConfig)?.VpcOriginConfig?.OriginKeepaliveTimeout;
    expect(keepalive).toBeDefined();
    expect(keepalive).toBeLessThan(60);
  });

  it('logs every request to a bucket whose logs expire after 90 days', () => {
    const logging = distributionConfig(template).Logging as { Bucket: { 'Fn::GetAtt': [string, string] } };
    expect(logging, 'standard logging').toBeDefined();
    const bucketId = logging.Bucket['Fn::GetAtt'][0];
    const bucket = template.toJSON().Resources[bucketId].Properties;
    // CloudFront standard logs are written with an ACL grant: the bucket must keep ACLs enabled.
    expect(bucket.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    expect(bucket.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 90 }),
    ]);
  });
});
