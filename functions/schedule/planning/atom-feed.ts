/**
 * Reads the Atom feed of an auto-scheduler (docs/schedule-api.md): root `feed`, entries with title, id
 * and link.
 * Tolerant of what real feeds do: prefixed namespaces (`atom:feed`), a single entry (which XML
 * parsers hand back as an object, not an array), `<link href>` as well as a link given as text, and
 * `<title type="text">`. An entry missing a field is skipped and reported, never fatal.
 */
import { XMLParser } from 'fast-xml-parser';

export interface AtomEntry {
  id: string;
  title: string;
  /** HLS manifest URL of the VOD, resolved against the feed URL when relative. */
  link: string;
}

export interface SkippedEntry {
  /** Position of the entry in the feed (0-based). */
  index: number;
  reason: string;
}

export interface AtomFeed {
  id?: string;
  title?: string;
  updated?: string;
  entries: AtomEntry[];
  skipped: SkippedEntry[];
}

export class FeedFormatError extends Error {
  override name = 'FeedFormatError';
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Ids such as "1" or "0012" must stay text.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, jpath) => jpath === 'feed.entry' || jpath === 'feed.entry.link',
});

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** The text of an element, whether the parser gave a string or `{ '#text': ... }` (it has attributes). */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'].trim() || undefined;
  return undefined;
}

/** The VOD URL of an entry: the link's text, else the href of the alternate (or only) link. */
function linkOf(links: unknown): string | undefined {
  if (!Array.isArray(links)) return undefined;
  for (const link of links) {
    const body = text(link);
    if (body) return body;
  }
  const withHref = links.filter((l): l is Node => isNode(l) && typeof l['@_href'] === 'string');
  const alternate = withHref.find((l) => l['@_rel'] === undefined || l['@_rel'] === 'alternate');
  const href = (alternate ?? withHref[0])?.['@_href'];
  return typeof href === 'string' && href.trim() ? href.trim() : undefined;
}

function resolveLink(link: string, base: string | undefined): string | undefined {
  try {
    const url = new URL(link, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function readEntry(node: unknown, baseUrl: string | undefined): AtomEntry | string {
  if (!isNode(node)) return 'entry is empty';
  const id = text(node.id);
  const title = text(node.title);
  const rawLink = linkOf(node.link);
  const missing = [!id && 'id', !title && 'title', !rawLink && 'link'].filter(Boolean);
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  const link = resolveLink(rawLink!, baseUrl);
  if (!link) return `link "${rawLink}" is not an http(s) URL`;
  return { id: id!, title: title!, link };
}

/** Parses a feed document; throws FeedFormatError when it is not XML with a `feed` root. */
export function parseAtomFeed(xml: string, baseUrl?: string): AtomFeed {
  let doc: unknown;
  try {
    doc = parser.parse(xml, true);
  } catch (err) {
    throw new FeedFormatError(`feed is not well-formed XML: ${(err as Error).message}`);
  }
  const feed = isNode(doc) ? doc.feed : undefined;
  if (feed === undefined) throw new FeedFormatError('feed has no Atom <feed> root element');
  const root: Node = isNode(feed) ? feed : {};
  const entries: AtomEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const nodes = Array.isArray(root.entry) ? root.entry : [];
  nodes.forEach((node, index) => {
    const entry = readEntry(node, baseUrl);
    if (typeof entry === 'string') skipped.push({ index, reason: entry });
    else entries.push(entry);
  });
  return { id: text(root.id), title: text(root.title), updated: text(root.updated), entries, skipped };
}
