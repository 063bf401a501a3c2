/**
 * Reads a fetch Response body as text, refusing more than `maxBytes` (declared or streamed): every
 * body we read on a user's behalf (playlists, feeds, webhooks, settings) is bounded.
 */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

export async function readBoundedText(res: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new BodyTooLargeError(`${url}: body of ${declared} bytes exceeds the limit of ${maxBytes} bytes`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(`${url}: body exceeds the limit of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body's first `maxBytes` (fewer when it is shorter); the rest is never read. */
export async function readPrefixBytes(res: Response, maxBytes: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= maxBytes) await reader.cancel();
  return new Uint8Array(Buffer.concat(chunks).subarray(0, maxBytes));
}
