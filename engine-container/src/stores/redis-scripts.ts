/**
 * The Redis store's compare-and-set steps as Lua scripts: Redis runs a script atomically, so a check
 * and the write it guards cannot be split by another client's command. KEYS and ARGV are strings.
 */

/**
 * KEYS: log (sorted set, score = seq), last (the last seq). ARGV: expected last seq, seq, item JSON,
 * expiry (Unix ms). Appends only if the last seq is still the expected one (-1: empty log).
 */
export const APPEND = `
local last = redis.call('GET', KEYS[2])
if last == false then last = '-1' end
if last ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PXAT', ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1
`;

/** KEYS: lease. ARGV: owner, ttl ms. Takes a free (or expired: Redis removed it) lease, or extends our own. */
export const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

/** KEYS: lease. ARGV: owner, ttl ms. Extends the lease only while it is still ours. */
export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** KEYS: lease. ARGV: owner. Deletes the lease only if it is ours (compare-and-delete). */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;
