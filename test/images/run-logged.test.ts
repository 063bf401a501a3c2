/** A failed build says why: the end of its output in the error, all of it in the log file. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLogged, ToolFailedError } from '../../scripts/images/run-logged';

describe('runLogged', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'run-logged-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('logs both output streams of a tool that succeeds', async () => {
    const logFile = join(dir, 'ok.log');
    await runLogged('sh', ['-c', 'echo to-stdout; echo to-stderr >&2'], { logFile });
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain('to-stdout');
    expect(log).toContain('to-stderr');
  });

  it('fails with the exit status and the end of the output, and the whole output logged', async () => {
    const logFile = join(dir, 'failed.log');
    const script = 'for i in $(seq 1 400); do echo "line $i"; done; echo "the reason" >&2; exit 3';
    const failure = await runLogged('sh', ['-c', script], { logFile }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ToolFailedError);
    const message = (failure as Error).message;
    expect(message).toContain('exit 3');
    expect(message).toContain('the reason');
    expect(message).toContain(logFile);
    expect(message).not.toContain('line 1\n');
    expect(await readFile(logFile, 'utf8')).toContain('line 1\n');
  });

  it('fails saying so when the tool cannot be run', async () => {
    const failure = runLogged('no-such-tool-here', [], { logFile: join(dir, 'missing.log') });
    await expect(failure).rejects.toThrow(/cannot run no-such-tool-here/);
  });
});
