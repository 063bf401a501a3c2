/**
 * Token scopes: extra permissions a token may carry in its `scope` claim, a space-separated list
 * (OAuth style, RFC 8693 section 4.2). Only operator tokens are issued with scopes (`npm run token --
 * --autoabr`); trial tokens from `POST /token` never carry any.
 */

/** Lets a token use the AutoABR API (VMAF jobs). */
export const AUTOABR_SCOPE = 'autoabr';

const SCOPE = /^[a-z][a-z0-9:_-]{0,63}$/;

/** The scopes a `scope` claim names: a string of space-separated words; anything else names none. */
export function parseScopes(claim: unknown): string[] {
  if (typeof claim !== 'string' || claim.length > 1024) return [];
  const words = claim.split(' ').filter((w) => w !== '');
  if (!words.every((w) => SCOPE.test(w))) return [];
  return [...new Set(words)];
}

/** The `scope` claim for these scopes, or undefined when there are none. */
export function scopeClaim(scopes: readonly string[]): string | undefined {
  const valid = [...new Set(scopes)].filter((s) => SCOPE.test(s));
  return valid.length ? valid.join(' ') : undefined;
}
