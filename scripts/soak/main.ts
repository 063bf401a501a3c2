/**
 * Soak a channel (`npm run soak -- <playback URL> --minutes N [--pid P]`, docs/soak.md): the run is
 * run-soak.ts; this reads the arguments and exits 1 when anything a viewer or RFC 8216 would object to
 * happened (2 on a usage error).
 */
import { parseSoakArgs } from './args';
import { argsOrUsageExit } from './cli-args';
import { runSoak } from './run-soak';

async function main(): Promise<number> {
  const args = argsOrUsageExit(parseSoakArgs);
  if (args === 2) return 2;
  return (await runSoak(args)) ? 0 : 1;
}

// The playlist watch may be mid-reload: the verdict is in, nothing else needs to finish.
process.exit(await main());
