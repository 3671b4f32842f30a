/**
 * The Lua script behind `redisFleet`: every step a fleet takes in Redis, each atomic on the
 * server and timed by its clock (`TIME`). `ARGV[1]` names the step.
 *
 * Five keys per list, one hash tag (one Cluster slot): `KEYS[1]` the lease (a string: the
 * token of the process that polls, set `NX PX`); `KEYS[2]` the list's state (a hash: `cursor`,
 * the watch cursor after the last item published, and `n`, how many were); `KEYS[3]` the
 * stream of items (fields `n`, `item` and, on the last entry of each batch, `cursor`; an entry
 * of a cursor alone marks where a poller started), trimmed
 * `MAXLEN ~`, with the consumer group `fleet` of the `'once'` watchers; `KEYS[4]` those
 * watchers' liveness (a hash: consumer → until when, in ms of Redis's clock); `KEYS[5]` the
 * positions of named `'every'` watchers (a hash: consumer → JSON `{ id, n, cursor }`).
 *
 * - `tick held next leaseMs keepMs delivery consumer aliveMs anew`: renews the lease if `held`
 *   still holds it, or takes it as `next` if nobody does (or if `held` does and `anew` is `1`:
 *   a holder about to poll again changes its token, so that what its previous polling still
 *   has on the way is fenced out); answers `{ holder, cursor }`: the token this process holds
 *   (`''`: none) and, when it holds one, the list's cursor. The holder keeps the
 *   list's keys alive `keepMs`. A `'once'` watcher marks itself alive `aliveMs` and removes
 *   consumers dead past it with nothing pending (a process that died idle).
 * - `publish token maxLength keepMs cursor item…`: adds the items, and the cursor after them,
 *   fenced: only while `token` holds the lease (a poller paused past its lease publishes
 *   nothing). Answers the new `n`, or -1 when fenced out. Without items, it adds the cursor
 *   alone, an entry without `item` (a poller's starting point: a watcher that joined before
 *   learns its position from it).
 * - `join delivery consumer keepMs aliveMs`: where a watcher starts: `{ lastId, n, cursor,
 *   saved, first }`, the stream's newest id with the state at that moment, a named `'every'`
 *   watcher's saved position, and the stream's first entry (a new list's starting point, for a
 *   watcher that started before it). A `'once'` watcher creates the group at the stream's end.
 * - `every after count consumer saved keepMs`: saves a named watcher's position (if given), then
 *   `{ n, entry… }`: the state's `n` and up to `count` entries after the id `after`, each
 *   `{ id, n, item, cursor }`.
 * - `once ack consumer aliveMs scan`: acknowledges `ack` (the item handed before), then hands
 *   this consumer one entry: its own pending one (a restart of the same name), else one whose
 *   consumer is dead (not alive), else a new one; `{ lastId, entry, cursor }`: the entry with its
 *   cursor, or the latest one within `scan` entries before it; with no entry, the list's cursor
 *   (every item published has been handed out). A group lost with Redis's data is made
 *   again from the stream's start (its entries are all new since).
 * - `leave token delivery consumer ack saved keepMs`: gives the lease up if `token` holds it;
 *   a `'once'` watcher acknowledges `ack` and, with nothing pending, leaves the group; a named
 *   `'every'` watcher saves its position.
 * @module
 */

