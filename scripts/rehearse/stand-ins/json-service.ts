/**
 * A loopback server speaking the AWS JSON 1.1 protocol (`X-Amz-Target: <prefix>.<Action>`, JSON body,
 * errors as `{"__type": ..., "message": ...}`): the shape the SDK's SSM, Secrets Manager and ECS clients
 * send and read. Each stand-in gives its actions; an unknown one is an error the rehearsal sees.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: each action declares the input shape it reads
export type Actions = Record<string, (input: any) => unknown | Promise<unknown>>;

export interface JsonService {
  url: string;
  /** Calls to actions this stand-in does not have: listed in the report, and a failed step. */
  unknown: string[];
  close(): Promise<void>;
}

export async function startJsonService(prefix: string, actions: Actions): Promise<JsonService> {
  const unknown: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    const action = target.startsWith(`${prefix}.`) ? target.slice(prefix.length + 1) : '';
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(body));
    };
    try {
      const handler = actions[action];
      if (!handler) {
        unknown.push(target);
        throw new AwsError('UnknownOperationException', `${target} is not rehearsed`);
      }
      const input = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      send(200, (await handler(input)) ?? {});
    } catch (err) {
      if (err instanceof AwsError) send(err.status, { __type: err.type, message: err.message });
      else send(500, { __type: 'InternalFailure', message: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    unknown,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
