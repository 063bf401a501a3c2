/** How each refusal of the channel service reads over HTTP: status, `{message, code}` and headers. */
import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../core/http';
import { createRefused, noSuchChannel, trialTokenRefused } from '../../functions/channel/refusals';

const wire = (err: unknown) => {
  const res = toErrorResponse(err);
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(String(res.body)) };
};

describe('channel refusals over HTTP', () => {
  it('answers a taken name with 409 conflict naming the channel', () => {
    const res = wire(createRefused({ ok: false, reason: 'name_taken' }, { name: 'news', maxChannels: 3 }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'conflict', message: 'a channel named "news" already exists' });
  });

  it("answers a reached channel limit with 403 channel_limit naming the token's limit", () => {
    const res = wire(createRefused({ ok: false, reason: 'limit_reached' }, { name: 'news', maxChannels: 3 }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'channel_limit', message: 'this token allows at most 3 channel(s)' });
  });

  it('answers an unknown channel with 404 not_found', () => {
    const res = wire(noSuchChannel('t1-news'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'no channel t1-news' });
  });

  it('answers a rate-limited token request with 429 rate_limited and Retry-After', () => {
    const res = wire(
      trialTokenRefused({ ok: false, reason: 'rate_limited', scope: 'token-email', retryAfterSeconds: 30 }),
    );
    expect(res.status).toBe(429);
    expect(res.headers?.['retry-after']).toBe('30');
    expect(res.body).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30 });
  });

  it('answers a trial token request outside the test stage with 400 bad_request', () => {
    const res = wire(trialTokenRefused({ ok: false, reason: 'test_stage_only' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request' });
  });
});