export const FLEET_SCRIPT = `
local lease, state, stream, alive, positions = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local group = 'fleet'
local op = ARGV[1]
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function keep(ms)
  for _, key in ipairs({state, stream, alive, positions}) do redis.call('PEXPIRE', key, ms) end
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
local function pendingOf(consumer)
  local pending = redis.pcall('XPENDING', stream, group, '-', '+', 1, consumer)
  return pending.err and 0 or #pending
end
local function forget(consumer)
  redis.call('XGROUP', 'DELCONSUMER', stream, group, consumer)
  redis.call('HDEL', alive, consumer)
end

if op == 'tick' then
  local held, mine = redis.call('GET', lease), ''
  if ARGV[2] ~= '' and held == ARGV[2] and ARGV[9] ~= '1' then
    redis.call('PEXPIRE', lease, ARGV[4])
    mine = held
  elseif not held or held == ARGV[2] then
    redis.call('SET', lease, ARGV[3], 'PX', ARGV[4])
    mine = ARGV[3]
  end
  if mine ~= '' then keep(ARGV[5]) end
  if ARGV[6] == 'once' then
    local t = now()
    redis.call('HSET', alive, ARGV[7], t + tonumber(ARGV[8]))
    redis.call('PEXPIRE', alive, ARGV[5])
    local all = redis.call('HGETALL', alive)
    for i = 1, #all, 2 do
      if tonumber(all[i + 1]) < t and (redis.call('EXISTS', stream) == 0 or pendingOf(all[i]) == 0) then
        redis.pcall('XGROUP', 'DELCONSUMER', stream, group, all[i])
        redis.call('HDEL', alive, all[i])
      end
    end
  end
  if mine == '' then return {''} end
  return {mine, redis.call('HGET', state, 'cursor') or false}
end

if op == 'publish' then
  if redis.call('GET', lease) ~= ARGV[2] then return -1 end
  local n = tonumber(redis.call('HGET', state, 'n') or '0')
  if #ARGV == 5 then redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], '*', 'n', n, 'cursor', ARGV[5]) end
  for i = 6, #ARGV do
    n = n + 1
    if i == #ARGV then
      redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], '*', 'n', n, 'item', ARGV[i], 'cursor', ARGV[5])
    else
      redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], '*', 'n', n, 'item', ARGV[i])
    end
  end
  redis.call('HSET', state, 'cursor', ARGV[5], 'n', n)
  keep(ARGV[4])
  return n
end

if op == 'join' then
  if ARGV[2] == 'once' then
    redis.pcall('XGROUP', 'CREATE', stream, group, '$', 'MKSTREAM')
    redis.call('HSET', alive, ARGV[3], now() + tonumber(ARGV[5]))
    keep(ARGV[4])
  end
  local at = redis.call('HMGET', state, 'cursor', 'n')
  local saved = ARGV[2] == 'every' and ARGV[3] ~= '' and redis.call('HGET', positions, ARGV[3]) or false
  local first = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1]
  return {lastId(), at[2] or '0', at[1] or false, saved, entry(first)}
end

if op == 'every' then
  if ARGV[5] ~= '' then
    redis.call('HSET', positions, ARGV[4], ARGV[5])
    redis.call('PEXPIRE', positions, ARGV[6])
  end
  local out = {redis.call('HGET', state, 'n') or '0'}
  if ARGV[3] == '0' then return out end
  for _, e in ipairs(redis.call('XRANGE', stream, '(' .. ARGV[2], '+', 'COUNT', ARGV[3])) do out[#out + 1] = entry(e) end
  return out
end

if op == 'once' then
  local me = ARGV[3]
  redis.pcall('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM')
  redis.call('HSET', alive, me, now() + tonumber(ARGV[4]))
  if ARGV[2] ~= '' then redis.call('XACK', stream, group, ARGV[2]) end
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
    local t = now()
    for _, p in ipairs(redis.call('XPENDING', stream, group, 'IDLE', ARGV[4], '-', '+', 10)) do
      if p[2] ~= me and tonumber(redis.call('HGET', alive, p[2]) or '0') < t then
        local claimed = take(redis.call('XCLAIM', stream, group, me, 0, p[1]))
        if pendingOf(p[2]) == 0 then forget(p[2]) end
        if claimed then break end
      end
    end
  end
  if not handed then read('>') end
  if handed and not handed[4] then
    for _, e in ipairs(redis.call('XREVRANGE', stream, '(' .. handed[1], '-', 'COUNT', ARGV[5])) do
      local before = entry(e)
      if before[4] then handed[4] = before[4] break end
    end
  end
  return {lastId(), handed, not handed and redis.call('HGET', state, 'cursor') or false}
end

if op == 'leave' then
  if ARGV[2] ~= '' and redis.call('GET', lease) == ARGV[2] then redis.call('DEL', lease) end
  if ARGV[3] == 'once' and redis.call('EXISTS', stream) == 1 then
    if ARGV[5] ~= '' then redis.call('XACK', stream, group, ARGV[5]) end
    if pendingOf(ARGV[4]) == 0 then redis.pcall('XGROUP', 'DELCONSUMER', stream, group, ARGV[4]) redis.call('HDEL', alive, ARGV[4]) end
  end
  if ARGV[3] == 'every' and ARGV[4] ~= '' and ARGV[6] ~= '' then
    redis.call('HSET', positions, ARGV[4], ARGV[6])
    redis.call('PEXPIRE', positions, ARGV[7])
  end
  return 0
end
return redis.error_reply('unknown fleet step ' .. tostring(op))
`;
