/**
 * Does a URL answer as HLS? One bounded, guarded GET (the fetch the caller passes is the guarded one
 * in a deployment) with a short deadline, read only far enough to see the playlist's first line. The
 * answer is a public code (public-failure.ts), never what the fetch met, so a probe of a user's URL
 * tells nothing about the network it ran in: an address refused by the guard reads `unavailable`,
 * like one that does not answer.
 */
import { type FetchLike, fetchText } from './bounded-fetch';
import { type PublicFailureCode, publicFailureCode } from './public-failure';

/** Why a URL is not (yet) a playable HLS source; undefined when it answers a playlist. */
export type HlsProblem = Exclude<PublicFailureCode, 'malformed'> | 'not_hls';

export interface ProbeOptions {
  fetch: FetchLike;
  timeoutMs: number;
  /** A playlist's first line is all we need; bigger answers are cut here, not read. */
  maxBytes?: number;
}

/** Enough for any master or media playlist the engine would take (it refuses bigger ones anyway). */
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

export async function probeHls(url: string, options: ProbeOptions): Promise<HlsProblem | undefined> {
  try {
    const res = await fetchText(url, {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    });
    if (res.status === 404 || res.status === 410) return 'not_found';
    if (res.status < 200 || res.status > 299) return 'http_error';
    return res.text
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('#EXTM3U')
      ? undefined
      : 'not_hls';
  } catch (err) {
    const code = publicFailureCode(err);
    return code === 'malformed' ? 'not_hls' : code;
  }
}

/** A field of a request whose URL did not answer as HLS, as an API answer carries it. */
export interface SourceWarning {
  field: string;
  code: HlsProblem;
  message: string;
}

export const sourceWarning = (field: string, code: HlsProblem): SourceWarning => ({
  field,
  code,
  message: `${field} does not answer as HLS (${code})`,
});

export type Probe = (url: string) => Promise<HlsProblem | undefined>;

/** Each `[field, url]` probed once, in parallel: a warning for each that does not answer as HLS. */
export async function sourceWarnings(
  fields: readonly (readonly [string, string])[],
  probe: Probe,
): Promise<SourceWarning[]> {
  const problems = await Promise.all(fields.map(([, url]) => probe(url)));
  return fields.flatMap(([field], i) => {
    const problem = problems[i];
    return problem ? [sourceWarning(field, problem)] : [];
  });
}
