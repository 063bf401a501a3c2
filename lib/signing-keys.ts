/**
 * The token signing keys (core/auth/signing-key.ts): SSM SecureStrings `<prefix>/current` and
 * `<prefix>/next`, and their public halves as String parameters `<publicPrefix>/current` and `/next`,
 * created at deploy by a custom resource (lib/handlers/create-signing-keys.ts), the only role here
 * that may write them. Token issuers (the channel API, the engine, which signs its own service token)
 * may read the private keys (`grantRead`); services that only verify tokens (schedule, AutoABR) read
 * the public keys (`grantReadPublic`). No runtime can make up, overwrite or rotate a key; operators
 * rotate with `npm run keys -- --rotate`, which rewrites the public keys too.
 */
import { Arn, CustomResource, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { publicKeyPrefix } from '../core/auth/public-key-store';
import { apiFunction } from './api-function';

export class SigningKeys extends Construct {
  /** JWT_KEY_PARAMETER: the private keys' common name prefix. */
  readonly prefix: string;
  /** JWT_PUBLIC_KEY_PARAMETER: the public keys' common name prefix. */
  readonly publicPrefix: string;
  private readonly keyArns: string[];
  private readonly publicKeyArns: string[];

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.prefix = `/onair/${props.stage}/jwt-signing-key`;
    this.publicPrefix = publicKeyPrefix(this.prefix);
    const arn = (name: string) =>
      Arn.format({ service: 'ssm', resource: 'parameter', resourceName: name.slice(1) }, Stack.of(this));
    this.keyArns = [arn(`${this.prefix}/current`), arn(`${this.prefix}/next`)];
    this.publicKeyArns = [arn(`${this.publicPrefix}/current`), arn(`${this.publicPrefix}/next`)];

    const create = apiFunction(this, 'Create', {
      entry: 'lib/handlers/create-signing-keys.ts',
      environment: {},
      timeout: Duration.minutes(1),
    });
    create.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ssm:GetParameters', 'ssm:PutParameter'],
        resources: [...this.keyArns, ...this.publicKeyArns],
      }),
    );
    // The single key of a stack deployed before rotation existed, adopted as the current key.
    create.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [arn(this.prefix)] }),
    );
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: create,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: logs.RetentionDays.ONE_MONTH }),
    });
    NagSuppressions.addResourceSuppressions(
      provider,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason: "The CDK provider framework's role: AWSLambdaBasicExecutionRole, its own logs only",
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
          ],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'The provider framework invokes the key-creating function and its versions (`<arn>:*`) only',
          appliesTo: [{ regex: '/^Resource::<SigningKeysCreate[A-Za-z0-9]+\\.Arn>:\\*$/g' }],
        },
      ],
      true,
    );
    new CustomResource(this, 'Keys', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::OnairSigningKeys',
      // A new property runs the handler on the next deploy of an older stack: it publishes the public keys.
      properties: { Prefix: this.prefix, PublicPrefix: this.publicPrefix },
    });
  }

  /** Read, and only read, both private keys: for a token issuer. */
  grantRead(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions: ['ssm:GetParameters'], resourceArns: this.keyArns });
  }

  /** Read both public keys: for a service that only verifies tokens. */
  grantReadPublic(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ssm:GetParameters'],
      resourceArns: this.publicKeyArns,
    });
  }
}
