-- wrk script for scripts/bench-sign: POST /v1/request `pub(extrinsic.sign)` as a bearer-token client
-- (docs/protocol.md §1–§3), each request with its own id. Configured by environment variables:
--   SIGIL_TOKEN    the client token `sigil serve --client NAME` printed
--   SIGIL_SESSION  the session id (8–64 of [A-Za-z0-9_-]) the client authorized with
--   SIGIL_PAYLOAD  the SignerPayloadJSON object (one line of JSON)
-- Every reply is checked: a 200 whose body carries `"signature":"0x01…"` (an sr25519
-- MultiSignature) counts as a signature; anything else (another status, an `{id, error}` body, a
-- 202) counts as an error. done() prints one machine-readable line:
--   RESULT <signatures> <errors> <non200> <socket-errors> <seconds> <p50-us> <p99-us> <first-error>

local token = os.getenv("SIGIL_TOKEN") or error("SIGIL_TOKEN is not set")
local session = os.getenv("SIGIL_SESSION") or error("SIGIL_SESSION is not set")
local payload = os.getenv("SIGIL_PAYLOAD") or error("SIGIL_PAYLOAD is not set")

local threads = {}

function setup(thread)
    thread:set("tid", #threads)
    table.insert(threads, thread)
end

function init(args)
    counter = 0
    signatures = 0
    errors = 0
    non200 = 0
    first_error = ""
    prefix = '{"id":"w' .. tid .. "."
    suffix = '","message":"pub(extrinsic.sign)","request":' .. payload .. "}"
    -- wrk.headers holds the Host header wrk derived from the URL (the gateway checks it).
    headers = {}
    for name, value in pairs(wrk.headers) do headers[name] = value end
    headers["Authorization"] = "Bearer " .. token
    headers["X-Sigil-Session"] = session
    headers["Content-Type"] = "application/json"
end

function request()
    counter = counter + 1
    return wrk.format("POST", "/v1/request", headers, prefix .. counter .. suffix)
end

function response(status, headers, body)
    if status ~= 200 then
        non200 = non200 + 1
        if first_error == "" then first_error = "HTTP " .. status .. " " .. string.sub(body or "", 1, 120) end
    elseif string.find(body, '"signature":"0x01', 1, true) and not string.find(body, '"error":', 1, true) then
        signatures = signatures + 1
    else
        errors = errors + 1
        if first_error == "" then first_error = string.sub(body or "", 1, 160) end
    end
end

function done(summary, latency, requests)
    local signed, failed, refused, first = 0, 0, 0, ""
    for _, thread in ipairs(threads) do
        signed = signed + thread:get("signatures")
        failed = failed + thread:get("errors")
        refused = refused + thread:get("non200")
        if first == "" then first = thread:get("first_error") end
    end
    local e = summary.errors
    local socket = e.connect + e.read + e.write + e.timeout
    first = string.gsub(first, "%s+", " ")
    io.write(string.format("RESULT %d %d %d %d %.6f %d %d %s\n", signed, failed, refused, socket,
        summary.duration / 1e6, latency:percentile(50), latency:percentile(99), first))
end
