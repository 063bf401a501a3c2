/** Times the steps of a long command and prints each as it ends, so a slow step shows itself. */
export interface StepTimer {
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
  note(line: string): void;
  totalSeconds(): number;
}

export function createStepTimer(print: (line: string) => void = console.log): StepTimer {
  const started = performance.now();
  return {
    async step(name, run) {
      print(`${name} ...`);
      const start = performance.now();
      const took = () => `${((performance.now() - start) / 1000).toFixed(1)} s`;
      try {
        const result = await run();
        print(`${name}: ${took()}`);
        return result;
      } catch (err) {
        print(`${name}: failed after ${took()}`);
        throw err;
      }
    },
    note: print,
    totalSeconds: () => (performance.now() - started) / 1000,
  };
}
