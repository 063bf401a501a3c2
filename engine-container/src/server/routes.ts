/**
 * The engine's HTTP surface (node:http, no framework). Paths:
 *   GET  /channels/<id>/master.m3u8[?filter=]      multivariant playlist ([&]start=[&end=]: time-shifted)
 *   GET  /channels/<id>/<k>.m3u8                   video variant k
 *   GET  /channels/<id>/audio/<group>/<lang>.m3u8  demuxed audio
 *   GET  /channels/<id>/subs/<lang>.m3u8           WebVTT subtitles
 *   GET  /live/master.m3u8?channel=<id>            autoCreateSession: creates, then redirects
 *   GET|POST /reset/<id>[?key=]                    channel reset (reset.ts; key also as header x-reset-key)
 *   GET  /eventstream/<id>                         Server-Sent Events (sessionEventStream)
 *   GET  <heartbeat>, <dummySubtitleEndpoint>, <subtitleSliceEndpoint>, static files on /
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, notFound } from '../../../core/errors';
import type { Logger } from '../../../core/logger';
import type { EngineConfig } from '../config';
import type { ChannelRuntime, EngineCore } from '../engine-core';
import type { TimeshiftRange } from '../timeshift/timeshift-range';
import type { ErrorLog } from './error-log';
import type { EventStreams } from './event-stream';
import { decodeSegment } from './path-segment';
import { sendPlaylistBytes } from './prepared-playlists';
import { type RequestTarget, requestTarget } from './request-target';
import { serveReset } from './reset';
import { CORS_HEADERS, sendError, sendJson, sendPlaylist } from './respond';
import { serveStatic } from './static-files';
import { serveDummyVtt, type VttSlicer } from './vtt';

export interface ServerContext {
  core: EngineCore;
  config: EngineConfig;
  streams: EventStreams;
  slicer: VttSlicer;
  log: Logger;
  /** The 5xx answered, logged once per kind and window. */
  errors: ErrorLog;
}

const channelNotFound = (id: string) => new HttpError(404, 'channel_not_found', `no channel "${id}"`);

function channelFor(ctx: ServerContext, id: string, create: boolean): ChannelRuntime {
  const existing = ctx.core.channel(id);
  if (existing) return existing;
  if (!create || !ctx.config.autoCreateSession || !/^[\w.-]{1,128}$/.test(id)) throw channelNotFound(id);
  const channel = { id, name: id };
  ctx.config.channelManager?._onAdd?.(channel);
  return ctx.core.upsertChannel(channel, 'auto');
}

/**
 * What a route returns: nothing when it has answered already (a live playlist from the cache or
 * rendered at once: most requests, which so make no promise), else the promise of its answer.
 */
type Answering = Promise<unknown> | undefined;

/** The rendition key of a media playlist path (`<k>.m3u8`, `audio/<group>/<lang>.m3u8`, `subs/<lang>.m3u8`). */
function renditionKeyOf(rest: string): string | undefined {
  let m = rest.match(/^(\d+)\.m3u8$/);
  if (m) return `v${Number(m[1])}`;
  m = rest.match(/^audio\/([^/]+)\/([^/]+)\.m3u8$/);
  if (m) return `a:${decodeSegment(m[1]!)}:${decodeSegment(m[2]!)}`;
  m = rest.match(/^subs\/([^/]+)\.m3u8$/);
  if (m) return `s:${decodeSegment(m[1]!)}`;
  return undefined;
}

async function serveMaster(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  runtime: ChannelRuntime,
  url: RequestTarget,
  shifted: TimeshiftRange | undefined,
): Promise<void> {
  const filter = url.searchParams.get('filter') ?? undefined;
  const body = shifted
    ? await ctx.core.timeshift.master(runtime, shifted, filter)
    : await runtime.playlists.master(filter);
  sendPlaylist(req, res, body, ctx.config.cacheTTL);
}

async function serveShifted(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  runtime: ChannelRuntime,
  key: string,
  shifted: TimeshiftRange,
): Promise<void> {
  const body = await ctx.core.timeshift.media(runtime, key, shifted);
  sendPlaylist(req, res, body, ctx.config.cacheTTL);
}

