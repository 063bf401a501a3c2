/**
 * A port for the engine container, whose own port is part of its configuration (`port`): one the OS
 * called free a moment ago. The container binds it on the host network; a collision fails its start,
 * which the rehearsal reports.
 */
import { createServer } from 'node:net';

export function candidatePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
