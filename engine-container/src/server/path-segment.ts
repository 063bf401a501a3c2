import { notFound } from '../../../core/errors';

/** A percent-encoded path segment, decoded; a malformed one is a 404 (no such resource). */
export function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw notFound(`bad path segment ${part}`);
  }
}
