/** The journeys' HTTP calls to a rehearsed API: JSON in and out, bounded, the status checked. */
export async function call<T = unknown>(
  url: string,
  options: { method?: string; token?: string; body?: unknown; expect?: number; timeoutMs?: number } = {},
): Promise<T> {
  const {
    method = options.body === undefined ? 'GET' : 'POST',
    token,
    body,
    expect,
    timeoutMs = 30_000,
  } = options;
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'x-jwt': `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  const wanted = expect ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
  if (res.status !== wanted)
    throw new Error(`${method} ${url}: ${res.status} (wanted ${wanted}): ${text.slice(0, 500)}`);
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') && text ? JSON.parse(text) : text) as T;
}
