/**
 * What a server process costs, measured from inside it: CPU over a window (as % of one core, from
 * process.cpuUsage), event-loop delay over the same window (how long a ready callback had to wait),
 * and memory after forcing garbage collection (needs node --expose-gc).
 */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

export interface CpuWindow {
  wallMs: number;
  /** User + system CPU time over the window, % of one core. */
  cpuPct: number;
  /** Event-loop delay over the window (10 ms sampling resolution). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

export interface MemorySnapshot {
  rssBytes: number;
  heapUsedBytes: number;
  /** The V8 heap as committed (used plus free pages kept): RSS that garbage collection did not return. */
  heapTotalBytes: number;
  /** Buffers and other memory outside the V8 heap. */
  externalBytes: number;
  gcForced: boolean;
}

export class CpuMeter {
  private startedAt = 0;
  private startCpu: NodeJS.CpuUsage | undefined;
  private histogram: IntervalHistogram | undefined;

  start(): void {
    this.histogram?.disable();
    this.histogram = monitorEventLoopDelay({ resolution: 10 });
    this.histogram.enable();
    this.startedAt = performance.now();
    this.startCpu = process.cpuUsage();
  }

  stop(): CpuWindow {
    const cpu = process.cpuUsage(this.startCpu);
    const wallMs = performance.now() - this.startedAt;
    const h = this.histogram;
    h?.disable();
    this.histogram = undefined;
    return {
      wallMs,
      cpuPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
      loopDelayP99Ms: h ? h.percentile(99) / 1e6 : Number.NaN,
      loopDelayMaxMs: h ? h.max / 1e6 : Number.NaN,
    };
  }
}

export function memorySnapshot(): MemorySnapshot {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: the first pass can leave objects with finalizers (WeakMap entries) for the second.
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    rssBytes: m.rss,
    heapUsedBytes: m.heapUsed,
    heapTotalBytes: m.heapTotal,
    externalBytes: m.external,
    gcForced: gc !== undefined,
  };
}
