/**
 * The keys a page of a schedule list may continue after: a cursor (core/paging.ts) is checked against
 * these, so it can only point into the caller's own partition and only at a key DynamoDB accepts.
 */
import { z } from 'zod';
import { channelKey, SCHEDULE_ID } from '../model';

/** Channels and auto-schedulers: one partition per tenant, sorted by id. */
export const TENANT_ID_KEY = ['tenant', 'id'] as const;
export const tenantIdPageKey = (tenant: string) =>
  z.object({ tenant: z.literal(tenant), id: z.string().regex(SCHEDULE_ID) }).strict();

/** Every tenant's channels (a Scan): any tenant's key. */
export const anyTenantIdPageKey = z
  .object({ tenant: z.string().min(1).max(255), id: z.string().regex(SCHEDULE_ID) })
  .strict();

/** Entries: one partition per channel, sorted by end_time; a query of [from, to) starts after `from`. */
export const ENTRY_KEY = ['channelKey', 'end_time'] as const;
export const entryPageKey = (tenant: string, channelId: string, fromMs: number) =>
  z
    .object({
      channelKey: z.literal(channelKey(tenant, channelId)),
      end_time: z.number().int().gt(fromMs).lte(Number.MAX_SAFE_INTEGER),
    })
    .strict();
