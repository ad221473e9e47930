// The Lua scripts of the shared frontier (frontier-redis.ts). Each runs atomically in Redis, so a
// decision (which host, which URL, which token) and its effects are one step no other worker sees
// half-done; each reads Redis's own clock (TIME), so the clocks of the crawler machines decide nothing.
// Redis 7 replicates a script by its effects (the writes it made, in MULTI/EXEC), so the append-only
// file replays the same state even though TIME differs on replay.
//
// Every script takes no KEYS and the key prefix as ARGV[1]: the keys a script touches depend on the
// hosts it reads, so they cannot be declared beforehand (one Redis server, not Redis Cluster).
//
// Keys (P = prefix):
//   P marker            string  this db belongs to a Gleaner frontier (open refuses a db without it)
//   P seen              set     every URL ever queued: exact, so a URL is queued once per crawl
//   P q:<host>          zset    the host's queued URLs, score depth*1e12 + P seq (breadth-first, then FIFO);
//                               a retry (4000 + depth)*1e12 + P seq, behind every depth (see LAST)
//   P data              hash    url -> the caller's opaque data for a queued or leased URL (absent when none)
//   P ready             zset    hosts with a queued URL and no lease, score = earliest ms they may be asked
//   P next              hash    host -> earliest ms of its next request (set when a lease is returned)
//   P delay             hash    host -> the delay the last returned lease asked for (used when one expires)
//   P lease             hash    host -> its live lease (JSON: token, deadline, score, worker, url; a
//                               batch lease also m, its URLs, each pending from the start)
//   P deadlines         zset    leased hosts, score = lease deadline (ms), to find expired ones
//   P leasereq          hash    worker -> its last lease call's request id and the host it got (a call
//                               sent again after a lost answer gets that lease back, not a second one)
//   P pending           hash    url -> a page whose request is over (its host freed) but not yet stored:
//                               JSON token, deadline, score, host
//   P pdeadlines        zset    pending URLs, score = deadline (ms): an expired one goes back to its queue
//   P settling          hash    host -> its pending pages: while any, its retries wait (their links go first)
//   P fence             counter fencing tokens
//   P seq               counter queue order within a depth
//   P queued, P done    counters URLs queued / pages completed
//   P reclaimed         counter leases that expired and were taken back
//   P batches           counter batch leases taken
//   P outcomes          hash    outcome -> pages completed with it

/** Helpers every script starts with. Numbers go to Redis through fmt: Lua's own number-to-string
 * conversion keeps 14 digits, too few for a millisecond time or a queue score. */
