/**
 * Whether a process of this machine is running: what a lock or owner file's pid is checked with before
 * it is taken over. A pid can be reused: a caller that would kill or take over on it checks more.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
