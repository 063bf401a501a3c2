/** This process's stdout, line by line: the one logger (core/logger.ts) writes JSON lines there. */
export interface CapturedLog {
  lines: string[];
  /** The JSON lines whose `msg` is this, parsed. */
  entries(msg: string): Record<string, unknown>[];
  restore(): void;
}

/**
 * Captures the logger's lines from now until restore(); `level` sets LOG_LEVEL meanwhile (the engine
 * fixtures silence the logger), and restore() puts the previous level back.
 */
export function captureLogLines(level?: string): CapturedLog {
  const savedLevel = process.env.LOG_LEVEL;
  if (level) process.env.LOG_LEVEL = level;
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
      if (level) process.env.LOG_LEVEL = savedLevel;
    },
  };
}
