/**
 * The rehearsal's steps: each is printed with its duration as it ends, and a failed step fails the whole
 * run. Whatever a step starts registers how to stop it (`cleanup`); `stopAll` runs those in reverse, each
 * bounded, whatever happened before.
 */
export interface StepResult {
  name: string;
  ms: number;
  ok: boolean;
  error?: string;
}

export class Steps {
  readonly results: StepResult[] = [];
  private readonly stops: { what: string; stop: () => Promise<unknown> | unknown }[] = [];

  async run<T>(name: string, body: () => Promise<T>): Promise<T> {
    const started = Date.now();
    process.stdout.write(`▶ ${name}\n`);
    try {
      const value = await body();
      this.record({ name, ms: Date.now() - started, ok: true });
      return value;
    } catch (err) {
      this.record({ name, ms: Date.now() - started, ok: false, error: errorText(err) });
      throw err;
    }
  }

  cleanup(what: string, stop: () => Promise<unknown> | unknown): void {
    this.stops.push({ what, stop });
  }

  async stopAll(timeoutMs = 15_000): Promise<void> {
    for (const { what, stop } of this.stops.splice(0).reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(() => resolve(`${what}: not stopped within ${timeoutMs} ms`), timeoutMs);
      });
      const outcome = await Promise.race([
        Promise.resolve()
          .then(stop)
          .then(
            () => undefined,
            (err) => `${what}: ${errorText(err)}`,
          ),
        timeout,
      ]);
      clearTimeout(timer);
      if (outcome) process.stdout.write(`  ! stopping ${outcome}\n`);
    }
  }

  private record(result: StepResult): void {
    this.results.push(result);
    const mark = result.ok ? '✔' : '✘';
    const tail = result.error ? `: ${result.error}` : '';
    process.stdout.write(`${mark} ${result.name} (${(result.ms / 1000).toFixed(1)} s)${tail}\n`);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
