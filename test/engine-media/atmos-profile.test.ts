/**
 * A channel profile's Atmos rung (`channels: "16/JOC"`) is listed as Atmos only when the channel's
 * content has Atmos; otherwise the master says what the rung plays (docs/media.md).
 */
import { describe, expect, it } from 'vitest';
import { trackFor } from '../../engine-container/src/ladder/map-rendition';
import { buildLadder } from '../../engine-container/src/ladder/output-ladder';
import { renderMasterPlaylist } from '../../engine-container/src/render/master-playlist';
import type { Channel, ChannelProfile } from '../../engine-container/src/types';
import { buildParsedVod, type ParsedVod } from '../../engine-container/src/vod/parsed-vod';
import { MAPPING } from '../engine/helpers/log';

const ON = { useDemuxedAudio: true, useVTTSubtitles: false };
const STEREO: ChannelProfile = { resolution: [1280, 720], bw: 3_000_000, codecs: 'avc1.64001f,mp4a.40.2' };
const ATMOS: ChannelProfile = {
  resolution: [1920, 1080],
  bw: 8_000_000,
  codecs: 'avc1.640028,ec-3',
  channels: '16/JOC',
};

/** A VOD of one video rung and an English audio rendition per group: `[groupId, channels, codec]`. */
function vodWithAudio(groups: Array<[string, string | undefined, string]>): ParsedVod {
  const base = 'https://o.test/v';
  return buildParsedVod(
    `${base}/master.m3u8`,
    groups.map(([groupId, , codec]) => ({
      variant: {
        uri: `${base}/${groupId}/video.m3u8`,
        bandwidth: 5_000_000,
        resolution: { width: 1920, height: 1080 },
        codecs: `avc1.640028,${codec}`,
        audioGroup: groupId,
      },
      playlist: { segments: [{ uri: 'video.m4s', durationMs: 2000, discontinuity: false }] },
    })),
    groups.map(([groupId, channels]) => ({
      media: {
        type: 'AUDIO' as const,
        groupId,
        name: 'English',
        language: 'en',
        default: true,
        autoselect: true,
        ...(channels ? { channels } : {}),
        uri: `${base}/${groupId}.m3u8`,
      },
      playlist: { segments: [{ uri: `${groupId}.m4s`, durationMs: 2000, discontinuity: false }] },
    })),
  );
}

const channelWith = (profile: ChannelProfile[]): Channel => ({
  id: 'c',
  name: 'c',
  audioTracks: [{ language: 'en', name: 'English' }],
  profile,
});

const master = (channel: Channel, vod: ParsedVod) =>
  renderMasterPlaylist(channel, buildLadder(channel, vod, ON), { noSessionDataTags: true });

describe('a profile rung with channels "16/JOC"', () => {
  it('is listed as Atmos and plays the Atmos group when the content has one', () => {
    const vod = vodWithAudio([
      ['stereo', '2', 'mp4a.40.2'],
      ['atmos', '16/JOC', 'ec-3'],
    ]);
    const channel = channelWith([STEREO, ATMOS]);
    const text = master(channel, vod);
    expect(text).toContain(
      'GROUP-ID="ec-3-16_JOC",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="16/JOC"',
    );
    expect(text).toContain('CODECS="avc1.640028,ec-3",AUDIO="ec-3-16_JOC"');
    const ladder = buildLadder(channel, vod, ON);
    expect(trackFor(vod, ladder, 'a:ec-3-16_JOC:en', MAPPING).segments[0]!.uri).toBe('atmos.m4s');
  });

  it('is not listed as Atmos over content without Atmos: its rung says the stereo it plays', () => {
    const vod = vodWithAudio([['stereo', '2', 'mp4a.40.2']]);
    const text = master(channelWith([STEREO, ATMOS]), vod);
    expect(text).not.toContain('JOC');
    expect(text).not.toContain('ec-3');
    expect(text).toContain(
      'BANDWIDTH=8000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",AUDIO="mp4a.40.2-2"',
    );
  });

  it('plays, relabelled, the content audio group its label names', () => {
    const vod = vodWithAudio([
      ['surround', '6', 'ec-3'],
      ['stereo', '2', 'mp4a.40.2'],
    ]);
    const channel = channelWith([STEREO, ATMOS]);
    const ladder = buildLadder(channel, vod, ON);
    expect(ladder.variants[1]!.audioGroup).toBe('mp4a.40.2-2');
    expect(trackFor(vod, ladder, 'a:mp4a.40.2-2:en', MAPPING).segments[0]!.uri).toBe('stereo.m4s');
  });

  it('takes the content audio label when every rung of the profile is Atmos', () => {
    const vod = vodWithAudio([['surround', '6', 'ec-3']]);
    const text = master(channelWith([ATMOS]), vod);
    expect(text).toContain(
      'GROUP-ID="ec-3-6",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="6"',
    );
    expect(text).toContain('CODECS="avc1.640028,ec-3",AUDIO="ec-3-6"');
    expect(text).not.toContain('JOC');
  });
});
