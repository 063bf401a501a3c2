/**
 * Soak a channel (`npm run soak -- <playback URL> --minutes N [--pid P]`, docs/soak.md): the run is
 * run-soak.ts; this reads the arguments and exits 1 when anything a viewer or RFC 8216 would object to
 * happened (2 on a usage error).
 */
import { CHROMIUM_PATH, chromiumAvailable } from '../../test/support/browser';
import { parseSoakArgs, SoakUsageError } from './args';
import { runSoak } from './run-soak';

async function main(): Promise<number> {
  let args: ReturnType<typeof parseSoakArgs>;
  try {
    args = parseSoakArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof SoakUsageError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  if (!chromiumAvailable()) {
    process.stderr.write(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)\n`);
    return 2;
  }
  return (await runSoak(args)) ? 0 : 1;
}

// The playlist watch may be mid-reload: the verdict is in, nothing else needs to finish.
process.exit(await main());