const PRELUDE = `
local P = ARGV[1]
local function fmt(n) return string.format('%.0f', n) end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function nextAt(host)
  local n = redis.call('HGET', P .. 'next', host)
  if n then return tonumber(n) end
  return 0
end
-- Queue one URL unless seen; its host joins ready unless leased (one lease per host) or already there.
local function addOne(host, url, depth, data)
  if redis.call('SADD', P .. 'seen', url) == 0 then return 0 end
  if data ~= '' then redis.call('HSET', P .. 'data', url, data) end
  local seq = redis.call('INCR', P .. 'seq')
  redis.call('ZADD', P .. 'q:' .. host, fmt(depth * 1e12 + seq), url)
  redis.call('INCR', P .. 'queued')
  if redis.call('HEXISTS', P .. 'lease', host) == 0 then
    redis.call('ZADD', P .. 'ready', 'NX', fmt(nextAt(host)), host)
  end
  return 1
end
-- A retry's score is LAST + its depth (times 1e12), behind every depth (see requeue).
local LAST = 4000
-- A pending page of host was added (+1) or is gone (-1): finished, or back in its queue.
local function settle(host, by)
  if redis.call('HINCRBY', P .. 'settling', host, by) <= 0 then redis.call('HDEL', P .. 'settling', host) end
end
-- ARGV from index first on: host, url, depth, data quadruples.
local function addFrom(first)
  local added = 0
  for i = first, #ARGV, 4 do
    added = added + addOne(ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3])
  end
  return added
end
-- The record under field of hash (a lease by host, a pending page by URL) when it holds this token
-- and its deadline has not passed, else nil: a record past its deadline is lost even before a lease
-- call reclaims it.
local function liveRecord(hash, field, token, now)
  local raw = redis.call('HGET', P .. hash, field)
  if not raw then return nil end
  local r = cjson.decode(raw)
  if r.t ~= token or tonumber(r.d) <= now then return nil end
  return r
end
local function liveLease(host, token, now) return liveRecord('lease', host, token, now) end
local function livePending(url, token, now) return liveRecord('pending', url, token, now) end
-- Redis's now, the host (ARGV[2]) and its live lease with the token ARGV[3] (nil when not live).
local function argLease()
  local now = nowMs()
  return now, ARGV[2], liveLease(ARGV[2], ARGV[3], now)
end
-- Leases host's next URL to worker unless the host is leased or its queue is empty: the reply
-- {'lease', host, url, score, token, deadline, now, data}, or nil.
-- from: what took it (a lease call's request id, or the token of the lease freed in the same step),
-- so a call sent again after a lost answer gets the same lease back instead of orphaning it.
-- A batch lease's reply goes on with '1' and the url, score, data of each URL after the first still
-- pending under its token; a single lease's with '0'.
local function leaseReply(host, l, now)
  local r = {'lease', host, l.u, l.s, l.t, l.d, fmt(now), redis.call('HGET', P .. 'data', l.u) or '', l.m and '1' or '0'}
  if l.m then
    for i = 2, #l.m do
      local raw = redis.call('HGET', P .. 'pending', l.m[i])
      if raw then
        local p = cjson.decode(raw)
        if p.t == l.t then
          r[#r + 1] = l.m[i]
          r[#r + 1] = p.s
          r[#r + 1] = redis.call('HGET', P .. 'data', l.m[i]) or ''
        end
      end
    end
  end
  return r
end
-- batch: URLs a lease may take at once on a host whose last delay was 0 (more than one makes a batch
-- lease: the worker asks them one after another, with no round trip to Redis between them). Every URL
-- of a batch is pending from the start, under the lease's token and deadline, so an expired batch goes
-- back to its queue URL by URL, as a pending page does; the host stays leased until the worker frees it.
-- A host whose queue holds only retries while a page of it is pending is not leased: that page's links,
-- queued at its finish, go before the retries (finish and requeuePending make the host ready again).
-- A batch of fresh URLs stops before the first retry, for the same reason.
local function leaseHost(host, worker, leaseMs, now, from, batch)
  if redis.call('HEXISTS', P .. 'lease', host) == 1 then return nil end
  local n = 1
  if batch and batch > 1 and redis.call('HGET', P .. 'delay', host) == '0' then n = batch end
  local q = P .. 'q:' .. host
  local retries = fmt(LAST * 1e12)
  if redis.call('ZCOUNT', q, '-inf', '(' .. retries) == 0 then
    if redis.call('HEXISTS', P .. 'settling', host) == 1 then return nil end
  elseif n > 1 then
    n = math.min(n, redis.call('ZCOUNT', q, '-inf', '(' .. retries))
  end
  local head = redis.call('ZPOPMIN', q, n)
  if not head[1] then return nil end
  local token = tostring(redis.call('INCR', P .. 'fence'))
  local d = fmt(now + leaseMs)
  local l = {t = token, d = d, s = head[2], w = worker, u = head[1], f = from}
  if n > 1 then
    redis.call('INCR', P .. 'batches')
    l.m = {}
    for i = 1, #head, 2 do
      l.m[#l.m + 1] = head[i]
      redis.call('HSET', P .. 'pending', head[i], cjson.encode({t = token, d = d, s = head[i + 1], h = host}))
      redis.call('ZADD', P .. 'pdeadlines', d, head[i])
      settle(host, 1)
    end
  end
  redis.call('HSET', P .. 'lease', host, cjson.encode(l))
  redis.call('ZADD', P .. 'deadlines', d, host)
  redis.call('DECRBY', P .. 'queued', #head / 2)
  return leaseReply(host, l, now)
end
-- The live lease of host that from took, or nil.
local function takenBy(host, from, now)
  if not host then return nil end
  local raw = redis.call('HGET', P .. 'lease', host)
  if not raw then return nil end
  local l = cjson.decode(raw)
  if l.f ~= from or tonumber(l.d) <= now then return nil end
  return l
end
local function dropLease(host)
  redis.call('HDEL', P .. 'lease', host)
  redis.call('ZREM', P .. 'deadlines', host)
end
-- The URL back to its place: its old score is the lowest of its depth that was queued when it was taken.
-- Or, last (a retry), behind every URL of its host, keeping its depth in the score: depths stay below
-- LAST (the CLI allows 1,000) and the score below 2^53, where a double stops counting by one.
local function requeue(host, l, last)
  local s = l.s
  if last then
    local depth = math.floor(tonumber(l.s) / 1e12) % LAST
    s = fmt((LAST + depth) * 1e12 + redis.call('INCR', P .. 'seq'))
  end
  redis.call('ZADD', P .. 'q:' .. host, s, l.u)
  redis.call('INCR', P .. 'queued')
end
-- A pending page is gone (finished, or back in its queue); its host is ready at its next allowed time
-- unless leased, since a retry held for it may go now.
local function dropPending(url, p)
  redis.call('HDEL', P .. 'pending', url)
  redis.call('ZREM', P .. 'pdeadlines', url)
  settle(p.h, -1)
  if redis.call('HEXISTS', P .. 'lease', p.h) == 0 and redis.call('ZCARD', P .. 'q:' .. p.h) > 0 then
    redis.call('ZADD', P .. 'ready', 'NX', fmt(nextAt(p.h)), p.h)
  end
end
-- A pending URL back to its host's queue.
local function requeuePending(url, p, last)
  requeue(p.h, {s = p.s, u = url}, last)
  dropPending(url, p)
end
`;

