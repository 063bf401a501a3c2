/**
 * The built-in WebVTT endpoints: the dummy (a valid, empty WebVTT for subtitle segments a VOD lacks)
 * and the slicer (the cues of a whole-file WebVTT that overlap one segment's time span).
 *
 * The slicer fetches only WebVTT files that are the subtitle source of a VOD the engine has loaded
 * (so it went through the engine's fetch and its guard): it is no public fetcher of any URL. Its
 * errors are one generic message each, so they tell nothing of what is behind a URL (docs/security.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, HttpError } from '../../../core/errors';
import { type FetchLike, fetchOkText } from '../../../core/fetch/bounded-fetch';
import type { Logger } from '../../../core/logger';
import type { ParsedVod } from '../vod/parsed-vod';
import { send } from './respond';

export const VTT_TYPE = 'text/vtt; charset=utf-8';
export const EMPTY_WEBVTT = 'WEBVTT\n\n';

const TIME = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/;

function toMs(text: string): number {
  const m = text.trim().match(TIME);
  if (!m) return Number.NaN;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
}

/** The header (and STYLE/REGION blocks) plus every cue overlapping [startMs, endMs). */
export function sliceWebVtt(text: string, startMs: number, endMs: number): string {
  const blocks = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n(?:[ \t]*\r?\n)+/)
    .map((b) => b.trimEnd())
    .filter((b) => b !== '');
  const header = blocks.shift() ?? 'WEBVTT';
  if (!header.startsWith('WEBVTT')) throw new Error('not a WebVTT file');
  const kept = blocks.filter((block) => {
    const timing = block.split(/\r?\n/).find((l) => l.includes('-->'));
    if (!timing) return /^(STYLE|REGION)\b/.test(block);
    const [from, rest] = timing.split('-->');
    const cueStart = toMs(from ?? '');
    const cueEnd = toMs((rest ?? '').trim().split(/\s+/)[0] ?? '');
    return cueStart < endMs && cueEnd > startMs;
  });
  return `${[header, ...kept].join('\n\n')}\n\n`;
}

export function serveDummyVtt(req: IncomingMessage, res: ServerResponse): void {
  send(req, res, 200, EMPTY_WEBVTT, { 'content-type': VTT_TYPE, 'cache-control': 'public, max-age=86400' });
}

/** Is `uri` the whole-file WebVTT of a subtitle rendition of one of these VODs? */
export function isSubtitleSource(vods: Iterable<ParsedVod>, uri: string): boolean {
  for (const vod of vods) for (const s of vod.subtitles) if (s.track.segments[0]?.uri === uri) return true;
  return false;
}

export interface VttSlicerOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxBytes: number;
  /** True for the URIs the slicer may fetch: subtitle sources of loaded VODs (isSubtitleSource). */
  isKnownSource(uri: string): boolean;
  log: Logger;
}

const unknownSource = () => new HttpError(404, 'subtitle_not_found', 'no such subtitle source');
const unavailable = () =>
  new HttpError(502, 'subtitle_unavailable', 'the subtitle source could not be loaded');

export class VttSlicer {
  private readonly texts = new Map<string, Promise<string>>();

  constructor(private readonly opts: VttSlicerOptions) {}

  private source(uri: string): Promise<string> {
    let text = this.texts.get(uri);
    if (!text) {
      const { fetch, timeoutMs, maxBytes } = this.opts;
      text = fetchOkText(uri, { timeoutMs, maxBytes, fetch });
      text.catch(() => this.texts.delete(uri));
      if (this.texts.size >= 32) this.texts.delete(this.texts.keys().next().value!);
      this.texts.set(uri, text);
    }
    return text;
  }

  async serve(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const uri = query.get('uri') ?? '';
    const startMs = Number(query.get('startMs'));
    const endMs = Number(query.get('endMs'));
    if (!Number.isInteger(startMs) || !Number.isInteger(endMs) || endMs <= startMs) {
      throw badRequest('startMs and endMs must be integers with startMs < endMs', 'startMs');
    }
    if (!this.opts.isKnownSource(uri)) throw unknownSource();
    let body: string;
    try {
      body = sliceWebVtt(await this.source(uri), startMs, endMs);
    } catch (err) {
      this.opts.log.warn('subtitle source cannot be sliced', { uri, err });
      throw unavailable();
    }
    send(req, res, 200, body, { 'content-type': VTT_TYPE, 'cache-control': 'public, max-age=3600' });
  }
}
