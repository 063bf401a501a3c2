/**
 * The console in the stack (lib/console-site.ts): the build in a private bucket behind the playback
 * CloudFront at /console/, and CORS on each API for the console's origin (plus context consoleOrigins).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build';
import { type Synthesised, synth } from './synth';

type ViewerRequest = (event: { request: { uri: string } }) => { uri: string };

/** The console behavior's viewer-request CloudFront Function, run as CloudFront would run it. */
function consoleViewerRequest(t: Template): ViewerRequest {
  const config = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0]!.Properties
    .DistributionConfig;
  const console = (
    config.CacheBehaviors as {
      PathPattern: string;
      FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
    }[]
  ).find((b) => b.PathPattern === '/console/*');
  const association = console?.FunctionAssociations?.find((f) => f.EventType === 'viewer-request');
  expect(association, 'a viewer-request function on /console/*').toBeDefined();
  const [functionId] = (association!.FunctionARN as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
  const code = t.toJSON().Resources[functionId].Properties.FunctionCode as string;
  return new Function(`${code}\nreturn handler;`)() as ViewerRequest;
}

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

  it.each([
    ['/console/', '/console/index.html'],
    ['/console/api/', '/console/api/index.html'],
    ['/console/app.js', '/console/app.js'],
    ['/console/api/swagger-ui.css', '/console/api/swagger-ui.css'],
  ])('asks the bucket for %s as %s (an index document for each folder)', (uri, key) => {
    const handler = consoleViewerRequest(template);
    expect(handler({ request: { uri } }).uri).toBe(key);
  });

  it('builds an index document for each folder the console links to', () => {
    const out = buildConsole(mkdtempSync(join(tmpdir(), 'onair-console-test-')));
    try {
      for (const key of ['index.html', 'api/index.html']) expect(existsSync(join(out, key)), key).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
