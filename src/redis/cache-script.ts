/**
 * The Lua script behind `redisCacheStore`: every operation of the store, each atomic on the
 * Redis server.
 *
 * Three keys per cache key, one hash tag (the token's scope, so one Cluster slot per token).
 * `KEYS[1]`, a hash of generations: field `#` is the scope's start, made (from Redis's clock)
 * when the hash is first used; field `!` counts its invalidations; and each level a key can be
 * invalidated at has its own field: `''` (every entry), `members.` (a group), `members.get:` (a
 * method), set to Redis's clock in microseconds by `invalidate`. An entry's value is its stamp
 * (the start, then the generations of its levels when it was stored) and a newline before the
 * client's text; an entry whose stamp is not the current one is a miss, so `invalidate` is one
 * write however many entries it drops, and a hash that is evicted or lost takes every older
 * entry with it (a new start). The scope's epoch is its start and its count of invalidations: a
 * `set` under an older one stores nothing, so an answer fetched before an invalidation is never
 * stored after it. `KEYS[2]`: the entry, with its TTL (`PX`). `KEYS[3]`: the claim of a process
 * sending the request (its owner), with a TTL (`PX`), so a claim whose process died ends on its own.
 *
 * `ARGV[1]` is the operation, `ARGV[2]` an owner, `ARGV[3]` milliseconds, `ARGV[4]` a value,
 * `ARGV[5]` an epoch and `ARGV[6…]` the key's levels:
 * - `epoch`: the scope's epoch;
 * - `get`: the entry's text, or nil;
 * - `claim owner ms`: `{'hit', text}`; `{'claimed'}` (the claim is the owner's for `ms`); or
 *   `{'wait'}` (another process holds it);
 * - `poll`: `{'hit', text}`, `{'wait'}` while a claim is held, or `{'free'}`;
 * - `set owner ms text epoch`: ends the owner's claim, and stores the entry for `ms` if the
 *   scope's epoch is still `epoch`;
 * - `release owner`: ends the owner's claim;
 * - `invalidate` (one level): a new generation for it, and the next epoch.
 * @module
 */

export const CACHE_SCRIPT = `
local gens, entry, claim = KEYS[1], KEYS[2], KEYS[3]
local op, owner = ARGV[1], ARGV[2]
local function now()
  local clock = redis.call('TIME')
  return clock[1] .. string.format('%06d', clock[2])
end
if op == 'invalidate' then
  redis.call('HINCRBY', gens, '!', 1)
  redis.call('HSET', gens, ARGV[6], now())
  return 1
end
local start = redis.call('HGET', gens, '#')
if not start then
  start = now()
  redis.call('HSET', gens, '#', start)
end
local epoch = start .. ':' .. (redis.call('HGET', gens, '!') or '0')
if op == 'epoch' then return epoch end
local stamp = redis.call('HMGET', gens, unpack(ARGV, 6))
for i, gen in ipairs(stamp) do if not gen then stamp[i] = '0' end end
stamp = start .. ',' .. table.concat(stamp, ',') .. '\\n'
local function stored()
  local text = redis.call('GET', entry)
  if text and string.sub(text, 1, #stamp) == stamp then return string.sub(text, #stamp + 1) end
  return false
end
if op == 'get' then return stored() end
if op == 'claim' or op == 'poll' then
  local text = stored()
  if text then return {'hit', text} end
  if op == 'claim' and redis.call('SET', claim, owner, 'NX', 'PX', ARGV[3]) then return {'claimed'} end
  if redis.call('EXISTS', claim) == 1 then return {'wait'} end
  return {'free'}
end
if owner ~= '' and redis.call('GET', claim) == owner then redis.call('DEL', claim) end
if op == 'set' and ARGV[5] == epoch then
  redis.call('SET', entry, stamp .. ARGV[4], 'PX', ARGV[3])
  return 1
end
return 0
`;
