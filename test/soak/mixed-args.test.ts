import { describe, expect, it } from 'vitest';
import { SoakUsageError } from '../../scripts/soak/args';
import { parseMixedArgs } from '../../scripts/soak/mixed/args';
import { parseStartedUrls } from '../../scripts/soak/mixed/local-system';

describe('the mixed soak command line', () => {
  it('takes a number of minutes, and optionally the channel API of a running system', () => {
    expect(parseMixedArgs(['--minutes', '60'])).toEqual({ minutes: 60 });
    expect(parseMixedArgs(['--minutes=5', '--channel-api', 'http://localhost:8080/'])).toEqual({
      minutes: 5,
      channelApi: 'http://localhost:8080',
    });
  });

  it('refuses a missing or fractional --minutes, a channel API that is no URL and a stray argument', () => {
    for (const argv of [
      [],
      ['--minutes', '1.5'],
      ['--minutes', '5', '--channel-api', 'localhost:8080'],
      ['--minutes', '5', 'http://localhost:8000/channels/x/master.m3u8'],
    ])
      expect(() => parseMixedArgs(argv), argv.join(' ')).toThrow(SoakUsageError);
  });
});

describe('the URLs npm start prints', () => {
  it('are read from its service lines and nothing else', () => {
    const printed = [
      '',
      'onair is running:',
      '  schedule   http://localhost:40001/api/v1',
      '  engine     http://localhost:38207',
      '  s3+sqs     http://127.0.0.1:41967',
      '  data: in memory (discarded on exit)',
      'Open the console: http://localhost:46205/console/',
    ];
    expect(parseStartedUrls(printed)).toEqual({
      schedule: 'http://localhost:40001/api/v1',
      engine: 'http://localhost:38207',
      's3+sqs': 'http://127.0.0.1:41967',
    });
  });
});
