/** Reads an engine's /eventstream/<id> in the background and keeps everything it received as text. */
export interface EventStreamReader {
  text(): string;
  close(): void;
}

export async function readEventStream(url: string): Promise<EventStreamReader> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => undefined); // ends with an AbortError on close()
  return { text: () => text, close: () => abort.abort() };
}
