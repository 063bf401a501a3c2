/**
 * A time-shifted media playlist's text (docs/timeshift.md): the window rendered as a live one, typed
 * EVENT (or VOD once a range with an end has aired, then with EXT-X-ENDLIST), and starting players at its
 * first segment. Pure.
 */
import type { PlaylistWindow } from '../playout/window';
import { renderMediaPlaylist } from '../render/media-playlist';

/**
 * `lines`: the lines of the window's later segments, already rendered (rendered-history.ts), when `win`
 * lists only its first.
 */
export function shiftedPlaylist(win: PlaylistWindow, ended: boolean, lines = ''): string {
  const head = `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}\n#EXT-X-START:TIME-OFFSET=0,PRECISE=YES\n`;
  const body = renderMediaPlaylist(win).replace(/^(#EXTM3U\n#EXT-X-VERSION:\d+\n)/, `$1${head}`);
  return `${body}${lines}${ended ? '#EXT-X-ENDLIST\n' : ''}`;
}
