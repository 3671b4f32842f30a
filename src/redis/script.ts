/**
 * The Lua script behind `redisRateLimitStore`: both operations of the store, each atomic on the
 * Redis server and timed by its clock (`TIME`), never a client's.
 *
 * Two keys per window. `KEYS[1]`, a hash: `remaining` (the budget left), `resetAt` (ms, on
 * Redis's clock), `known` (an answer has shown a limit), `lowest` (the lowest remaining an answer
 * of this window has shown) and `probeUntil` (a client's first request of a new window is out to
 * learn its budget; the others wait for it, polling briefly). `KEYS[2]`, a sorted set of leases:
 * one member per request sent and not yet answered, across every client, scored by when it
 * stops counting (Redis's clock + `ARGV[3]`). Leases past their score are pruned on every call,
 * so a client that dies with requests out (a crash, `kill -9`) holds back the budget only until
 * its leases run out, not for as long as the fleet keeps the window's hash alive.
 *
 * - `spend lease leaseMs`: inside a known window, take one from `remaining` (0: go), or answer
 *   the ms until it resets. With no window known (never, or over): go freely if no answer has
 *   ever shown a limit; else let one request through as the probe, and the others poll until its
 *   answer is recorded. A request that goes adds its lease.
 * - `record lease remaining resetInMs`: first removes the lease (`''`: none, as no member is `''`; a client that only
 *   checks whether Redis is back has no request out, and must not free another's). The first
 *   answer of a new window then sets it, less the leases still out (they may land in it too: at
 *   the start, every client's first request goes before any answer; at a window's end, one sent
 *   just before the reset may reach the service after it). A later answer of the same window
 *   with the lowest remaining yet (`lowest`) was admitted after every answer recorded so far, so
 *   its figure less the leases still out is again the whole truth, and replaces the budget, up
 *   or down: answers recorded out of the order the service admitted them would otherwise leave
 *   the budget short by the ones overtaken. Any other answer only lowers budget and reset (each
 *   a safe bound). Any record ends the probe lease: a window is known again (an answer of the
 *   old window that arrives late may set a short one; its figures are the service's, so they are
 *   safe), and a probe lease left behind would hold the next window's first request for its
 *   whole length. `record lease` alone: a request failed without an answer; the probe lease is
 *   released too.
 * @module
 */

/** How long a probe may stay out before another client's request probes instead (a crashed client). */
const PROBE_LEASE_MS = 2000;
/** How often clients waiting on a probe ask again. */
const PROBE_POLL_MS = 10;
/** Window hashes outlive their window by this much, then Redis drops them. */
const KEEP_MS = 3_600_000;

export const SCRIPT = `
local key, leases = KEYS[1], KEYS[2]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
local state = redis.call('HMGET', key, 'remaining', 'resetAt', 'probeUntil', 'known', 'lowest')
local remaining, resetAt, probeUntil, lowest = tonumber(state[1]), tonumber(state[2]), tonumber(state[3]), tonumber(state[5])
if ARGV[1] == 'spend' then
  if resetAt and now < resetAt then
    if remaining <= 0 then return resetAt - now end
    redis.call('HSET', key, 'remaining', remaining - 1)
  else
    if state[4] then
      if probeUntil and now < probeUntil then return math.min(probeUntil - now, ${PROBE_POLL_MS}) end
      redis.call('HSET', key, 'probeUntil', now + ${PROBE_LEASE_MS})
    end
    redis.call('PEXPIRE', key, ${KEEP_MS})
  end
  redis.call('ZADD', leases, now + ARGV[3], ARGV[2])
  redis.call('PEXPIRE', leases, ARGV[3])
  return 0
end
redis.call('ZREM', leases, ARGV[2])
local out = redis.call('ZCARD', leases)
if ARGV[3] then
  local answered, at = tonumber(ARGV[3]), now + ARGV[4]
  if resetAt and now < resetAt then
    if lowest and answered >= lowest then
      redis.call('HSET', key, 'remaining', math.min(remaining, answered), 'resetAt', math.min(resetAt, at))
    else
      redis.call('HSET', key, 'remaining', math.max(0, answered - out), 'resetAt', math.min(resetAt, at), 'lowest', answered)
    end
  else
    redis.call('HSET', key, 'remaining', math.max(0, answered - out), 'resetAt', at, 'known', '1', 'lowest', answered)
  end
  redis.call('PEXPIRE', key, math.max(at - now, 0) + ${KEEP_MS})
end
redis.call('HDEL', key, 'probeUntil')
return 0
`;
