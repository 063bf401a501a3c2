/**
 * The EPG of a schedule (core/epg/epg.ts): XMLTV that the XMLTV DTD accepts, times in
 * UTC with their zone, every text escaped; the same programmes as JSON.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toEpg, toXmltv, xmlEscape, xmltvTime } from '../../core/epg/epg';
import type { ScheduleEntry } from '../../functions/schedule/model';

/** Debian's libxmltv-perl ships the DTD, libxml2-utils xmllint (.ci/run installs both). */
const XMLTV_DTD = '/usr/share/sgml/xmltv/dtd/0.5/xmltv.dtd';
const canValidate = existsSync(XMLTV_DTD) && existsSync('/usr/bin/xmllint');

const entry = (title: string, start: string, end: string, type = 'VOD'): ScheduleEntry => ({
  id: `e-${start}`,
  channelId: 'news',
  title,
  start_time: Date.parse(start),
  end_time: Date.parse(end),
  start,
  end,
  url: 'https://vod.example.com/a/master.m3u8',
  duration: (Date.parse(end) - Date.parse(start)) / 1000,
  type: type as 'VOD',
});

const day = toEpg(
  { id: 'news', title: 'News & <Weather>' },
  Date.parse('2026-05-01T00:00:00Z'),
  Date.parse('2026-05-02T00:00:00Z'),
  [
    entry('Late "show"', '2026-05-01T23:30:00.000Z', '2026-05-02T00:30:00.000Z'),
    entry("Morning's news", '2026-05-01T06:00:00.000Z', '2026-05-01T06:30:00.000Z'),
    entry('Match', '2026-05-01T12:00:00.000Z', '2026-05-01T14:00:00.000Z', 'LIVE'),
  ],
);

describe('the XMLTV EPG', () => {
  it('writes XMLTV times in UTC with an explicit +0000 zone', () => {
    expect(xmltvTime('2026-05-01T23:30:00.000Z')).toBe('20260501233000 +0000');
    // An instant given with another zone is the same instant, written in UTC.
    expect(xmltvTime(new Date('2026-05-02T01:30:00+02:00').toISOString())).toBe('20260501233000 +0000');
  });

  it('escapes markup in titles and drops characters XML cannot carry', () => {
    expect(xmlEscape(`a & b <c> "d" 'e'\u0001`)).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;');
  });

  it('lists the programmes in start order, a LIVE one with its category', () => {
    const xml = toXmltv(day);
    const starts = [...xml.matchAll(/start="(\d{14} \+0000)"/g)].map((m) => m[1]);
    expect(starts).toEqual(['20260501060000 +0000', '20260501120000 +0000', '20260501233000 +0000']);
    expect(xml).toContain('<display-name>News &amp; &lt;Weather&gt;</display-name>');
    expect(xml).toContain('<title>Late &quot;show&quot;</title>');
    expect(xml).toContain('<category>LIVE</category>');
  });

  it.skipIf(!canValidate)('is valid against the XMLTV DTD', () => {
    const dir = mkdtempSync(join(tmpdir(), 'epg-'));
    const file = join(dir, 'epg.xml');
    writeFileSync(file, toXmltv(day));
    // xmllint exits non-zero and names the element when the document breaks the DTD.
    const out = execFileSync('xmllint', ['--noout', '--nonet', '--dtdvalid', XMLTV_DTD, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
  });

  it.skipIf(!canValidate)('is caught by the DTD check when it is not XMLTV (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'epg-'));
    const file = join(dir, 'bad.xml');
    writeFileSync(file, toXmltv(day).replace('<title>', '<name>').replace('</title>', '</name>'));
    expect(() =>
      execFileSync('xmllint', ['--noout', '--nonet', '--dtdvalid', XMLTV_DTD, file], { stdio: 'pipe' }),
    ).toThrow();
  });
});

describe('the JSON EPG', () => {
  it('holds the channel, the range and each programme with ISO 8601 UTC start and stop', () => {
    expect(day.channel).toEqual({ id: 'news', title: 'News & <Weather>' });
    expect(day.range).toEqual({ start: '2026-05-01T00:00:00.000Z', end: '2026-05-02T00:00:00.000Z' });
    expect(day.programmes[0]).toEqual({
      title: "Morning's news",
      start: '2026-05-01T06:00:00.000Z',
      stop: '2026-05-01T06:30:00.000Z',
      type: 'VOD',
      url: 'https://vod.example.com/a/master.m3u8',
    });
  });
});
