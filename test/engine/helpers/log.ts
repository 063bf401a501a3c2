/** Builds parsed VODs and playout logs directly (no fetch, no engine) for window and render tests. */
import { parseMediaPlaylist } from '../../../engine-container/src/hls/parse-media';
import { trackFor } from '../../../engine-container/src/ladder/map-rendition';
import { type OutputLadder, renditionKeys } from '../../../engine-container/src/ladder/output-ladder';
import { buildItem, type ChannelHeader, REFERENCE_KEY } from '../../../engine-container/src/playout/append';
import { loopDraft, type VodPlan, vodDraft } from '../../../engine-container/src/playout/drafts';
import { type ItemDraft, itemEndMs, type PlayoutItem } from '../../../engine-container/src/playout/item';
import type { TrackResolver } from '../../../engine-container/src/playout/window';
import { buildParsedVod, type ParsedVod, referenceTrack } from '../../../engine-container/src/vod/parsed-vod';
import { type MediaOptions, mediaPlaylist } from './playlists';

export interface VariantDef {
  bandwidth: number;
  height?: number;
  segmentsMs: number[];
  media?: MediaOptions;
}

export interface RenditionDef {
  language: string;
  segmentsMs: number[];
  groupId?: string;
  default?: boolean;
}

export function makeVod(
  uri: string,
  variants: VariantDef[],
  audio: RenditionDef[] = [],
  subtitles: RenditionDef[] = [],
): ParsedVod {
  const dir = uri.replace(/[^/]*$/, '');
  const media = (kind: string, defs: RenditionDef[], type: 'AUDIO' | 'SUBTITLES') =>
    defs.map((d, i) => {
      const url = `${dir}${kind}${i}.m3u8`;
      return {
        media: {
          type,
          groupId: d.groupId ?? kind,
          name: d.language,
          language: d.language,
          default: !!d.default,
          autoselect: true,
          uri: url,
        },
        playlist: parseMediaPlaylist(
          mediaPlaylist(d.segmentsMs, { prefix: `${kind}${i}-`, ext: type === 'AUDIO' ? 'aac' : 'vtt' }),
          url,
        ),
      };
    });
  return buildParsedVod(
    uri,
    variants.map((v, i) => {
      const url = `${dir}v${i}.m3u8`;
      return {
        variant: {
          uri: url,
          bandwidth: v.bandwidth,
          resolution: v.height ? { width: v.height * 2, height: v.height } : undefined,
          audioGroup: audio.length ? 'aud' : undefined,
        },
        playlist: parseMediaPlaylist(mediaPlaylist(v.segmentsMs, { prefix: `v${i}-`, ...v.media }), url),
      };
    }),
    [
      ...media(
        'aud',
        audio.map((a) => ({ groupId: 'aud', ...a })),
        'AUDIO',
      ),
      ...media('sub', subtitles, 'SUBTITLES'),
    ],
  );
}

export const MAPPING = {
  alwaysMapBandwidthByNearest: false,
  dummySubtitleEndpoint: '/vtt/dummyUrl',
  subtitleSliceEndpoint: '/vtt/sliceUrl',
};

export class TestLog {
  items: PlayoutItem[] = [];
  readonly vods = new Map<string, ParsedVod>();
  readonly resolve: TrackResolver = (item, key) => {
    const vod = this.vods.get(item.uri);
    if (!vod) return undefined;
    return key === REFERENCE_KEY ? referenceTrack(vod) : trackFor(vod, item.ladder, key, MAPPING);
  };

  constructor(
    readonly header: ChannelHeader,
    readonly t0 = Date.UTC(2025, 0, 1),
  ) {}

  static withLadder(ladder: OutputLadder, targetDurationS: number): TestLog {
    return new TestLog({ ladder, targetDurationS });
  }

  get keys(): readonly string[] {
    return renditionKeys(this.header.ladder);
  }

  get endMs(): number {
    const last = this.items[this.items.length - 1];
    return last ? itemEndMs(last) : this.t0;
  }

  appendDraft(vod: ParsedVod, draft: ItemDraft, startMs = this.endMs): PlayoutItem {
    this.vods.set(vod.uri, vod);
    const item = buildItem(this.items, draft, startMs, this.header, this.keys, this.resolve);
    this.items.push(item);
    return item;
  }

  play(vod: ParsedVod, plan: Partial<VodPlan> = {}, startMs?: number): PlayoutItem {
    const draft = vodDraft(referenceTrack(vod), {
      kind: 'vod',
      id: vod.uri,
      title: vod.uri,
      uri: vod.uri,
      ...plan,
    });
    return this.appendDraft(vod, draft, startMs);
  }

  /** The whole VOD as a preroll (id and title `ad`), its ad break announced as `durationMs`. */
  preroll(vod: ParsedVod, durationMs: number): PlayoutItem {
    const draft = {
      kind: 'preroll',
      id: 'ad',
      title: 'ad',
      uri: vod.uri,
      offsetMs: 0,
      durationMs,
      loop: 0,
    } as const;
    return this.appendDraft(vod, draft);
  }

  loop(
    vod: ParsedVod,
    fill: { durationMs: number } | { repetitions: number },
    kind: 'slate' | 'gap' = 'slate',
  ): PlayoutItem {
    return this.appendDraft(
      vod,
      loopDraft(referenceTrack(vod), { kind, id: kind, title: kind, uri: vod.uri }, fill),
    );
  }
}

export const ladderOf = (bandwidths: number[], extra: Partial<OutputLadder> = {}): OutputLadder => ({
  variants: bandwidths.map((bandwidth) => ({ bandwidth })),
  audio: [],
  subtitles: [],
  ...extra,
});
