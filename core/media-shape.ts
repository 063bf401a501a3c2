/**
 * A channel's media shape (docs/media.md): the audio and subtitle languages it plays, its closed
 * captions, a fixed output ladder (profile) and its slate. One schema for every channel source: the
 * channel API's `opts`, the schedule service's channels and a WebHook answer, so they accept the
 * same thing and refuse it with the same 400 naming the field.
 * - language: a BCP 47 tag of a known language (`en`, `sv`, `pt-BR`); `xx` or `english` is refused.
 * - audioTracks / subtitleTracks: at most 16, one per language; closedCaptions: at most 8, one per
 *   INSTREAM-ID (CC1-CC4 for EIA-608, SERVICE1-SERVICE63 for EIA-708).
 * - profile: 1-16 rungs; codecs "<video>,<audio>"; channels "2", "6" or "16/JOC" (Dolby Atmos).
 * - slate: an http(s) URL (fetched by the engine through the guarded fetch, like every user URL).
 * - targetDuration: the channel's EXT-X-TARGETDURATION, 1-30 s (core/target-duration.ts).
 */
import { z } from 'zod';
import { targetDurationField } from './target-duration';
import { httpUrl, plainText } from './validation';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A known language as a BCP 47 tag: Intl knows its name. */
export function isKnownLanguage(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(tag)) return false;
  try {
    return languageNames.of(tag) !== undefined;
  } catch {
    return false;
  }
}

const language = z.string().max(35).refine(isKnownLanguage, 'must be a known BCP 47 language tag, e.g. "en"');
const name = plainText(100);

const track = z.object({ language, name, default: z.boolean().optional() }).strict();

const uniqueBy =
  <T>(key: (t: T) => string, what: string) =>
  (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (seen.has(key(t)))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message: `repeats ${what} "${key(t)}"` });
      seen.add(key(t));
    });
  };

const tracks = z
  .array(track)
  .min(1)
  .max(16)
  .superRefine(uniqueBy((t) => t.language.toLowerCase(), 'the language'));

export const INSTREAM_ID = /^(?:CC[1-4]|SERVICE(?:[1-9]|[1-5][0-9]|6[0-3]))$/;

const closedCaption = z
  .object({
    lang: language,
    name,
    id: z.string().regex(INSTREAM_ID, 'must be an INSTREAM-ID: CC1-CC4 or SERVICE1-SERVICE63'),
    default: z.boolean().optional(),
    auto: z.boolean().optional(),
  })
  .strict();

const CODEC = /^[A-Za-z0-9][A-Za-z0-9.-]{1,40}$/;

const rung = z
  .object({
    resolution: z.tuple([z.number().int().min(16).max(8192), z.number().int().min(16).max(8192)]),
    bw: z.number().int().min(1000).max(1_000_000_000),
    codecs: z
      .string()
      .max(100)
      .refine((c) => {
        const parts = c.split(',').map((p) => p.trim());
        return parts.length === 2 && parts.every((p) => CODEC.test(p));
      }, 'must be "<video codec>,<audio codec>", e.g. "avc1.64001f,mp4a.40.2"'),
    channels: z
      .string()
      .regex(/^\d{1,2}(?:\/[A-Z0-9-]{1,20})?$/, 'must be a channel count, e.g. "2", "6" or "16/JOC"')
      .optional(),
  })
  .strict();

/** The fields, each optional; a source adds them to its own object (`.extend(mediaShapeFields)`). */
export const mediaShapeFields = {
  audioTracks: tracks.optional(),
  subtitleTracks: tracks.optional(),
  closedCaptions: z
    .array(closedCaption)
    .min(1)
    .max(8)
    .superRefine(uniqueBy((c) => c.id, 'the INSTREAM-ID'))
    .optional(),
  profile: z.array(rung).min(1).max(16).optional(),
  slate: httpUrl.optional(),
  targetDuration: targetDurationField.optional(),
};

export const mediaShapeSchema = z.object(mediaShapeFields).strict();
export type MediaShape = z.infer<typeof mediaShapeSchema>;

/** The shape's fields that are set, ready to spread into an engine channel. */
export function mediaOf(source: MediaShape | undefined): MediaShape {
  const out: MediaShape = {};
  if (!source) return out;
  for (const key of Object.keys(mediaShapeFields) as Array<keyof MediaShape>) {
    if (source[key] !== undefined) (out as Record<string, unknown>)[key] = source[key];
  }
  return out;
}
