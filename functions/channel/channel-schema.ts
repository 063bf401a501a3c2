/**
 * The channel create request (docs/channel-api.md) and our rules for what it leaves open:
 * - name: lowercase letters, digits and hyphens, 1–63 characters, starting and ending with a letter or
 *   digit (a DNS label), unique in the deployment because the playback URL holds only the name.
 * - url and opts.preroll.url: absolute http(s) URLs of at most 2,048 characters, without credentials;
 *   in a deployment not on a private, loopback or link-local address as written (privateUrlField; a
 *   name that resolves to one is refused when the engine fetches it: docs/security.md).
 * - opts.preroll.duration: numeric text, whole milliseconds, 1..600000 (10 minutes). Loop channels only:
 *   a WebHook's answer carries its own preroll.
 * - opts.preroll.delivery: 'spliced' (default) or 'interstitial' (an HLS interstitial: docs/ad-insertion.md).
 * - opts.audioTracks, subtitleTracks, closedCaptions, profile, slate: the channel's media shape
 *   (core/media-shape.ts, shared with the schedule service and WebHook answers; docs/media.md).
 */
import { z } from 'zod';
import { isLiteralPrivateUrl } from '../../core/fetch/url-guard';
import { mediaShapeFields } from '../../core/media-shape';
import { httpUrl, isoInstant, plainText } from '../../core/validation';

export const CHANNEL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const MAX_PREROLL_MS = 600_000;
/** How a preroll reaches the viewer: in the stream, or as an HLS interstitial the player fetches. */
export const prerollDeliveries = ['spliced', 'interstitial'] as const;
export type PrerollDelivery = (typeof prerollDeliveries)[number];

export const channelTypes = ['Loop', 'WebHook'] as const;
export type ChannelType = (typeof channelTypes)[number];

const preroll = z
  .object({
    url: httpUrl,
    duration: z
      .string()
      .regex(/^\d+$/, 'must be numeric text (milliseconds)')
      .refine((d) => Number(d) >= 1 && Number(d) <= MAX_PREROLL_MS, `must be 1..${MAX_PREROLL_MS} ms`),
    delivery: z
      .enum(prerollDeliveries)
      .optional()
      .describe('spliced (default): in the stream; interstitial: an HLS interstitial the player fetches'),
  })
  .strict();

export const createChannelSchema = z
  .object({
    name: z
      .string()
      .regex(
        CHANNEL_NAME,
        'must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
      ),
    type: z.enum(channelTypes, {
      errorMap: () => ({ message: `must be one of ${channelTypes.join(', ')}` }),
    }),
    url: httpUrl,
    opts: z
      .object({ preroll: preroll.optional(), ...mediaShapeFields })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((req, ctx) => {
    if (req.type === 'WebHook' && req.opts?.preroll) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['opts', 'preroll'],
        message: 'is only allowed on Loop channels',
      });
    }
  });

export type CreateChannelRequest = z.infer<typeof createChannelSchema>;

/**
 * `PATCH /channel/{id}`: a new source and/or new opts, by the rules of the create request. Each field
 * given replaces the stored one as a whole (`opts: {}` clears the preroll and the media settings);
 * name and type never change (a name is the playback URL; another type is another channel).
 */
export const patchChannelSchema = z
  .object({
    url: httpUrl.optional(),
    opts: z
      .object({ preroll: preroll.optional(), ...mediaShapeFields })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => b.url !== undefined || b.opts !== undefined, {
    message: 'give url or opts (or both)',
    path: ['url'],
  });

export type PatchChannelRequest = z.infer<typeof patchChannelSchema>;

/** The first field whose URL is, as written, a private or loopback address (or localhost); else undefined. */
export function privateUrlField(
  req: Partial<Pick<CreateChannelRequest, 'url' | 'opts'>>,
): 'url' | 'opts.preroll.url' | 'opts.slate' | undefined {
  if (req.url !== undefined && isLiteralPrivateUrl(req.url)) return 'url';
  if (req.opts?.preroll && isLiteralPrivateUrl(req.opts.preroll.url)) return 'opts.preroll.url';
  if (req.opts?.slate && isLiteralPrivateUrl(req.opts.slate)) return 'opts.slate';
  return undefined;
}

/**
 * The URLs of a channel checked as HLS before they are stored (docs/channel-api.md "Sources that do not
 * answer"): a Loop channel's `url`, `opts.preroll.url` and `opts.slate`, accepted with a warning when
 * they do not answer (an origin may be down for a moment; the channel's status shows it meanwhile). A
 * WebHook's URL is not called: it answers JSON, and a call may have effects at the webhook's end.
 */
export function probedSources(channel: {
  type: ChannelType;
  url: string;
  opts?: { preroll?: { url: string }; slate?: string };
}): [string, string][] {
  const fields: [string, string][] = [];
  if (channel.type === 'Loop') fields.push(['url', channel.url]);
  if (channel.opts?.preroll) fields.push(['opts.preroll.url', channel.opts.preroll.url]);
  if (channel.opts?.slate) fields.push(['opts.slate', channel.opts.slate]);
  return fields;
}

export const tokenRequestSchema = z
  .object({
    company: plainText(200),
    email: z.string().trim().max(254).email('must be an email address'),
  })
  .strict();

/** Live events a channel may hold at once (they live on its record). */
export const MAX_LIVE_EVENTS = 50;

/** `POST /channel/{id}/events`: a live HLS source played from start to end (docs/live-mixing.md). */
export const createLiveEventSchema = z
  .object({ url: httpUrl, start: isoInstant, end: isoInstant })
  .strict()
  .refine((b) => Date.parse(b.end) > Date.parse(b.start), { message: 'must be after start', path: ['end'] });
