-- wrk script for the load check: a mix of reads and writes on /widgets.
--   50% GET /widgets/{id}, 20% GET /widgets?after=…&limit=20,
--   20% POST /widgets, 10% PUT /widgets/{id}
-- Ids are drawn from 1…max, where max starts at the number of widgets that already exist
-- (the script's argument) and grows with this thread's own creations; nothing is deleted,
-- so every id drawn exists. Each thread counts its 201s and its non-2xx answers; done()
-- sums them and prints one line the check script reads.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  known = tonumber(args[1]) or 0
  created = 0
  non2xx = 0
  counter = 0
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

local json = { ["Content-Type"] = "application/json" }

local function anyId()
  if known < 1 then return 1 end
  return math.random(1, known)
end

function request()
  counter = counter + 1
  local roll = math.random(100)
  if roll <= 50 and known > 0 then
    return wrk.format("GET", "/widgets/" .. anyId())
  elseif roll <= 70 then
    return wrk.format("GET", "/widgets?limit=20&after=" .. math.max(anyId() - 20, 0))
  elseif roll <= 90 or known == 0 then
    local body = string.format('{"name":"load %d-%d","quantity":%d}', counter, math.random(1e9), roll)
    return wrk.format("POST", "/widgets", json, body)
  else
    local body = string.format('{"name":"updated %d","quantity":%d}', counter, roll)
    return wrk.format("PUT", "/widgets/" .. anyId(), json, body)
  end
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
    local id = tonumber(body:match('"id":(%d+)'))
    if id and id > known then known = id end
  end
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local totalCreated, totalNon2xx = 0, 0
  for _, thread in ipairs(threads) do
    totalCreated = totalCreated + thread:get("created")
    totalNon2xx = totalNon2xx + thread:get("non2xx")
  end
  local e = summary.errors
  io.write(string.format(
    "LOADCHECK requests=%d duration_s=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f created=%d non2xx=%d connect=%d read=%d write=%d timeout=%d status=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    totalCreated, totalNon2xx, e.connect, e.read, e.write, e.timeout, e.status))
end
