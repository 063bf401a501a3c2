/**
 * The channel's URLs checked as HLS before they are stored (docs/channel-api.md "Sources that do not
 * answer"): a Loop channel's `url`, `opts.preroll.url` and `opts.slate`. Each is probed once, in
 * parallel, through the guarded fetch with a short deadline. A source that does not answer as HLS is
 * accepted with a warning, not refused: an origin may be down for a moment or published later, and
 * the channel's status (on_slate, with the reason) shows it for as long as it lasts. A WebHook's URL
 * is not called: it answers JSON, and calling it may have effects at the webhook's end.
 */
import type { HlsProblem, SourceWarning } from '../../core/fetch/hls-probe';
import { sourceWarning } from '../../core/fetch/hls-probe';

export type Probe = (url: string) => Promise<HlsProblem | undefined>;

export interface ChannelSources {
  type: 'Loop' | 'WebHook';
  url: string;
  opts?: { preroll?: { url: string }; slate?: string };
}

export async function sourceWarnings(channel: ChannelSources, probe: Probe): Promise<SourceWarning[]> {
  const fields: [string, string][] = [];
  if (channel.type === 'Loop') fields.push(['url', channel.url]);
  if (channel.opts?.preroll) fields.push(['opts.preroll.url', channel.opts.preroll.url]);
  if (channel.opts?.slate) fields.push(['opts.slate', channel.opts.slate]);
  const problems = await Promise.all(fields.map(([, url]) => probe(url)));
  return fields.flatMap(([field], i) => {
    const problem = problems[i];
    return problem ? [sourceWarning(field, problem)] : [];
  });
}
