/** Both soaks' command lines: parsed, and Chromium there, or the reason on stderr and exit code 2. */
import { CHROMIUM_PATH, chromiumAvailable } from '../../test/support/browser';
import { SoakUsageError } from './args';

export function argsOrUsageExit<T>(parse: (argv: readonly string[]) => T): T | 2 {
  let args: T;
  try {
    args = parse(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof SoakUsageError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  if (!chromiumAvailable()) {
    process.stderr.write(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)\n`);
    return 2;
  }
  return args;
}