/** ARGV: prefix, marker value. Returns 'ok' (marker present or db empty and now marked), 'foreign'
 * (keys but no marker) or 'other:<value>' (a marker of another version). */
export const OPEN_LUA = `${PRELUDE}
local m = redis.call('GET', P .. 'marker')
if m == ARGV[2] then return 'ok' end
if m then return 'other:' .. m end
if redis.call('DBSIZE') > 0 then return 'foreign' end
redis.call('SET', P .. 'marker', ARGV[2])
return 'ok'
`;

/** ARGV: prefix, then host, url, depth, data quadruples. Returns how many URLs were new. */
export const ADD_LUA = `${PRELUDE}
return addFrom(2)
`;

/** ARGV: prefix, worker, leaseMs, requestId, batch (URLs at most, see leaseHost). A call sent again with the same requestId (its answer was
 * lost: Redis restarted, the connection dropped) gets the lease the first one took. Reclaims expired leases (URL back to its place, host ready after its
 * last delay counted from the deadline: the dead worker's request may have run until then), then leases
 * the first ready host whose time has come. Returns {'lease', host, url, score, token, deadline, now, data, batch...},
 * {'wait', ms} or {'empty'}. */
export const LEASE_LUA = `${PRELUDE}
local now = nowMs()
local reqId = ARGV[4]
local last = redis.call('HGET', P .. 'leasereq', ARGV[2])
if last then
  local r = cjson.decode(last)
  if r.r == reqId then
    local l = takenBy(r.h, reqId, now)
    if l then return leaseReply(r.h, l, now) end
  end
end
local expired = redis.call('ZRANGEBYSCORE', P .. 'deadlines', '-inf', fmt(now))
for _, host in ipairs(expired) do
  local raw = redis.call('HGET', P .. 'lease', host)
  dropLease(host)
  if raw then
    local l = cjson.decode(raw)
    -- A batch's URLs are pending: they go back as their own deadlines pass (below).
    if not l.m then requeue(host, l) end
    local d = redis.call('HGET', P .. 'delay', host)
    local at = tonumber(l.d) + (d and tonumber(d) or 0)
    if at > nextAt(host) then redis.call('HSET', P .. 'next', host, fmt(at)) end
    redis.call('INCR', P .. 'reclaimed')
  end
  if redis.call('ZCARD', P .. 'q:' .. host) > 0 then
    redis.call('ZADD', P .. 'ready', 'NX', fmt(nextAt(host)), host)
  end
end
for _, url in ipairs(redis.call('ZRANGEBYSCORE', P .. 'pdeadlines', '-inf', fmt(now))) do
  local raw = redis.call('HGET', P .. 'pending', url)
  if raw then
    requeuePending(url, cjson.decode(raw))
    redis.call('INCR', P .. 'reclaimed')
  else
    redis.call('ZREM', P .. 'pdeadlines', url)
  end
end
local leaseMs = tonumber(ARGV[3])
while true do
  local first = redis.call('ZRANGEBYSCORE', P .. 'ready', '-inf', fmt(now), 'LIMIT', 0, 1)
  local host = first[1]
  if not host then break end
  redis.call('ZREM', P .. 'ready', host)
  local taken = leaseHost(host, ARGV[2], leaseMs, now, reqId, tonumber(ARGV[5]))
  if taken then
    redis.call('HSET', P .. 'leasereq', ARGV[2], cjson.encode({r = reqId, h = host}))
    return taken
  end
end
-- Not empty while a page is pending: its links are still to come.
local at = math.huge
for _, k in ipairs({'ready', 'deadlines', 'pdeadlines'}) do
  local first = redis.call('ZRANGE', P .. k, 0, 0, 'WITHSCORES')
  if first[1] and tonumber(first[2]) < at then at = tonumber(first[2]) end
end
if at == math.huge then return {'empty'} end
return {'wait', fmt(math.max(1, at - now))}
`;

