/** fauxqs (S3 + SQS in process), bound to 127.0.0.1 only. Its state is in memory. */
import type { AddressInfo } from 'node:net';
import { buildApp } from 'fauxqs';

export interface Fauxqs {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** Port 0 (the default) lets the OS pick; the port it got is in the result. */
export async function startFauxqs(port = 0): Promise<Fauxqs> {
  const app = buildApp({ logger: false, host: 'localhost' });
  await app.listen({ port, host: '127.0.0.1' });
  const bound = (app.server.address() as AddressInfo).port;
  return { endpoint: `http://127.0.0.1:${bound}`, port: bound, stop: async () => void (await app.close()) };
}
