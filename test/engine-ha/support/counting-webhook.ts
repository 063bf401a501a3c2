/**
 * A customer's WebHook that advances a cursor: call n answers episode `ep-n` (alternating two VODs,
 * 4 s each), so an engine that asked twice for one slot would skip an episode. Every call is recorded
 * with what became of it; `plan(n)` lets a test answer late (the engine times out: slate), or do
 * something first (kill an engine) and then answer or drop the call (its asker is dead).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../../../local/gateway';

export type CallOutcome = 'answered' | 'late' | 'dropped';
export interface WebhookCall {
  n: number;
  id: string;
  outcome: CallOutcome;
}
export type CallPlan =
  | { kind: 'answer'; before?: () => Promise<void> }
  | { kind: 'late'; delayMs: number }
  | { kind: 'drop'; before: () => Promise<void> };

export interface CountingWebhook {
  url: string;
  calls: WebhookCall[];
  close(): Promise<void>;
}

export async function startCountingWebhook(
  vods: readonly string[],
  plan: (n: number) => CallPlan = () => ({ kind: 'answer' }),
): Promise<CountingWebhook> {
  const calls: WebhookCall[] = [];
  const server: Server = createServer(async (_req, res) => {
    const n = calls.length;
    const call: WebhookCall = { n, id: `ep-${n}`, outcome: 'answered' };
    calls.push(call);
    const step = plan(n);
    if (step.kind === 'drop') {
      call.outcome = 'dropped';
      await step.before();
      res.destroy();
      return;
    }
    if (step.kind === 'answer') await step.before?.();
    if (step.kind === 'late') {
      call.outcome = 'late';
      await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    }
    const body = {
      id: call.id,
      title: `Episode ${n}`,
      hlsUrl: vods[n % vods.length],
      desiredDurationMs: 4000,
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/next`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
