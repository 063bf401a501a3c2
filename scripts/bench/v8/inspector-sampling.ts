/**
 * V8's samplers inside the engine process (node:inspector), started and written on command, so a
 * window chosen after start-up (the steady state, or a load) is profiled: `--cpu-prof` and
 * `--heap-prof` cover the whole life of the process. Open the files in Chrome DevTools.
 * - CPU: where the time of the window went (.cpuprofile).
 * - Heap: an allocation still live when written, with its stack: what holds the memory, by the code
 *   that allocated it (.heapprofile). BENCH_HEAP_SAMPLING=allocations samples every allocation,
 *   collected or not (what the window allocates).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/** One session per sampler, so either can run alone or both over the same window. */
const sessions: { cpu?: Session; heap?: Session } = {};

function open(kind: keyof typeof sessions): Session | undefined {
  if (sessions[kind]) return undefined; // one window at a time: a second start keeps the first
  const session = new Session();
  session.connect();
  sessions[kind] = session;
  return session;
}

function close(kind: keyof typeof sessions): void {
  sessions[kind]?.disconnect();
  sessions[kind] = undefined;
}

export async function startCpuSampling(): Promise<void> {
  const session = open('cpu');
  if (!session) return;
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}

export async function writeCpuSampling(file: string): Promise<void> {
  const session = sessions.cpu;
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  await writeFile(file, JSON.stringify(profile));
  close('cpu');
}

export async function startHeapSampling(): Promise<void> {
  const session = open('heap');
  if (!session) return;
  const all = process.env.BENCH_HEAP_SAMPLING === 'allocations';
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: all ? 4096 : 32 * 1024,
    includeObjectsCollectedByMajorGC: all,
    includeObjectsCollectedByMinorGC: all,
  });
}

export async function writeHeapSampling(file: string): Promise<void> {
  const session = sessions.heap;
  if (!session) return;
  (globalThis as { gc?: () => void }).gc?.();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  await writeFile(file, JSON.stringify(profile));
  close('heap');
}
