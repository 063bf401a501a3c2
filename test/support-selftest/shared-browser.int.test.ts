/**
 * The run's one Chromium (test/support/run/shared-browser.ts): every browser a file opens is a
 * connection to it, and each connection's pages share nothing with another's; when it does not answer,
 * a play launches its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { candidatePort } from '../../local/ports';
import { chromiumAvailable, chromiumSkipReason, openChromium } from '../support/browser';

/** The command names of this process's children (Linux /proc). */
const childCommands = (): string[] =>
  readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
    .split(' ')
    .filter(Boolean)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        return ''; // gone meanwhile
      }
    });

describe(`a browser opened in a test run${chromiumSkipReason()}`, () => {
  it.skipIf(!chromiumAvailable())(
    'opens a page in the run’s Chromium, launching none of its own',
    async () => {
      expect(process.env.CHROMIUM_ENDPOINT).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
      const browser = await openChromium();
      try {
        await (await browser.newPage()).setContent('<p>blank</p>');
        // A launched Chromium would be a child of this worker (Playwright spawns it).
        expect(childCommands()).not.toContain('chromium');
      } finally {
        await browser.close();
      }
    },
  );

  it.skipIf(!chromiumAvailable())(
    'shares no cookie or storage with another browser opened at the same time',
    async () => {
      const [first, second] = await Promise.all([openChromium(), openChromium()]);
      try {
        const page = async (browser: typeof first) => {
          const p = await browser.newPage();
          await p.setContent('<p>blank</p>');
          return p;
        };
        const [a, b] = await Promise.all([page(first), page(second)]);
        await a.context().addCookies([{ name: 'seen', value: 'a', url: 'http://127.0.0.1/' }]);
        expect(await b.context().cookies('http://127.0.0.1/')).toEqual([]);
        expect(await a.context().cookies('http://127.0.0.1/')).toHaveLength(1);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    },
  );

  it.skipIf(!chromiumAvailable())(
    'launches a Chromium of its own when the run’s Chromium does not answer',
    async () => {
      // A port the system just handed out and took back: nothing listens on it.
      const browser = await openChromium(`ws://127.0.0.1:${await candidatePort()}/gone`);
      try {
        await (await browser.newPage()).setContent('<p>blank</p>');
        expect(childCommands()).toContain('chromium');
      } finally {
        await browser.close();
      }
    },
  );
});
