/**
 * A function's (or a task's) environment in the rehearsal: exactly what the template gives it, resolved,
 * plus the few variables that stand in for the AWS runtime (region, endpoints to the recording proxy, its
 * role as the access key id so every call names its principal) and the rehearsal's listed overrides.
 */
import { type PhysicalLookup, resolveString } from '../iam/template';

export interface RuntimeSettings {
  region: string;
  /** AWS_ENDPOINT_URL_<SERVICE> → URL. */
  endpoints: Record<string, string>;
  /** Variables the rehearsal must set beyond the template, each with why (printed in the report). */
  overrides: Record<string, { value: string; why: string }>;
}

export function runtimeEnv(
  templateEnv: Record<string, unknown>,
  principal: string,
  lookup: PhysicalLookup,
  settings: RuntimeSettings,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(templateEnv)) env[name] = resolveString(value, lookup);
  Object.assign(env, {
    AWS_REGION: settings.region,
    AWS_ACCESS_KEY_ID: principal,
    AWS_SECRET_ACCESS_KEY: 'rehearsal',
    ...settings.endpoints,
  });
  for (const [name, { value }] of Object.entries(settings.overrides)) env[name] = value;
  return env;
}
