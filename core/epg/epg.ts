/**
 * A channel's programmes as an EPG, pure (shared: the schedule service's schedules and the channel
 * service's playout both become one): XMLTV (the listing format distribution platforms ingest,
 * https://github.com/XMLTV/xmltv/blob/master/xmltv.dtd) and the same programmes as JSON. Times are
 * written in UTC with an explicit `+0000` offset, so no reader has to guess a zone; every text is
 * XML-escaped (titles come from feeds and users).
 */
/** What an EPG needs of a programme: a schedule entry has these fields, a playout item maps to them. */
export interface EpgEntry {
  title: string;
  start_time: number;
  end_time: number;
  type: string;
  url: string;
}

export interface EpgChannel {
  id: string;
  title: string;
}

export interface EpgProgramme {
  title: string;
  /** ISO 8601 UTC. */
  start: string;
  stop: string;
  /** VOD, or LIVE for a live event. */
  type: string;
  url: string;
}

export interface Epg {
  channel: EpgChannel;
  range: { start: string; end: string };
  programmes: EpgProgramme[];
}

export function toEpg(channel: EpgChannel, fromMs: number, toMs: number, entries: readonly EpgEntry[]): Epg {
  return {
    channel,
    range: { start: new Date(fromMs).toISOString(), end: new Date(toMs).toISOString() },
    programmes: [...entries]
      .sort((a, b) => a.start_time - b.start_time)
      .map((e) => ({
        title: e.title,
        start: new Date(e.start_time).toISOString(),
        stop: new Date(e.end_time).toISOString(),
        type: e.type,
        url: e.url,
      })),
  };
}

/** XMLTV's date format: `YYYYMMDDhhmmss +0000`. */
export function xmltvTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}` +
    `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())} +0000`
  );
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text and attribute values as XML; characters XML 1.0 cannot carry at all are dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
  );
}

export function toXmltv(epg: Epg): string {
  const id = xmlEscape(epg.channel.id);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE tv SYSTEM "xmltv.dtd">',
    '<tv generator-info-name="onair">',
    `  <channel id="${id}">`,
    `    <display-name>${xmlEscape(epg.channel.title)}</display-name>`,
    '  </channel>',
  ];
  for (const p of epg.programmes) {
    lines.push(
      `  <programme start="${xmltvTime(p.start)}" stop="${xmltvTime(p.stop)}" channel="${id}">`,
      `    <title>${xmlEscape(p.title)}</title>`,
      ...(p.type === 'VOD' ? [] : [`    <category>${xmlEscape(p.type)}</category>`]),
      '  </programme>',
    );
  }
  lines.push('</tv>', '');
  return lines.join('\n');
}