function channelRoute(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  id: string,
  rest: string,
): Answering {
  const runtime = channelFor(ctx, id, rest === 'master.m3u8');
  // `?start=` (and `&end=`): start-over and catch-up from the log (timeshift/).
  // Without a query there is nothing to parse (most requests: no URLSearchParams for them).
  const shifted = url.search === '' ? undefined : ctx.core.timeshift.range(url.searchParams);
  if (rest === 'master.m3u8') return serveMaster(ctx, req, res, runtime, url, shifted);
  const key = renditionKeyOf(rest);
  if (key === undefined) throw notFound(`no playlist ${rest} on channel ${id}`);
  if (shifted) return serveShifted(ctx, req, res, runtime, key, shifted);
  const { playlists } = runtime;
  const ready = playlists.readyMediaPlaylist(key);
  if (!ready)
    return playlists.renderedMediaPlaylist(key).then((playlist) => {
      sendPlaylistBytes(req, res, playlist.bytes, playlists.mediaMaxAgeS());
    });
  if (sendPlaylistBytes(req, res, ready.bytes, playlists.mediaMaxAgeS())) playlists.bytesHeld(key);
}

function route(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Answering {
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, CORS_HEADERS).end();
    return;
  }
  const url = requestTarget(req.url);
  const path = url.pathname;
  const reset = path.match(/^\/reset\/([^/]+)$/);
  if (reset) {
    const resets = {
      key: ctx.config.sessionResetKey,
      log: ctx.log,
      reset: (id: string) => channelFor(ctx, id, false).playout.reset(),
    };
    return serveReset(resets, req, res, url, reset[1]!);
  }
  if (method !== 'GET' && method !== 'HEAD')
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
  if (path === ctx.config.heartbeat) {
    sendJson(req, res, 200, health(ctx.core));
    return;
  }
  const channel = path.match(/^\/channels\/([^/]+)\/(.+)$/);
  if (channel) return channelRoute(ctx, req, res, url, decodeSegment(channel[1]!), channel[2]!);
  if (path === '/live/master.m3u8') {
    const id = url.searchParams.get('channel') ?? '';
    channelFor(ctx, id, true);
    // Passed on as sent, empty included: the master answers an empty filter as it answers it directly.
    const filter = url.searchParams.get('filter');
    const location = `/channels/${encodeURIComponent(id)}/master.m3u8${filter !== null ? `?filter=${encodeURIComponent(filter)}` : ''}`;
    res.writeHead(302, { ...CORS_HEADERS, location, 'content-length': '0' }).end();
    return;
  }
  const stream = path.match(/^\/eventstream\/([^/]+)$/);
  if (stream && ctx.config.sessionEventStream) {
    const id = decodeSegment(stream[1]!);
    channelFor(ctx, id, false);
    ctx.streams.serve(req, res, id);
    return;
  }
  if (path === ctx.config.dummySubtitleEndpoint) {
    serveDummyVtt(req, res);
    return;
  }
  if (path === ctx.config.subtitleSliceEndpoint) return ctx.slicer.serve(req, res, url.searchParams);
  if (ctx.config.staticDirectory) return serveStatic(req, res, ctx.config.staticDirectory, path);
  throw notFound(`no route for ${method} ${path}`);
}

/** Answers a request; an error, thrown at once or later, is answered in the one JSON shape. */
export function handleRequest(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): void {
  try {
    const answering = route(ctx, req, res);
    if (answering) answering.catch((err: unknown) => sendError(req, res, err, ctx.errors));
  } catch (err) {
    sendError(req, res, err, ctx.errors);
  }
}

/**
 * Always 200 while the process serves (a load balancer must not drop the engines that keep channels
 * on air through a store outage); `degraded` says channels are playing on alone (the slate).
 */
function health(core: EngineCore): Record<string, unknown> {
  const failing = core.failing();
  if (failing.channels === 0) return { status: 'ok' };
  return {
    status: 'degraded',
    failingChannels: failing.channels,
    failingSince: new Date(failing.sinceMs!).toISOString(),
  };
}
