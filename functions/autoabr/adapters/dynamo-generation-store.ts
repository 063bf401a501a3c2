/**
 * The settings cache's generation in DynamoDB: one item of the jobs table (`id = #settings-cache`, no
 * `status`, so it never shows up as a job).
 */
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GenerationStore } from '../ports/generation-store';

const KEY = { id: '#settings-cache' };

export class DynamoGenerationStore implements GenerationStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async current(): Promise<number> {
    const res = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: KEY, ConsistentRead: true }),
    );
    return typeof res.Item?.generation === 'number' ? res.Item.generation : 0;
  }

  async bump(): Promise<number> {
    const res = await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: KEY,
        UpdateExpression: 'ADD generation :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(res.Attributes?.generation ?? 0);
  }
}
