/** This process's stdout, line by line: the one logger (core/logger.ts) writes JSON lines there. */
export interface CapturedLog {
  lines: string[];
  /** The JSON lines whose `msg` is this, parsed. */
  entries(msg: string): Record<string, unknown>[];
  restore(): void;
}

export function captureLogLines(): CapturedLog {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    lines.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  const parsed = () =>
    lines.flatMap((chunk) =>
      chunk
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    );
  return {
    lines,
    entries: (msg) => parsed().filter((entry) => entry.msg === msg),
    restore: () => {
      process.stdout.write = write;
    },
  };
}
