/**
 * Engine processes for the failover tests (engine-entry.ts under tsx): start on a chosen port, kill
 * with SIGKILL (no clean-up, as a crashed task), restart on the same port, stop with SIGTERM. Keeps
 * each process's last output for a failure message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./engine-entry.ts', import.meta.url));

export interface EngineProcess {
  port: number;
  url: string;
  pid: number;
  /** The engine's id in writer leases (host:pid:suffix). */
  instanceId: string;
  output(): string;
}

export class EngineProcesses {
  private readonly children = new Map<number, { child: ChildProcess; proc: EngineProcess }>();

  constructor(private readonly env: Record<string, string>) {
    process.once('exit', () => {
      for (const { child } of this.children.values()) child.kill('SIGKILL');
    });
  }

  async start(port?: number): Promise<EngineProcess> {
    // Port 0: the engine listens where the OS says and prints the port (a restart reuses it).
    const wanted = port ?? 0;
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      env: { ...process.env, ...this.env, HA_PORT: String(wanted), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const { chosen, instanceId } = await new Promise<{ chosen: number; instanceId: string }>(
      (resolve, reject) => {
        const onData = () => {
          const m = /listening (\d+) (\S+)/.exec(output);
          if (m) {
            child.stdout!.off('data', onData);
            resolve({ chosen: Number(m[1]), instanceId: m[2]! });
          }
        };
        child.stdout!.on('data', onData);
        child.once('exit', (code) =>
          reject(new Error(`engine exited with ${code} before listening: ${output}`)),
        );
      },
    );
    const proc: EngineProcess = {
      port: chosen,
      url: `http://127.0.0.1:${chosen}`,
      pid: child.pid!,
      instanceId,
      output: () => output,
    };
    this.children.set(chosen, { child, proc });
    return proc;
  }

  /** SIGKILL: the process gets no chance to release its lease or finish anything. */
  async kill(port: number): Promise<void> {
    const entry = this.children.get(port);
    if (!entry) return;
    this.children.delete(port);
    await this.signal(entry.child, 'SIGKILL');
  }

  async stopAll(): Promise<void> {
    const all = [...this.children.values()];
    this.children.clear();
    await Promise.all(all.map(({ child }) => this.signal(child, 'SIGTERM')));
  }

  byPid(pid: number): EngineProcess | undefined {
    return [...this.children.values()].find((e) => e.proc.pid === pid)?.proc;
  }

  get running(): EngineProcess[] {
    return [...this.children.values()].map((e) => e.proc);
  }

  private async signal(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
