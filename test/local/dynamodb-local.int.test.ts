/**
 * DynamoDB Local tells us how its bind went, so a port another process holds is never mistaken for
 * ours: the collision is an error a caller can retry on, and any free port is found without races.
 */
import { createServer, type Server } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { PortInUseError } from '../../local/ports';

const started: DynamoDbLocal[] = [];
let squatter: Server | undefined;

afterAll(async () => {
  await Promise.all(started.map((ddb) => ddb.stop()));
  squatter?.close();
});

describe('DynamoDB Local', () => {
  it('reports a port another process holds as PortInUseError, never as started', async () => {
    squatter = createServer();
    await new Promise<void>((resolve) => squatter!.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    await expect(startDynamoDbLocal({ port })).rejects.toThrow(PortInUseError);
  });

  it('starts on a free port of its own and answers there', async () => {
    const ddb = await startDynamoDbLocal();
    started.push(ddb);
    expect(ddb.endpoint).toBe(`http://127.0.0.1:${ddb.port}`);
    const client = new DynamoDBClient({
      endpoint: ddb.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      client.destroy();
    }
  });
});
