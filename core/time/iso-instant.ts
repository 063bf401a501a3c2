/** An instant a user writes in a query: ISO 8601 with a date, a time and a zone, checked strictly. */
import { badRequest } from '../errors';

/** ISO 8601 with a date, a time and a zone (Z or ±hh:mm): no locale-dependent Date.parse guesses. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Unix ms of an ISO 8601 instant; a 400 naming `field` otherwise. */
export function parseIsoInstant(value: string, field: string): number {
  const ms = ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw badRequest(`${field} must be an ISO 8601 UTC timestamp such as 2024-05-01T12:00:00Z`, field);
  return ms;
}
