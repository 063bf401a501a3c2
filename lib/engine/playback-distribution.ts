/**
 * CloudFront in front of the engine: its domain (or the operator's playbackDomain) is the playback
 * host. The origin is the internal ALB through a CloudFront VPC origin, so the engine has no public
 * entry and origin traffic stays on AWS's network (plain HTTP inside the VPC). Viewers are redirected
 * to HTTPS; with a custom domain and certificate they also get TLS 1.2 at least (the default
 * *.cloudfront.net certificate cannot be held to a minimum protocol).
 * Caching follows the engine's Cache-Control. `/reset/*` is forwarded uncached, any method, query and
 * headers included: the engine refuses it (403) without the reset key.
 */
import { Duration } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { StackConfig } from '../stack-config';

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

  /** Makes `<scope>/Playback` (the distribution) and `<scope>/FollowOrigin` (its cache policy). */
  constructor(scope: Construct, props: PlaybackDistributionProps) {
    const origin = origins.VpcOrigin.withApplicationLoadBalancer(props.loadBalancer, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTP_ONLY,
    });
    // Cache exactly as long as the engine's Cache-Control says (media playlists: cacheTTL seconds).
    const cachePolicy = new cloudfront.CachePolicy(scope, 'FollowOrigin', {
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(1),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
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
      additionalBehaviors: {
        '/reset/*': {
          origin,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        },
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
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'Every viewer fetches a playlist every few seconds: standard logs would cost more than the service; the engine logs what reaches it',
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
  }
}
