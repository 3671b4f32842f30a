/**
 * The Lua script behind `redisRateLimitStore`: both operations of the store, each atomic on the
 * Redis server and timed by its clock (`TIME`), never a client's.
 *
 * Four keys per window, one hash tag (one Cluster slot). `KEYS[1]`, a hash: `remaining` (the
 * budget left), `resetAt` (ms, on Redis's clock), `known` (an answer has shown a limit), `lowest`
 * (the lowest remaining an answer of this window has shown), `probeUntil` (the first request of
 * a new window is out to learn its budget; the others wait for it), `unlimited` (answers came
 * without rate-limit headers and none ever showed a limit) and `seq` (the queue's counter).
 * `KEYS[2]`, a sorted set of leases: one member per request sent and not yet answered, across
 * every client, scored by when it stops counting (Redis's clock + `ARGV[3]`); leases past their
 * score are pruned on every call, so a client that dies with requests out (a crash, `kill -9`)
 * holds back the budget only until its leases run out. `KEYS[3]`, the queue: the tickets of the
 * requests told to wait, scored by arrival (`seq`), so they go out first come, first served,
 * whichever process sent them. `KEYS[4]`: by when each waiting ticket must ask again (its wait
 * plus a grace); a ticket that does not (its process died) leaves the queue. A request that gives
 * up waiting says so (its record), and leaves at once.
 *
 * - `spend ticket leaseMs`: a ticket's place is its rank in the queue (or the queue's end, for a
 *   newcomer). Inside a known window it goes if the budget covers every ticket ahead of it and
 *   itself, taking one; waits briefly if the budget covers only those ahead (they are on their
 *   way); else waits until the reset. Only those ahead that ask again within a poll count: one
 *   sleeping until the reset keeps its place for the next window but holds no slot of this one
 *   (a slot that comes back meanwhile would stay unused, everyone behind it polling for its
 *   turn). With no window known (never, or over), the queue's head goes alone as the probe,
 *   unless the service is known not to limit (all go), and the others poll until its answer is
 *   recorded. A ticket that goes leaves the queue and takes a lease; one that waits joins the
 *   queue, if not in it yet.
 * - `record lease (remaining resetInMs | none)`: a lease still in the queue is a request that gave
 *   up waiting (aborted, or refused for its timeout): it leaves the queue, and that is all, so
 *   those behind it go at the reset rather than once its grace runs out. Else the record first
 *   removes the lease (`''`: none; a client that only checks whether Redis is back has no
 *   request out, and must not free another's).
 *   The first answer of a new window then sets it, less the leases still out (they may land in it
 *   too). A later answer of the same window with the lowest remaining yet (`lowest`) was admitted
 *   after every answer recorded so far, so its figure less the leases still out is again the
 *   whole truth, and replaces the budget, up or down; any other answer only lowers budget and
 *   reset (each a safe bound). Each time the budget is set less the leases out, those leases are
 *   marked (`m:<lease>` = the hash's `gen`): one whose answer then shows a higher remaining was
 *   already counted in that figure (it reached the service first), so it gives its slot back;
 *   without that, answers recorded out of order lost a slot of the window. So that a slot given
 *   back is one the budget really had, the budget is kept below 0 when the leases out exceed the
 *   answer's figure (`remaining` < 0: nothing goes). `none`, an answer without rate-limit
 *   headers, marks the service as not limiting while no answer has ever shown a limit. Any record
 *   of a request, or with a window, ends the probe lease; a check that knows no window (no lease,
 *   no answer) leaves another client's probe out.
 * @module
 */

/** How long a probe may stay out before the queue's next request probes instead (a crashed client). */
const PROBE_LEASE_MS = 2000;
/** How often a waiting request asks again while a probe is out, or while those ahead take their turn. */
const POLL_MS = 10;
/** How late a waiting request may ask again before it loses its place. */
const GRACE_MS = 1000;
/** Window hashes outlive their window by this much, then Redis drops them. */
const KEEP_MS = 3_600_000;

