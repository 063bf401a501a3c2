/**
 * How each refusal of the channel service reads over HTTP: the status, code and message of every
 * outcome the service and its stores answer instead of a result. Only routes.ts uses these.
 */
import {
  badRequest,
  conflict,
  forbidden,
  type HttpError,
  notFound,
  tooManyRequests,
} from '../../core/errors';
import type { CreateChannelOutcome, UpdateChannelOutcome } from './channel-service';
import type { TrialTokenRefusal } from './trial-token';

type CreateRefusal = Extract<CreateChannelOutcome, { ok: false }>;

/** A refused create: 409 for a name taken anywhere in the deployment, 403 at the token's limit. */
export function createRefused(
  refusal: CreateRefusal,
  request: { name: string; maxChannels: number },
): HttpError {
  switch (refusal.reason) {
    case 'name_taken':
      return conflict(`a channel named "${request.name}" already exists`);
    case 'limit_reached':
      return forbidden('channel_limit', `this token allows at most ${request.maxChannels} channel(s)`);
  }
}

/** 404, also for another tenant's channel: its existence is not the caller's business. */
export const noSuchChannel = (id: string): HttpError => notFound(`no channel ${id}`);

/** A refused change: 404 as for a read, 400 for a preroll on a WebHook channel (its answers carry their own). */
export function updateRefused(refusal: Extract<UpdateChannelOutcome, { ok: false }>, id: string): HttpError {
  switch (refusal.reason) {
    case 'no_channel':
      return noSuchChannel(id);
    case 'preroll_on_webhook':
      return badRequest('opts.preroll: is only allowed on Loop channels', 'opts.preroll');
  }
}

export function trialTokenRefused(refusal: TrialTokenRefusal): HttpError {
  switch (refusal.reason) {
    case 'rate_limited':
      return tooManyRequests(
        `too many requests for ${refusal.scope}; try again later`,
        refusal.retryAfterSeconds,
      );
    case 'test_stage_only':
      return badRequest('trial tokens exist in the test environment only');
  }
}
