import { describe, expect, it } from 'vitest';
import { parseSoakArgs, SoakUsageError } from '../../scripts/soak/args';

const URL_ = 'http://127.0.0.1:8000/channels/acme-news/master.m3u8';

describe('the soak command line', () => {
  it('takes a playback URL and a number of minutes, and an optional server pid', () => {
    expect(parseSoakArgs([URL_, '--minutes', '60'])).toEqual({ url: URL_, minutes: 60 });
    expect(parseSoakArgs(['--minutes=5', URL_, '--pid', '1234'])).toEqual({
      url: URL_,
      minutes: 5,
      pid: 1234,
    });
  });

  it('takes --realtime-player, off unless given', () => {
    expect(parseSoakArgs([URL_, '--minutes', '1', '--realtime-player'])).toEqual({
      url: URL_,
      minutes: 1,
      realtimePlayer: true,
    });
  });

  it('refuses a missing, fractional or non-positive --minutes', () => {
    for (const argv of [
      [URL_],
      [URL_, '--minutes', '0'],
      [URL_, '--minutes', '1.5'],
      [URL_, '--minutes', 'x'],
    ])
      expect(() => parseSoakArgs(argv), argv.join(' ')).toThrow(SoakUsageError);
  });

  it('refuses anything but one http(s) URL, and unknown options', () => {
    for (const argv of [
      ['--minutes', '1'],
      [URL_, URL_, '--minutes', '1'],
      ['file:///etc/passwd', '--minutes', '1'],
      ['not a url', '--minutes', '1'],
      [URL_, '--minutes', '1', '--fast'],
      [URL_, '--minutes', '1', '--pid', '-3'],
    ])
      expect(() => parseSoakArgs(argv), argv.join(' ')).toThrow(SoakUsageError);
  });
});