/** ARGV: prefix, host, token, delayMs, outcome, then host, url, depth, data quadruples of the page's links.
 * Returns {'stale'} having changed nothing, or {'ok', linksAdded, nextAllowedMs}. */
export const COMPLETE_LUA = `${PRELUDE}
local now, host, l = argLease()
if not l then return {'stale'} end
dropLease(host)
redis.call('HDEL', P .. 'data', l.u)
local delay = tonumber(ARGV[4])
local at = now + delay
redis.call('HSET', P .. 'next', host, fmt(at))
redis.call('HSET', P .. 'delay', host, fmt(delay))
local added = addFrom(6)
redis.call('INCR', P .. 'done')
redis.call('HINCRBY', P .. 'outcomes', ARGV[5], 1)
if redis.call('ZCARD', P .. 'q:' .. host) > 0 then
  redis.call('ZADD', P .. 'ready', fmt(at), host)
end
return {'ok', added, fmt(at)}
`;

/** ARGV: prefix, host, token, delayMs, place ('last' or ''). The URL back to its place (or last), the
 * host ready after the delay. Returns {'stale'} having changed nothing, or {'ok', nextAllowedMs}. */
export const RELEASE_LUA = `${PRELUDE}
local now, host, l = argLease()
if not l then return {'stale'} end
dropLease(host)
requeue(host, l, ARGV[5] == 'last')
local at = now + tonumber(ARGV[4])
redis.call('HSET', P .. 'next', host, fmt(at))
redis.call('ZADD', P .. 'ready', fmt(at), host)
return {'ok', fmt(at)}
`;

/** ARGV: prefix, host, token. Empties the host's queue while its lease is live (its robots.txt cannot be
 * had: the whole site is given up); the lease stays, to be completed. Returns {'stale'} or {'ok', url...}. */
export const DROP_HOST_LUA = `${PRELUDE}
local now, host, l = argLease()
if not l then return {'stale'} end
local q = P .. 'q:' .. host
local urls = redis.call('ZRANGE', q, 0, -1)
redis.call('DEL', q)
redis.call('ZREM', P .. 'ready', host)
for _, u in ipairs(urls) do redis.call('HDEL', P .. 'data', u) end
redis.call('DECRBY', P .. 'queued', #urls)
local r = {'ok'}
for _, u in ipairs(urls) do r[#r + 1] = u end
return r
`;

/** ARGV: prefix, host, token, delayMs, url, worker, leaseMs, batch, then URLs given back. The lease's
 * request is over: the host is free for the next request after the delay, while the URL stays pending
 * (same token and deadline) until finish or requeue; an expired pending URL goes back to its queue. A
 * batch lease's URLs are pending already; those given back (not asked: the batch was cut short) go back
 * to their queue. With a worker (not '') and no delay left, the host's next URL (or batch) is leased to
 * that worker in the same step (one round trip less per page when a host may be asked at once). The
 * same call sent again (its answer lost) answers as the first did.
 * Returns {'stale'}, {'ok', nextAllowedMs} or {'ok', nextAllowedMs, lease...}. */
