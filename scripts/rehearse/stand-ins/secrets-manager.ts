/**
 * Secrets Manager stand-in: the template's secrets, each generated as its GenerateSecretString says,
 * readable by GetSecretValue (what ECS does, as the task's execution role, for a task definition's
 * `Secrets`).
 */
import { randomInt } from 'node:crypto';
import { AwsError, type JsonService, startJsonService } from './json-service';

export interface GenerateSecretString {
  PasswordLength?: number;
  ExcludePunctuation?: boolean;
  ExcludeCharacters?: string;
  ExcludeUppercase?: boolean;
  ExcludeLowercase?: boolean;
  ExcludeNumbers?: boolean;
  IncludeSpace?: boolean;
}

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** As Secrets Manager's GetRandomPassword: 32 characters by default, from the classes not excluded. */
export function generatePassword(spec: GenerateSecretString): string {
  let alphabet = '';
  if (!spec.ExcludeUppercase) alphabet += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  if (!spec.ExcludeLowercase) alphabet += 'abcdefghijklmnopqrstuvwxyz';
  if (!spec.ExcludeNumbers) alphabet += '0123456789';
  if (!spec.ExcludePunctuation) alphabet += PUNCTUATION;
  if (spec.IncludeSpace) alphabet += ' ';
  const excluded = new Set(spec.ExcludeCharacters ?? '');
  const chars = [...alphabet].filter((c) => !excluded.has(c));
  return Array.from({ length: spec.PasswordLength ?? 32 }, () => chars[randomInt(chars.length)]).join('');
}

export async function startSecretsManager(secrets: Map<string, string>): Promise<JsonService> {
  return startJsonService('secretsmanager', {
    GetSecretValue: ({ SecretId }: { SecretId: string }) => {
      const value = secrets.get(SecretId);
      if (value === undefined) throw new AwsError('ResourceNotFoundException', `${SecretId} not found`);
      return { ARN: SecretId, Name: SecretId.split(':').pop(), SecretString: value, VersionId: 'v1' };
    },
  });
}
