/** One request as the recording proxy saw it, and the parts every protocol's extractor reads. */
import type { IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path without the query, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body, when the protocol carries the operation in it (empty for streamed S3 bodies). */
  body: Buffer;
}

/** The access key id of a SigV4-signed request (header or presigned query), or `anonymous`. */
export function principalOf(request: Pick<RawRequest, 'headers' | 'query'>): string {
  const header = request.headers.authorization ?? '';
  const credential =
    /Credential=([^/,\s]+)\//.exec(header)?.[1] ?? request.query.get('X-Amz-Credential')?.split('/')[0];
  return credential || 'anonymous';
}

/** The operation and input of an AWS JSON protocol request (`X-Amz-Target: Prefix.Operation`). */
export function jsonOperation(
  request: RawRequest,
): { operation: string; input: Record<string, unknown> } | undefined {
  const target = request.headers['x-amz-target'];
  if (typeof target !== 'string') return undefined;
  const operation = target.slice(target.lastIndexOf('.') + 1);
  const text = request.body.toString('utf8');
  return { operation, input: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The operation and parameters of an AWS query protocol request (`Action=...`, in the body or the URL). */
export function queryOperation(
  request: RawRequest,
): { operation: string; params: URLSearchParams } | undefined {
  const form = String(request.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
  const params = form ? new URLSearchParams(request.body.toString('utf8')) : request.query;
  const operation = params.get('Action');
  return operation ? { operation, params } : undefined;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