export const FREE_LUA = `${PRELUDE}
local now, host, l = argLease()
if not l then
  -- Sent again after its answer was lost: the host was leased again in its step, or the URL is
  -- pending under this token already.
  local again = takenBy(host, ARGV[3], now)
  if again and again.w == ARGV[6] then return {'ok', fmt(nextAt(host)), unpack(leaseReply(host, again, now))} end
  if livePending(ARGV[5], ARGV[3], now) then return {'ok', fmt(nextAt(host))} end
  return {'stale'}
end
dropLease(host)
local delay = tonumber(ARGV[4])
local at = now + delay
redis.call('HSET', P .. 'next', host, fmt(at))
redis.call('HSET', P .. 'delay', host, fmt(delay))
if l.m then
  for i = 9, #ARGV do
    local p = livePending(ARGV[i], l.t, now)
    if p then requeuePending(ARGV[i], p) end
  end
else
  redis.call('HSET', P .. 'pending', l.u, cjson.encode({t = l.t, d = l.d, s = l.s, h = host}))
  redis.call('ZADD', P .. 'pdeadlines', l.d, l.u)
  settle(host, 1)
end
if ARGV[6] ~= '' and delay == 0 then
  local taken = leaseHost(host, ARGV[6], tonumber(ARGV[7]), now, ARGV[3], tonumber(ARGV[8]))
  if taken then return {'ok', fmt(at), unpack(taken)} end
end
if redis.call('ZCARD', P .. 'q:' .. host) > 0 then
  redis.call('ZADD', P .. 'ready', fmt(at), host)
end
return {'ok', fmt(at)}
`;

/** ARGV: prefix, url, token, outcome, then host, url, depth, data quadruples of the page's links. The
 * pending page is done and its links queued, in one step. Returns {'stale'} or {'ok', linksAdded}. */
export const FINISH_LUA = `${PRELUDE}
local now = nowMs()
local url = ARGV[2]
local p = livePending(url, ARGV[3], now)
if not p then return {'stale'} end
redis.call('HDEL', P .. 'data', url)
local added = addFrom(5)
dropPending(url, p)
redis.call('INCR', P .. 'done')
redis.call('HINCRBY', P .. 'outcomes', ARGV[4], 1)
return {'ok', added}
`;

/** ARGV: prefix, url, token, place ('last' or ''). The pending URL back to its place in its host's
 * queue, or last (a retry). Returns {'stale'} or {'ok'}. */
export const REQUEUE_LUA = `${PRELUDE}
local p = livePending(ARGV[2], ARGV[3], nowMs())
if not p then return {'stale'} end
requeuePending(ARGV[2], p, ARGV[4] == 'last')
return {'ok'}
`;

/** ARGV: prefix, url, token, leaseMs. Returns {'stale'} or {'ok', newDeadline}. */
export const EXTEND_PENDING_LUA = `${PRELUDE}
local now = nowMs()
local p = livePending(ARGV[2], ARGV[3], now)
if not p then return {'stale'} end
p.d = fmt(now + tonumber(ARGV[4]))
redis.call('HSET', P .. 'pending', ARGV[2], cjson.encode(p))
redis.call('ZADD', P .. 'pdeadlines', p.d, ARGV[2])
return {'ok', p.d}
`;

/** ARGV: prefix, host, token, leaseMs. A batch lease's URLs still pending under its token are extended
 * with it. Returns {'stale'} or {'ok', newDeadline}. */
export const EXTEND_LUA = `${PRELUDE}
local now, host, l = argLease()
if not l then return {'stale'} end
l.d = fmt(now + tonumber(ARGV[4]))
redis.call('HSET', P .. 'lease', host, cjson.encode(l))
redis.call('ZADD', P .. 'deadlines', l.d, host)
for _, url in ipairs(l.m or {}) do
  local p = livePending(url, l.t, now)
  if p then
    p.d = l.d
    redis.call('HSET', P .. 'pending', url, cjson.encode(p))
    redis.call('ZADD', P .. 'pdeadlines', l.d, url)
  end
end
return {'ok', l.d}
`;

/** ARGV: prefix. Returns {queued, leased, done, seen, reclaimed, pending}. */
export const COUNTS_LUA = `${PRELUDE}
local function n(k) return tonumber(redis.call('GET', P .. k) or '0') end
return {n('queued'), redis.call('HLEN', P .. 'lease'), n('done'), redis.call('SCARD', P .. 'seen'), n('reclaimed'), redis.call('HLEN', P .. 'pending')}
`;
