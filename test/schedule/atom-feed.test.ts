import { describe, expect, it } from 'vitest';
import { FeedFormatError, parseAtomFeed } from '../../functions/schedule/planning/atom-feed';

const entry = (id: string, title: string, link: string) =>
  `<entry><title>${title}</title><id>${id}</id><link>${link}</link></entry>`;

const feed = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
  <title>Channel feed</title>
  <updated>2024-05-01T12:00:00Z</updated>
  ${body}
</feed>`;

describe('parseAtomFeed', () => {
  it('reads the feed and its entries in order', () => {
    const parsed = parseAtomFeed(
      feed(
        entry('0f9a6b58-1b4e-4a3e-9c1d-5a2b7e0c1d11', 'First', 'http://cdn/a/master.m3u8') +
          entry('1f9a6b58-1b4e-4a3e-9c1d-5a2b7e0c1d12', 'Second', 'http://cdn/b/master.m3u8'),
      ),
    );
    expect(parsed.title).toBe('Channel feed');
    expect(parsed.updated).toBe('2024-05-01T12:00:00Z');
    expect(parsed.entries).toEqual([
      { id: '0f9a6b58-1b4e-4a3e-9c1d-5a2b7e0c1d11', title: 'First', link: 'http://cdn/a/master.m3u8' },
      { id: '1f9a6b58-1b4e-4a3e-9c1d-5a2b7e0c1d12', title: 'Second', link: 'http://cdn/b/master.m3u8' },
    ]);
    expect(parsed.skipped).toEqual([]);
  });

  it('reads a feed with a single entry', () => {
    expect(parseAtomFeed(feed(entry('only', 'Only', 'http://cdn/o.m3u8'))).entries).toHaveLength(1);
  });

  it('reads a feed with no entries', () => {
    expect(parseAtomFeed(feed('')).entries).toEqual([]);
    expect(parseAtomFeed('<feed xmlns="http://www.w3.org/2005/Atom"/>').entries).toEqual([]);
  });

  it('reads a namespace-prefixed feed', () => {
    const xml = `<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:title>T</atom:title>
      <atom:entry><atom:title>X</atom:title><atom:id>x1</atom:id><atom:link>http://cdn/x.m3u8</atom:link></atom:entry>
      </atom:feed>`;
    expect(parseAtomFeed(xml).entries).toEqual([{ id: 'x1', title: 'X', link: 'http://cdn/x.m3u8' }]);
  });

  it('takes the link from href, preferring the alternate link, and decodes entities', () => {
    const xml = feed(`<entry><title type="text">Tom &amp; Jerry</title><id>42</id>
      <link rel="enclosure" href="http://cdn/poster.jpg"/>
      <link rel="alternate" href="http://cdn/v.m3u8?a=1&amp;b=2"/></entry>`);
    expect(parseAtomFeed(xml).entries).toEqual([
      { id: '42', title: 'Tom & Jerry', link: 'http://cdn/v.m3u8?a=1&b=2' },
    ]);
  });

  it('resolves relative links against the feed URL', () => {
    const parsed = parseAtomFeed(feed(entry('r', 'R', 'vods/r/master.m3u8')), 'http://host:8080/feeds/f.xml');
    expect(parsed.entries[0]!.link).toBe('http://host:8080/feeds/vods/r/master.m3u8');
  });

  it('skips entries missing a field and says which field and where', () => {
    const parsed = parseAtomFeed(
      feed(
        '<entry><id>a</id><link>http://cdn/a.m3u8</link></entry>' +
          entry('b', 'B', 'http://cdn/b.m3u8') +
          '<entry><title>C</title><id>c</id></entry>' +
          entry('d', 'D', 'ftp://cdn/d.m3u8'),
      ),
    );
    expect(parsed.entries.map((e) => e.id)).toEqual(['b']);
    expect(parsed.skipped).toEqual([
      { index: 0, reason: 'missing title' },
      { index: 2, reason: 'missing link' },
      { index: 3, reason: 'link "ftp://cdn/d.m3u8" is not an http(s) URL' },
    ]);
  });

  it('refuses documents that are not XML or have no feed root', () => {
    expect(() => parseAtomFeed('not xml <')).toThrow(FeedFormatError);
    expect(() => parseAtomFeed('<rss><channel/></rss>')).toThrow(FeedFormatError);
  });
});
