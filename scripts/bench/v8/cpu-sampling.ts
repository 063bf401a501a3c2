/**
 * V8's CPU profiler inside the engine process (node:inspector), started and written on command: a
 * profile of a window chosen after start-up (the steady state), which `--cpu-prof` cannot give, as it
 * profiles the whole life of the process. Open the .cpuprofile in Chrome DevTools.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

export async function startCpuSampling(): Promise<void> {
  if (session) return; // one profile at a time: a second start keeps the first
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}

export async function writeCpuSampling(file: string): Promise<void> {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  await writeFile(file, JSON.stringify(profile));
  session.disconnect();
  session = undefined;
}
