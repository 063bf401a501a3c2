/**
 * The WebHook channel contract (engine-container/README.md, "WebHook channels"): the engine calls
 *   GET <url>?channelId=<name>
 * and expects 200 with JSON { id, title, hlsUrl, prerollUrl?, prerollDurationMs?, desiredOffsetMs?,
 * desiredDurationMs?, type?: 'gap' }. A timeout, a non-200, a body over 64 KiB or a body that does not
 * match → the engine plays its slate (and logs why).
 */
import { z } from 'zod';
import { type FetchLike, fetchOkText } from '../../core/fetch/bounded-fetch';
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
    desiredOffsetMs: ms.optional(),
    desiredDurationMs: ms.optional(),
    type: z.literal('gap').optional(),
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

export class WebhookError extends Error {
  override name = 'WebhookError';
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
  return {
    id: answer.id,
    title: answer.title,
    ...(answer.hlsUrl ? { uri: answer.hlsUrl } : {}),
    ...(answer.desiredOffsetMs !== undefined ? { startOffset: answer.desiredOffsetMs } : {}),
    ...(answer.desiredDurationMs !== undefined ? { desiredDuration: answer.desiredDurationMs } : {}),
    ...(answer.type ? { type: answer.type } : {}),
    ...(answer.prerollUrl
      ? { preroll: { uri: answer.prerollUrl, durationMs: answer.prerollDurationMs } }
      : {}),
  };
}

export async function callWebhook(
  url: string,
  channelId: string,
  opts: WebhookOptions,
): Promise<VodResponse> {
  const body = await fetchOkText(webhookUrl(url, channelId), {
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
    maxBytes: 64 * 1024,
  });
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new WebhookError(`webhook ${url} answered with invalid JSON`);
  }
  const parsed = webhookAnswerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WebhookError(`webhook ${url} answer: ${issue.path.join('.') || 'body'} ${issue.message}`);
  }
  return toVodResponse(parsed.data);
}
