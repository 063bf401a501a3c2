/**
 * The console in the stack (lib/console-site.ts): the build in a private bucket behind the playback
 * CloudFront at /console/, and CORS on each API for the console's origin (plus context consoleOrigins).
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesised, synth } from './synth';

let template: Template;
let prod: Synthesised;

beforeAll(() => {
  template = synth('test').template;
  prod = synth('prod', {
    playbackDomain: 'tv.example.com',
    playbackCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc-123',
    consoleOrigins: 'https://ops.example.com',
  });
}, 300_000);

describe('the console', () => {
  it('serves the console from a private S3 bucket under /console/* of the playback CloudFront', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: Match.objectLike({
        BlockPublicAcls: true,
        RestrictPublicBuckets: true,
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', Match.anyValue());
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: Match.arrayWith([
          Match.objectLike({ PathPattern: '/console/*', ViewerProtocolPolicy: 'redirect-to-https' }),
        ]),
      }),
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'console/',
    });
    template.hasOutput('ConsoleUrl', Match.anyValue());
  });

  it("lets each API allow exactly the console's origin (CORS), with the headers the console sends", () => {
    const apis = template.findResources('AWS::ApiGatewayV2::Api');
    expect(Object.keys(apis)).toHaveLength(3);
    for (const api of Object.values(apis)) {
      const cors = (api as { Properties: { CorsConfiguration: Record<string, unknown> } }).Properties
        .CorsConfiguration;
      expect(cors.AllowOrigins).toEqual([
        { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.any(String), 'DomainName'] }]] },
      ]);
      expect(cors.AllowHeaders).toEqual(['content-type', 'x-jwt']);
    }
  });

  it('adds the origins of context consoleOrigins, and refuses one that is not https', () => {
    const api = Object.values(prod.template.findResources('AWS::ApiGatewayV2::Api'))[0] as {
      Properties: { CorsConfiguration: { AllowOrigins: unknown[] } };
    };
    expect(api.Properties.CorsConfiguration.AllowOrigins).toEqual([
      'https://tv.example.com',
      'https://ops.example.com',
    ]);
    expect(() => synth('prod', { consoleOrigins: 'http://ops.example.com' })).toThrow(/consoleOrigins/);
  });
});
