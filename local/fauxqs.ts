/** fauxqs (S3 + SQS in process), bound to 127.0.0.1 only. Its state is in memory. */
import { buildApp } from 'fauxqs';

export interface Fauxqs {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startFauxqs(port: number): Promise<Fauxqs> {
  const app = buildApp({ logger: false, host: 'localhost' });
  await app.listen({ port, host: '127.0.0.1' });
  return { endpoint: `http://127.0.0.1:${port}`, stop: async () => void (await app.close()) };
}
