/**
 * Request/response over a forked child's IPC channel. The child announces itself with one `ready`
 * message, then answers each `{id, cmd, args}` request exactly once with `{id, ok, result | error}`.
 */
import { type ChildProcess, fork } from 'node:child_process';

interface Request {
  id: number;
  cmd: string;
  args?: unknown;
}
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
interface Ready {
  ready: true;
  info: unknown;
}

export type Handlers = Record<string, (args: never) => unknown>;

/** Child side: answers requests with the named handler; call once, then `announceReady`. */
export function serveRequests(handlers: Handlers): void {
  // A parent that dies (or is interrupted) takes its children with it: no orphaned servers.
  process.once('disconnect', () => process.exit(0));
  process.on('message', (message: Request) => {
    const handler = handlers[message.cmd] as ((args: unknown) => unknown) | undefined;
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${message.cmd}`);
        return handler(message.args);
      })
      .then(
        (result) => process.send?.({ id: message.id, ok: true, result } satisfies Reply),
        (err: unknown) =>
          process.send?.({
            id: message.id,
            ok: false,
            error: String((err as Error)?.stack ?? err),
          } satisfies Reply),
      );
  });
}

export function announceReady(info: unknown): void {
  process.send?.({ ready: true, info } satisfies Ready);
}

export interface Child<Info> {
  info: Info;
  pid: number;
  call<T>(cmd: string, args?: unknown): Promise<T>;
  /** Waits up to graceMs for the child to exit by itself, then ends it (SIGTERM to its own pid). */
  kill(graceMs?: number): Promise<void>;
}

export interface ForkOptions {
  /** Extra node flags (--expose-gc, --cpu-prof...). */
  nodeFlags?: string[];
  env?: Record<string, string>;
  /** Where the child's stdout goes (its log lines): our stderr keeps the report on stdout clean. */
  stdout?: NodeJS.WritableStream;
}

/** Forks a module (TypeScript through tsx, a bundled .mjs with plain node) and waits for its ready message. */
export async function forkTs<Info>(
  modulePath: string,
  args: string[],
  options: ForkOptions = {},
): Promise<Child<Info>> {
  const child: ChildProcess = fork(modulePath, args, {
    execArgv: [...(options.nodeFlags ?? []), ...(modulePath.endsWith('.ts') ? ['--import', 'tsx'] : [])],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.stdout?.pipe(options.stdout ?? process.stderr, { end: false });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<Info>((resolve, reject) => {
    child.on('message', (m: Reply | Ready) => {
      if ('ready' in m) return resolve(m.info as Info);
      const waiter = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) waiter?.resolve(m.result);
      else waiter?.reject(new Error(`${modulePath}: ${m.error}`));
    });
    child.once('exit', (code, signal) => {
      const err = new Error(`${modulePath} exited (${signal ?? code})`);
      reject(err);
      for (const waiter of pending.values()) waiter.reject(err);
      pending.clear();
    });
  });
  return {
    info,
    pid: child.pid!,
    call: <T>(cmd: string, args?: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, args } satisfies Request);
      }),
    kill: async (graceMs = 0) => {
      // A child told to stop may still be writing (a --cpu-prof profile is written at exit).
      if (graceMs > 0) await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
