/**
 * HLS attribute lists (RFC 8216 §4.2): `KEY=value,KEY="quoted, value"`. Order is kept so a tag we
 * pass through (EXT-X-KEY, EXT-X-MAP) re-serialises the way the source wrote it.
 */
export type AttributeList = Array<[name: string, value: string, quoted: boolean]>;

const ATTRIBUTE = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;

export function parseAttributes(text: string): AttributeList {
  const out: AttributeList = [];
  for (const match of text.matchAll(ATTRIBUTE)) {
    const raw = match[2] ?? '';
    const quoted = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2;
    out.push([match[1] ?? '', quoted ? raw.slice(1, -1) : raw, quoted]);
  }
  return out;
}

export function attr(list: AttributeList, name: string): string | undefined {
  for (const [n, v] of list) if (n === name) return v;
  return undefined;
}

export function numberAttr(list: AttributeList, name: string): number | undefined {
  const v = attr(list, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export function serialiseAttributes(list: AttributeList): string {
  return list.map(([n, v, quoted]) => (quoted ? `${n}="${v}"` : `${n}=${v}`)).join(',');
}

/** Replaces the URI attribute by its absolute form, so a tag copied into our playlists still resolves. */
export function withAbsoluteUri(list: AttributeList, base: string): AttributeList {
  return list.map(([n, v, q]) => (n === 'URI' ? [n, resolveUri(v, base), q] : [n, v, q]));
}

export function resolveUri(uri: string, base: string): string {
  try {
    return new URL(uri, base).toString();
  } catch {
    return uri;
  }
}

/** A value safe inside a quoted-string: RFC 8216 forbids `"`, CR and LF there. */
export function quotedSafe(value: string): string {
  return value.replace(/["\r\n]/g, '');
}
