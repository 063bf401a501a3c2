/**
 * Custom resource (SigningKeys): creates the token signing keys at deploy, once, and publishes their
 * public halves (`PublicPrefix`, for the services that only verify) on every create and update.
 * Existing keys are never replaced (rotation is `npm run keys -- --rotate`), and never deleted with the stack: tokens
 * outlive deployments. A key left by an older stack at `<prefix>` itself (one key, before rotation
 * existed) becomes the current key, so the tokens it signed keep working.
 */
import { GetParameterCommand, ParameterNotFound } from '@aws-sdk/client-ssm';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { JWK } from 'jose';
import { newSigningKey, SsmKeyStore } from '../../core/auth/signing-key';
import { ssmClient } from '../../core/aws';

async function legacyKey(prefix: string): Promise<JWK | undefined> {
  try {
    const res = await ssmClient().send(new GetParameterCommand({ Name: prefix, WithDecryption: true }));
    return res.Parameter?.Value ? (JSON.parse(res.Parameter.Value) as JWK) : undefined;
  } catch (err) {
    if (err instanceof ParameterNotFound) return undefined;
    throw err;
  }
}

export async function handler(event: CloudFormationCustomResourceEvent) {
  const prefix = String(event.ResourceProperties.Prefix);
  const publicPrefix = String(event.ResourceProperties.PublicPrefix);
  if (event.RequestType !== 'Delete') {
    const store = new SsmKeyStore(prefix, ssmClient(), publicPrefix);
    const keys = await store.createIfAbsent({
      current: (await legacyKey(prefix)) ?? (await newSigningKey()),
      next: await newSigningKey(),
    });
    // Key ids only: the keys themselves never reach a log.
    console.log(JSON.stringify({ prefix, publicPrefix, current: keys.current.kid, next: keys.next?.kid }));
  }
  return { PhysicalResourceId: prefix };
}
