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

/**
 * KEYS: log. ARGV: keep-from seq, horizon (Unix ms), most items kept, most removed by this call.
 * Removes the oldest items before the keep-from seq that ended by the horizon, or any of them while the
 * log holds more than its most items: start-over reads the log back to the horizon. Items are decoded
 * one at a time from the oldest, so a call costs what it removes.
 */
export const TRIM = `
local removed = 0
local cap = tonumber(ARGV[3])
while removed < tonumber(ARGV[4]) do
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if #first == 0 or tonumber(first[2]) >= tonumber(ARGV[1]) then break end
  if redis.call('ZCARD', KEYS[1]) <= cap then
    local item = cjson.decode(first[1])
    if item.startMs + item.durationMs > tonumber(ARGV[2]) then break end
  end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0)
  removed = removed + 1
end
return removed
`;
