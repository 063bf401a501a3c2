/**
 * The WebHook channel contract (engine-container/README.md, "WebHook channels"): the engine calls
 *   GET <url>?channelId=<name>
 * and expects 200 with JSON { id, title, hlsUrl, prerollUrl?, prerollDurationMs?, prerollDelivery?, desiredOffsetMs?,
 * desiredDurationMs?, type?: 'gap', audioTracks?, subtitleTracks?, closedCaptions?, profile? }. A timeout, a non-200, a body over 64 KiB, a refused address
 * (the host's guarded fetch) or a body that does not match → the engine plays its slate, logs why,
 * and its public event stream shows only the error's code.
 */
import { z } from 'zod';
import { type FetchLike, fetchOkText } from '../../core/fetch/bounded-fetch';
import { mediaOf, mediaShapeFields } from '../../core/media-shape';
import { httpUrl } from '../../core/validation';
import type { VodResponse } from '../src/types';

const ms = z.number().int().nonnegative();

export const webhookAnswerSchema = z
  .object({
    id: z.string().min(1).max(256),
    title: z.string().max(1024).default(''),
    hlsUrl: httpUrl.optional(),
    prerollUrl: httpUrl.optional(),
    prerollDurationMs: ms.optional(),
    prerollDelivery: z.enum(['spliced', 'interstitial']).optional(),
    desiredOffsetMs: ms.optional(),
    desiredDurationMs: ms.optional(),
    type: z.literal('gap').optional(),
    // The channel's media shape (docs/media.md); only the answer that starts the channel counts.
    audioTracks: mediaShapeFields.audioTracks,
    subtitleTracks: mediaShapeFields.subtitleTracks,
    closedCaptions: mediaShapeFields.closedCaptions,
    profile: mediaShapeFields.profile,
  })
  .refine((a) => a.type === 'gap' || a.hlsUrl, {
    message: 'hlsUrl is required unless type is gap',
    path: ['hlsUrl'],
  })
  .refine((a) => a.type !== 'gap' || a.desiredDurationMs, {
    message: 'a gap needs desiredDurationMs',
    path: ['desiredDurationMs'],
  });

export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

/** The codes are what the public event stream shows (server/public-event.ts); messages go to the log. */
export class WebhookError extends Error {
  override name = 'WebhookError';
  constructor(
    message: string,
    readonly code: 'webhook_unavailable' | 'webhook_invalid',
  ) {
    super(message);
  }
}

export interface WebhookOptions {
  fetch: FetchLike;
  timeoutMs: number;
}

export function webhookUrl(url: string, channelId: string): string {
  const u = new URL(url);
  u.searchParams.set('channelId', channelId);
  return u.toString();
}

export function toVodResponse(answer: WebhookAnswer): VodResponse {
  const { slate: _none, ...media } = mediaOf(answer);
  return {
    ...(Object.keys(media).length ? { media } : {}),
    id: answer.id,
    title: answer.title,
    ...(answer.hlsUrl ? { uri: answer.hlsUrl } : {}),
    ...(answer.desiredOffsetMs !== undefined ? { startOffset: answer.desiredOffsetMs } : {}),
    ...(answer.desiredDurationMs !== undefined ? { desiredDuration: answer.desiredDurationMs } : {}),
    ...(answer.type ? { type: answer.type } : {}),
    ...(answer.prerollUrl
      ? {
          preroll: {
            uri: answer.prerollUrl,
            durationMs: answer.prerollDurationMs,
            ...(answer.prerollDelivery ? { delivery: answer.prerollDelivery } : {}),
          },
        }
      : {}),
  };
}

export async function callWebhook(
  url: string,
  channelId: string,
  opts: WebhookOptions,
): Promise<VodResponse> {
  let body: string;
  try {
    body = await fetchOkText(webhookUrl(url, channelId), {
      fetch: opts.fetch,
      timeoutMs: opts.timeoutMs,
      maxBytes: 64 * 1024,
    });
  } catch (err) {
    throw new WebhookError(`webhook ${url}: ${(err as Error).message}`, 'webhook_unavailable');
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new WebhookError(`webhook ${url} answered with invalid JSON`, 'webhook_invalid');
  }
  const parsed = webhookAnswerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || 'body';
    throw new WebhookError(`webhook ${url} answer: ${where} ${issue.message}`, 'webhook_invalid');
  }
  return toVodResponse(parsed.data);
}
