/**
 * The engine's own token for the schedule API when SCHEDULE_SERVICE_TOKEN is not given: an operator
 * token (tenant `engine`, no channels, `scope: "schedule:read-all"` so it reads every tenant's schedule
 * channels: docs/schedule-api.md "The engine") signed with the deployment's key, valid a day and renewed an
 * hour before it expires. This needs read access to the signing keys (CDK grants it to the task); a rotation is
 * picked up within minutes (core/auth/key-ring.ts).
 */
import { keyStoreFromEnv, loadSigningKeys } from '../../core/auth/signing-key';
import { type Environment, TokenService } from '../../core/auth/tokens';

/** Only this host (and an operator by hand) mints it; POST /token never sets a scope. */
export const SERVICE_SCOPE = 'schedule:read-all';
const LIFETIME_S = 86_400;
const RENEW_BEFORE_MS = 3_600_000;

export function serviceTokenProvider(stage: Environment): () => Promise<string> {
  let current: { token: string; expiresMs: number } | undefined;
  let tokens: Promise<TokenService> | undefined;
  return async () => {
    if (current && current.expiresMs - Date.now() > RENEW_BEFORE_MS) return current.token;
    tokens ??= TokenService.fromSource(() => loadSigningKeys(keyStoreFromEnv())).catch((err) => {
      tokens = undefined; // a failed first load (keys not there yet, SSM unreachable) is tried again
      throw err;
    });
    const issued = await (await tokens).issue(
      { tenant: 'engine', env: stage, plan: 'operator', maxChannels: 0 },
      LIFETIME_S,
      { scope: SERVICE_SCOPE },
    );
    current = { token: issued.token, expiresMs: Date.parse(issued.expiresAt) };
    return current.token;
  };
}
