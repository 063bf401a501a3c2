/**
 * The serving process's resident memory, where it can be read: the process given (--pid), or, for a
 * URL on this machine, the process listening on its port (Linux /proc: the listening socket's inode in
 * /proc/net/tcp{,6}, then the process holding it open). Undefined otherwise: a remote server's memory
 * is not for a player to see.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** TCP state 0A is LISTEN in /proc/net/tcp. */
const LISTEN = '0A';

export async function rssBytesOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status?.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/** Inodes of sockets listening on this port, from /proc/net/tcp's text. Pure. */
export function listeningInodes(procNetTcp: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const line of procNetTcp.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10) continue;
    if (cols[1]!.endsWith(`:${hexPort}`) && cols[3] === LISTEN) out.push(cols[9]!);
  }
  return out;
}

async function pidListeningOn(port: number): Promise<number | undefined> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => readFile(f, 'utf8').catch(() => '')),
  );
  const sockets = new Set(
    tables.flatMap((t) => listeningInodes(t, port)).map((inode) => `socket:[${inode}]`),
  );
  if (sockets.size === 0) return undefined;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '');
      if (sockets.has(target)) return Number(entry);
    }
  }
  return undefined;
}

/** Finds the process once (by --pid or the URL's port), then reads its memory on each call. */
export function serverMemory(url: string, pid?: number): () => Promise<number | undefined> {
  let found: Promise<number | undefined> | undefined;
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const locate = () =>
    pid ? Promise.resolve(pid) : LOOPBACK.has(u.hostname) ? pidListeningOn(port) : Promise.resolve(undefined);
  return async () => {
    found ??= locate();
    const p = await found;
    return p === undefined ? undefined : rssBytesOf(p);
  };
}
