/**
 * One DynamoDB Local for the whole integration run (vitest globalSetup, vitest.config.ts): its JVM takes
 * seconds to start, tens of seconds on a loaded machine, and most integration files need one. Each file
 * keeps its own tables in it under a prefix of its own (`sharedDynamoDb()`), so no file sees another's
 * data. A suite that stops or restarts DynamoDB on purpose starts its own instead.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { SharedDynamoDb } from '../../../local/cloud';
import { startDynamoDbLocal } from '../../../local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's DynamoDB Local; absent when the run did not start one (the unit project). */
    dynamodbLocalEndpoint?: string;
  }
}

/** globalSetup: starts the run's DynamoDB Local and hands its endpoint to every test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const ddb = await startDynamoDbLocal();
  project.provide('dynamodbLocalEndpoint', ddb.endpoint);
  return () => ddb.stop();
}

/**
 * This file's share of the run's DynamoDB Local: its endpoint and a prefix no other file uses (one per
 * call, so two clouds in one file stay apart too). Undefined outside a run that started one.
 */
export function sharedDynamoDb(): SharedDynamoDb | undefined {
  const endpoint = inject('dynamodbLocalEndpoint');
  return endpoint ? { endpoint, tablePrefix: `t${randomUUID().slice(0, 8)}-` } : undefined;
}
