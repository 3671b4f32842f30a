/**
 * The Lua script behind `redisFleet`: every step a fleet takes in Redis, each atomic on the
 * server and timed by its clock (`TIME`).
 *
 * Six keys per list, one hash tag (one Cluster slot): `KEYS[1]` the lease (a string: the
 * token of the process that polls, set `NX PX`); `KEYS[2]` the list's state (a hash: `cursor`,
 * the watch cursor after the last item published, and `n`, how many were); `KEYS[3]` the
 * stream of items (fields `n`, `item` and, on the last entry of each batch, `cursor`; an entry
 * of a cursor alone marks where a poller started), trimmed
 * `MAXLEN ~`, with the consumer group `fleet` of the `'once'` watchers; `KEYS[4]` those
 * watchers' liveness (a hash: consumer → until when, in ms of Redis's clock); `KEYS[5]` the
 * positions of named `'every'` watchers (a hash: consumer → JSON `{ id, n, cursor }`);
 * `KEYS[6]` who holds each name (a hash: `<delivery>:<consumer>` → `<owner> <until when>`).
 * The list's keys live a week past the last step that keeps them.
 *
 * Every step starts `op delivery consumer owner aliveMs`: `owner` is the token under which this
 * watcher holds its name (`''`: it holds none, unnamed or not yet claimed). A step with an owner
 * first claims the name for `aliveMs` (takes it when free or lapsed, renews it when its own);
 * when another owner holds it, unlapsed, the step does nothing and answers `{ 'taken', holder }`
 * (`holder`: the owner and until when, changing with each renewal), but a `'join'` of
 * `'once'` marks the name alive, so that no other watcher takes the dead holder's unfinished item
 * while its successor waits for the name, and a `'leave'` still gives the lease up. The
 * steps' own arguments follow:
 *
 * - `tick held next leaseMs anew`: renews the lease if `held`
 *   still holds it, or takes it as `next` if nobody does (or if `held` does and `anew` is `1`:
 *   a holder about to poll again changes its token, so that what its previous polling still
 *   has on the way is fenced out); answers `{ holder, cursor }`: the token this process holds
 *   (`''`: none) and, when it holds one, the list's cursor. The holder keeps the
 *   list's keys alive. A `'once'` watcher marks itself alive `aliveMs` and removes
 *   consumers dead past it with nothing pending (a process that died idle).
 * - `publish token maxLength cursor item…`: adds the items, and the cursor after them,
 *   fenced: only while `token` holds the lease (a poller paused past its lease publishes
 *   nothing). Answers the new `n`, or -1 when fenced out. Without items, it adds the cursor
 *   alone, an entry without `item` (a poller's starting point: a watcher that joined before
 *   learns its position from it).
 * - `join`: where a watcher starts: `{ lastId, n, cursor, saved, first }`, the stream's newest
 *   id with the state at that moment, a named `'every'` watcher's saved position, and the
 *   stream's first entry (a new list's starting point, for a watcher that started before it).
 *   A `'once'` watcher creates the group at the stream's end.
 * - `every after count saved`: saves a named watcher's position (if given), then
 *   `{ n, entry… }`: the state's `n` and up to `count` entries after the id `after`, each
 *   `{ id, n, item, cursor }`.
 * - `once ack scan`: acknowledges `ack` (the item handed before), then hands
 *   this consumer one entry: its own pending one (a restart of the same name), else one whose
 *   consumer is dead (not alive), else a new one; `{ lastId, entry, cursor }`: the entry with its
 *   cursor, or the latest one within `scan` entries before it; with no entry, the list's cursor
 *   (every item published has been handed out). A group lost with Redis's data is made
 *   again from the stream's start (its entries are all new since).
 * - `leave token ack saved`: gives the lease up if `token` holds it; then, unless another owner
 *   holds the name, frees it, a `'once'` watcher acknowledges `ack`, hands back what is still
 *   pending (made idle, its consumer no longer alive: the next watcher to ask takes it) and, with
 *   nothing pending, leaves the group; a named `'every'` watcher saves its position.
 * @module
 */