// Built in a call marked pure: a template that interpolates names is kept by bundlers even when
// unused, and a bot that imports only another export of the entry would carry the whole script.
export const SCRIPT = /* @__PURE__ */ (() => `
local key, leases, queue, waiting = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
local state = redis.call('HMGET', key, 'remaining', 'resetAt', 'probeUntil', 'known', 'lowest', 'unlimited')
local remaining, resetAt, probeUntil, lowest = tonumber(state[1]), tonumber(state[2]), tonumber(state[3]), tonumber(state[5])
if ARGV[1] == 'spend' then
  local ticket = ARGV[2]
  local gone = redis.call('ZRANGEBYSCORE', waiting, '-inf', now)
  for _, stale in ipairs(gone) do redis.call('ZREM', queue, stale) redis.call('ZREM', waiting, stale) end
  local rank = redis.call('ZRANK', queue, ticket) or redis.call('ZCARD', queue)
  local wait = 0
  if resetAt and now < resetAt then
    local awake = 0
    if rank > 0 then
      for _, other in ipairs(redis.call('ZRANGE', queue, 0, rank - 1)) do
        local asks = tonumber(redis.call('ZSCORE', waiting, other))
        if asks and asks <= now + ${POLL_MS} + ${GRACE_MS} then awake = awake + 1 end
      end
    end
    if remaining > awake then redis.call('HSET', key, 'remaining', remaining - 1)
    elseif remaining > 0 then wait = ${POLL_MS}
    else wait = resetAt - now end
  elseif not state[6] then
    if probeUntil and now < probeUntil then wait = math.min(probeUntil - now, ${POLL_MS})
    elseif rank > 0 then wait = ${POLL_MS}
    else redis.call('HSET', key, 'probeUntil', now + ${PROBE_LEASE_MS}) end
  end
  redis.call('PEXPIRE', key, math.max((resetAt or now) - now, 0) + ${KEEP_MS})
  if wait > 0 then
    if not redis.call('ZSCORE', queue, ticket) then redis.call('ZADD', queue, redis.call('HINCRBY', key, 'seq', 1), ticket) end
    redis.call('ZADD', waiting, now + wait + ${GRACE_MS}, ticket)
    redis.call('PEXPIRE', queue, ${KEEP_MS})
    redis.call('PEXPIRE', waiting, ${KEEP_MS})
    return wait
  end
  redis.call('ZREM', queue, ticket)
  redis.call('ZREM', waiting, ticket)
  redis.call('ZADD', leases, now + ARGV[3], ticket)
  redis.call('PEXPIRE', leases, ARGV[3])
  return 0
end
if redis.call('ZREM', queue, ARGV[2]) == 1 then redis.call('ZREM', waiting, ARGV[2]) return 0 end
redis.call('ZREM', leases, ARGV[2])
local out = redis.call('ZCARD', leases)
local counted = ARGV[2] ~= '' and redis.call('HGET', key, 'm:' .. ARGV[2]) == redis.call('HGET', key, 'gen')
if ARGV[2] ~= '' then redis.call('HDEL', key, 'm:' .. ARGV[2]) end
local function markOut()
  local gen = redis.call('HINCRBY', key, 'gen', 1)
  for _, lease in ipairs(redis.call('ZRANGE', leases, 0, -1)) do redis.call('HSET', key, 'm:' .. lease, gen) end
end
if ARGV[3] == 'none' then
  if not state[4] then redis.call('HSET', key, 'unlimited', '1') end
elseif ARGV[3] then
  local answered, at = tonumber(ARGV[3]), now + ARGV[4]
  if resetAt and now < resetAt then
    if lowest and answered >= lowest then
      local back = counted and 1 or 0
      redis.call('HSET', key, 'remaining', math.min(remaining + back, answered), 'resetAt', math.min(resetAt, at))
    else
      redis.call('HSET', key, 'remaining', answered - out, 'resetAt', math.min(resetAt, at), 'lowest', answered)
      markOut()
    end
  else
    redis.call('HSET', key, 'remaining', answered - out, 'resetAt', at, 'known', '1', 'lowest', answered)
    markOut()
  end
  redis.call('HDEL', key, 'unlimited')
  redis.call('PEXPIRE', key, math.max(at - now, 0) + ${KEEP_MS})
end
if ARGV[2] ~= '' or ARGV[3] then redis.call('HDEL', key, 'probeUntil') end
return 0
`)();
