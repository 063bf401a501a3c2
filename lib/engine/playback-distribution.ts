/**
 * CloudFront in front of the engine: its domain (or the operator's playbackDomain) is the playback
 * host. The origin is the internal ALB through a CloudFront VPC origin, so the engine has no public
 * entry and origin traffic stays on AWS's network (plain HTTP inside the VPC). Viewers are redirected
 * to HTTPS; with a custom domain and certificate they also get TLS 1.2 at least (the default
 * *.cloudfront.net certificate cannot be held to a minimum protocol).
 * Caching follows the engine's Cache-Control within bounds set per kind of file: playlists (`*.m3u8`,
 * which the engine sends with max-age=ENGINE_CACHE_TTL, 4 s by default) are held at most 1 s, below
 * half of any target duration, so a viewer is never a segment behind; segments and subtitles are
 * held a day unless the origin says otherwise. Errors (404, 5xx) are held at most 1 s: a blip of the
 * engine must not stall every viewer of that edge for CloudFront's default 10 s. `/reset/*` is
 * forwarded uncached, any method, query and headers included: the engine refuses it (403) without the
 * reset key. Every request is logged (CloudFront standard logs, kept 90 days): that is where a
 * `/reset` call and its caller's address are on record.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { StackConfig } from '../stack-config';
import { ALB_IDLE_TIMEOUT_S } from './engine-service';

/**
 * How long CloudFront keeps an idle connection to the ALB (55 s): below the ALB's idle timeout (60 s),
 * so CloudFront closes first and never sends a request on a connection the ALB is closing. The chain
 * continues inward: ALB 60 s < engine keep-alive 65 s (ENGINE_KEEP_ALIVE_S).
 */
export const ORIGIN_KEEPALIVE_S = ALB_IDLE_TIMEOUT_S - 5;
/** A playlist's longest life in an edge cache: below half of the shortest target duration (2 s). */
export const PLAYLIST_MAX_TTL_S = 1;
/** Segment-like files: their content never changes under a name. */
export const SEGMENT_PATTERNS = ['*.ts', '*.m4s', '*.mp4', '*.aac', '*.vtt', '*.webvtt'];
/** Answers held at most 1 s so that an engine blip does not stall every viewer of an edge. */
export const SHORT_CACHED_ERRORS = [404, 500, 502, 503, 504];
/** How long CloudFront's request logs are kept. */
export const LOG_RETENTION_DAYS = 90;

export interface PlaybackDistributionProps {
  stage: string;
  loadBalancer: elbv2.IApplicationLoadBalancer;
  playbackDomain: StackConfig['playbackDomain'];
}

/**
 * Not a construct of its own: the distribution and its cache policy keep the construct paths (and so
 * the logical ids) they had, because a new distribution would mean a new playback domain.
 */
export class PlaybackDistribution {
  readonly distribution: cloudfront.Distribution;
  readonly baseUrl: string;
  readonly logBucket: s3.Bucket;

  /**
   * Makes `<scope>/Playback` (the distribution), `<scope>/FollowOrigin` (its default cache policy),
   * `<scope>/Playlists` and `<scope>/Segments` (cache policies) and `<scope>/PlaybackLogs` (bucket).
   */
  constructor(scope: Construct, props: PlaybackDistributionProps) {
    const origin = origins.VpcOrigin.withApplicationLoadBalancer(props.loadBalancer, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTP_ONLY,
      keepaliveTimeout: Duration.seconds(ORIGIN_KEEPALIVE_S),
    });
    // Anything else the engine serves (the slate, JSON): as long as its Cache-Control says.
    const cachePolicy = new cloudfront.CachePolicy(scope, 'FollowOrigin', {
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(1),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const playlists: cloudfront.BehaviorOptions = {
      origin,
      cachePolicy: new cloudfront.CachePolicy(scope, 'Playlists', {
        comment: 'Live playlists: the origin max-age, at most 1 s',
        minTtl: Duration.seconds(0),
        defaultTtl: Duration.seconds(PLAYLIST_MAX_TTL_S),
        maxTtl: Duration.seconds(PLAYLIST_MAX_TTL_S),
        queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      }),
      compress: true,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
    };
    const segments: cloudfront.BehaviorOptions = {
      ...playlists,
      cachePolicy: new cloudfront.CachePolicy(scope, 'Segments', {
        comment: 'Segments and subtitles: the origin max-age, a day when it sends none',
        minTtl: Duration.seconds(0),
        defaultTtl: Duration.days(1),
        maxTtl: Duration.days(365),
        queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      }),
    };
    this.logBucket = new s3.Bucket(scope, 'PlaybackLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL grant (awslogsdelivery): ACLs stay enabled.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(LOG_RETENTION_DAYS) }],
      ...(props.stage === 'prod'
        ? { removalPolicy: RemovalPolicy.RETAIN }
        : { removalPolicy: RemovalPolicy.DESTROY, autoDeleteObjects: true }),
    });
    const domain = props.playbackDomain;
    this.distribution = new cloudfront.Distribution(scope, 'Playback', {
      comment: `onair ${props.stage} playback`,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(
              scope,
              'PlaybackCertificate',
              domain.certificateArn,
            ),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin,
        cachePolicy,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
      },
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      errorResponses: SHORT_CACHED_ERRORS.map((httpStatus) => ({
        httpStatus,
        ttl: Duration.seconds(PLAYLIST_MAX_TTL_S),
      })),
      additionalBehaviors: {
        '/reset/*': {
          origin,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        },
        '*.m3u8': playlists,
        ...Object.fromEntries(SEGMENT_PATTERNS.map((pattern) => [pattern, segments])),
      },
    });
    this.baseUrl = `https://${domain?.domainName ?? this.distribution.distributionDomainName}`;
    this.acceptFindings(!domain);
  }

  private acceptFindings(defaultCertificate: boolean): void {
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'Channels are watched worldwide; a tenant needing geo restriction gets it from its own CDN rules',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'Playback is public, read-only and cached; the engine bounds what it creates. WAF (cost per request) is an operator choice, documented in docs/deploy.md',
      },
      ...(defaultCertificate
        ? [
            {
              id: 'AwsSolutions-CFR4',
              reason:
                'The default *.cloudfront.net certificate cannot be held to TLS 1.2 (CloudFront fixes its policy); with -c playbackDomain and playbackCertificateArn the stack sets TLSv1.2_2021',
            },
          ]
        : []),
    ]);
    NagSuppressions.addResourceSuppressions(this.logBucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The bucket holds CloudFront request logs; access logs of the log bucket would log the log delivery itself',
      },
    ]);
  }
}
