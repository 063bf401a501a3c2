/**
 * The one error shape of every onair HTTP API: `{ message, code }` with the right status.
 * Domain code throws HttpError; exactly one place (http.ts `toErrorResponse`) turns it into a response.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields merged into the JSON body, e.g. `{ field: 'name' }` on a 400. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toJSON(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...this.details };
  }
}

export const badRequest = (message: string, field?: string): HttpError =>
  new HttpError(400, 'bad_request', message, field ? { field } : {});
export const unauthorized = (message = 'missing or invalid token'): HttpError =>
  new HttpError(401, 'unauthorized', message);
export const forbidden = (code: string, message: string): HttpError => new HttpError(403, code, message);
export const notFound = (message = 'not found'): HttpError => new HttpError(404, 'not_found', message);
export const conflict = (message: string): HttpError => new HttpError(409, 'conflict', message);
export const payloadTooLarge = (limitBytes: number): HttpError =>
  new HttpError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`);
export const tooManyRequests = (message: string, retryAfterSeconds: number): HttpError =>
  new HttpError(429, 'rate_limited', message, { retryAfterSeconds });
