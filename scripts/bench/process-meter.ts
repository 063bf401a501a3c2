/**
 * What a server process costs, measured from inside it: CPU over a window (as % of one core, from
 * process.cpuUsage), event-loop delay over the same window (how long a ready callback had to wait),
 * and memory after forcing garbage collection (needs node --expose-gc).
 */

import { readFileSync } from 'node:fs';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

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
  /** V8's own malloc (compiler and GC zones): outside the heap, inside RSS. */
  mallocedBytes: number;
  /** RSS again a second after the GC: V8 returns freed pages to the system from a background thread. */
  rssSettledBytes: number;
  /** Resident memory by kind of mapping (/proc/self/smaps): malloc's [heap], anonymous, files. */
  residentByKind: Record<string, number>;
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

export async function memorySnapshot(): Promise<MemorySnapshot> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: the first pass can leave objects with finalizers (WeakMap entries) for the second.
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  await new Promise((r) => setTimeout(r, 1000));
  return {
    rssBytes: m.rss,
    rssSettledBytes: process.memoryUsage.rss(),
    mallocedBytes: getHeapStatistics().malloced_memory,
    residentByKind: residentByKind(),
    heapUsedBytes: m.heapUsed,
    heapTotalBytes: m.heapTotal,
    externalBytes: m.external,
    gcForced: gc !== undefined,
  };
}

/** Sums Rss per kind of mapping; anonymous mappings by size (V8 pages are 256 KB, malloc arenas 64 MB). */
function residentByKind(): Record<string, number> {
  const out: Record<string, number> = {};
  let kind = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = line.match(/^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/);
    if (head) {
      const size = Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16);
      const name = head[3] ?? '';
      kind = name
        ? name.startsWith('/')
          ? 'file'
          : name
        : size >= 60 << 20
          ? 'anon >= 60 MB'
          : size > 256 << 10
            ? 'anon 256 KB-60 MB'
            : 'anon <= 256 KB';
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) * 1024;
    const lazy = line.match(/^LazyFree:\s+(\d+) kB/);
    if (lazy) out.lazyFree = (out.lazyFree ?? 0) + Number(lazy[1]) * 1024;
  }
  return out;
}
