/**
 * V8's sampling heap profiler inside the engine process (node:inspector): started before the channels
 * are created, written after the load. A sample is an allocation still live when written, with its stack:
 * what holds the memory, by the code that allocated it (open the .heapprofile in Chrome DevTools).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

export async function startHeapSampling(): Promise<void> {
  session = new Session();
  session.connect();
  // BENCH_HEAP_SAMPLING=allocations: every allocation sampled, collected or not (what the load allocates).
  const all = process.env.BENCH_HEAP_SAMPLING === 'allocations';
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: all ? 4096 : 32 * 1024,
    includeObjectsCollectedByMajorGC: all,
    includeObjectsCollectedByMinorGC: all,
  });
}

export async function writeHeapSampling(file: string): Promise<void> {
  if (!session) return;
  (globalThis as { gc?: () => void }).gc?.();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  await writeFile(file, JSON.stringify(profile));
  session.disconnect();
  session = undefined;
}