export const FLEET_SCRIPT = `
local lease, state, stream, alive, positions, names = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local group, week = 'fleet', 604800000
local op, delivery, me, owner, aliveMs = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local clock = redis.call('TIME')
local t = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function keep()
  for _, key in ipairs({state, stream, alive, positions, names}) do redis.call('PEXPIRE', key, week) end
end
local function entry(e)
  if not e or not e[2] then return false end
  local f = {}
  for i = 1, #e[2], 2 do f[e[2][i]] = e[2][i + 1] end
  return {e[1], f.n, f.item or false, f.cursor or false}
end
local function lastId()
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
  return last[1] and last[1][1] or '0-0'
end
local function pendingOf(consumer, count)
  local pending = redis.pcall('XPENDING', stream, group, '-', '+', count, consumer)
  return pending.err and {} or pending
end
local function forget(consumer)
  redis.pcall('XGROUP', 'DELCONSUMER', stream, group, consumer)
  redis.call('HDEL', alive, consumer)
  redis.call('HDEL', names, 'once:' .. consumer)
end
local function live()
  redis.call('HSET', alive, me, t + aliveMs)
end

local name, mine = delivery .. ':' .. me, true
if owner ~= '' then
  local holder = redis.call('HGET', names, name)
  local by, till = string.match(holder or '', '(%S+) (%d+)')
  if by and by ~= owner and tonumber(till) >= t then
    if op == 'join' and delivery == 'once' then live() end
    if op ~= 'leave' then return {'taken', holder} end
    mine = false
  else
    redis.call('HSET', names, name, owner .. ' ' .. (t + aliveMs))
    redis.call('PEXPIRE', names, week)
  end
end

if op == 'tick' then
  local held, token = redis.call('GET', lease), ''
  if ARGV[6] ~= '' and held == ARGV[6] and ARGV[9] ~= '1' then
    redis.call('PEXPIRE', lease, ARGV[8])
    token = held
  elseif not held or held == ARGV[6] then
    redis.call('SET', lease, ARGV[7], 'PX', ARGV[8])
    token = ARGV[7]
  end
  if token ~= '' then keep() end
  if delivery == 'once' then
    live()
    redis.call('PEXPIRE', alive, week)
    local all = redis.call('HGETALL', alive)
    for i = 1, #all, 2 do
      if tonumber(all[i + 1]) < t and #pendingOf(all[i], 1) == 0 then forget(all[i]) end
    end
  end
  if token == '' then return {''} end
  return {token, redis.call('HGET', state, 'cursor') or false}
end

if op == 'publish' then
  if redis.call('GET', lease) ~= ARGV[6] then return -1 end
  local n = tonumber(redis.call('HGET', state, 'n') or '0')
  if #ARGV == 8 then redis.call('XADD', stream, 'MAXLEN', '~', ARGV[7], '*', 'n', n, 'cursor', ARGV[8]) end
  for i = 9, #ARGV do
    n = n + 1
    if i == #ARGV then
      redis.call('XADD', stream, 'MAXLEN', '~', ARGV[7], '*', 'n', n, 'item', ARGV[i], 'cursor', ARGV[8])
    else
      redis.call('XADD', stream, 'MAXLEN', '~', ARGV[7], '*', 'n', n, 'item', ARGV[i])
    end
  end
  redis.call('HSET', state, 'cursor', ARGV[8], 'n', n)
  keep()
  return n
end

if op == 'join' then
  if delivery == 'once' then
    redis.pcall('XGROUP', 'CREATE', stream, group, '$', 'MKSTREAM')
    live()
    keep()
  end
  local at = redis.call('HMGET', state, 'cursor', 'n')
  local saved = delivery == 'every' and me ~= '' and redis.call('HGET', positions, me) or false
  local first = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1]
  return {lastId(), at[2] or '0', at[1] or false, saved, entry(first)}
end

local function save(saved)
  if saved ~= '' then
    redis.call('HSET', positions, me, saved)
    redis.call('PEXPIRE', positions, week)
  end
end

if op == 'every' then
  save(ARGV[8])
  local out = {redis.call('HGET', state, 'n') or '0'}
  if ARGV[7] == '0' then return out end
  for _, e in ipairs(redis.call('XRANGE', stream, '(' .. ARGV[6], '+', 'COUNT', ARGV[7])) do out[#out + 1] = entry(e) end
  return out
end

if op == 'once' then
  redis.pcall('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM')
  live()
  if ARGV[6] ~= '' then redis.call('XACK', stream, group, ARGV[6]) end
  local handed = false
  -- The first live entry of a list of them; one trimmed away (no fields) is acknowledged and passed.
  local function take(entries)
    for _, e in ipairs(entries) do
      handed = entry(e)
      if handed then return true end
      if e and e[1] then redis.call('XACK', stream, group, e[1]) end
    end
    return false
  end
  local function read(from)
    local reply = redis.call('XREADGROUP', 'GROUP', group, me, 'COUNT', 1, 'STREAMS', stream, from)
    return take(reply and reply[1] and reply[1][2] or {})
  end
  if not read('0') then
    for _, p in ipairs(redis.call('XPENDING', stream, group, 'IDLE', aliveMs, '-', '+', 10)) do
      if p[2] ~= me and tonumber(redis.call('HGET', alive, p[2]) or '0') < t then
        local claimed = take(redis.call('XCLAIM', stream, group, me, 0, p[1]))
        if #pendingOf(p[2], 1) == 0 then forget(p[2]) end
        if claimed then break end
      end
    end
  end
  if not handed then read('>') end
  if handed and not handed[4] then
    for _, e in ipairs(redis.call('XREVRANGE', stream, '(' .. handed[1], '-', 'COUNT', ARGV[7])) do
      local before = entry(e)
      if before[4] then handed[4] = before[4] break end
    end
  end
  return {lastId(), handed, not handed and redis.call('HGET', state, 'cursor') or false}
end

if op == 'leave' then
  if ARGV[6] ~= '' and redis.call('GET', lease) == ARGV[6] then redis.call('DEL', lease) end
  if not mine then return 0 end
  if owner ~= '' then redis.call('HDEL', names, name) end
  if delivery == 'once' then
    if ARGV[7] ~= '' then redis.pcall('XACK', stream, group, ARGV[7]) end
    -- Still pending: handed by a step whose answer the ended watch did not read. Back to the
    -- fleet now (idle, its consumer gone), not once a liveness has passed.
    for _, p in ipairs(pendingOf(me, 100)) do redis.call('XCLAIM', stream, group, me, 0, p[1], 'IDLE', week) end
    if #pendingOf(me, 1) == 0 then forget(me) else redis.call('HDEL', alive, me) end
  end
  save(ARGV[8])
  return 0
end
return redis.error_reply('unknown fleet step ' .. tostring(op))
`;
