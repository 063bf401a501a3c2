/**
 * How dear this machine makes a read of memory untouched for a while (`npm run bench:cold-reads`, or
 * `tsx scripts/bench-cold-reads.ts [--groups 10000] [--every-s 40] [--seconds 20] [--json]`): the
 * host's share of an idle engine's CPU (scripts/bench/cold-reads.ts says how it is measured).
 * bench:engine runs it before its engines start and prints it beside the idle figure; run it alone to
 * tell the engine's change from the host's between runs. --json prints the figures alone, as JSON.
 */
import { parseArgs } from 'node:util';
import { describeColdReads, measureColdReads } from './bench/cold-reads';
import { machineLoad } from './bench/pin';

const { values: opts } = parseArgs({
  options: {
    groups: { type: 'string', default: '10000' },
    'every-s': { type: 'string', default: '40' },
    seconds: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});
const options = {
  groups: Number(opts.groups),
  everyS: Number(opts['every-s']),
  seconds: Number(opts.seconds),
};
for (const [name, value] of Object.entries(options))
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name}: a positive number, got ${value}`);
if (!opts.json)
  console.log(
    `load average ${machineLoad()}; ${options.groups} groups of 200 objects, each walked every ${options.everyS} s; ` +
      `one cycle untimed, then ${options.seconds} s timed`,
  );
const result = await measureColdReads(options);
if (opts.json) console.log(JSON.stringify(result));
else console.log(`${describeColdReads(result)}; load average ${machineLoad()}`);
