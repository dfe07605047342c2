--- keel serve --stdio — the protocol for user interfaces over standard
-- input and output: one JSON request a line in, one JSON response a line
-- out (keel.serve; doc/protocol.md).
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "speak the protocol for user interfaces (stdio), or serve the play page (http)",
  usage = "keel serve --stdio [--root DIR] [--memory MIB] [--cpu SECONDS]\n" ..
          "       keel serve --http [--bind ADDR] [--port N] [--seat SIDE[=KIND]]... [--games DIR] [SCENARIO...]",
  help = "Reads one JSON request per line on standard input and writes one JSON\n" ..
         "response per line on standard output, flushed after each: open a scenario\n" ..
         "(with a seed and variants) or load a save, the view of a side, the legal\n" ..
         "actions with their parameters and candidate values, submit an order (an\n" ..
         "illegal one is refused with its rule and reason, the state unchanged),\n" ..
         "undo, redo, save, the journal. The game runs in a sandbox state of its own.\n" ..
         "doc/protocol.md describes every request and response; doc/protocol.schema.json\n" ..
         "is their JSON schema.\n" ..
         "Every path a request names (a scenario, its variants, a save, a journal)\n" ..
         "must lie in the folder keel serve runs in, or DIR: others are refused.\n" ..
         "  --stdio         the transport: standard input and output\n" ..
         "  --root DIR      the folder requests' paths are confined to, and start from\n" ..
         "  --http          the transport: a WebSocket at /ws, and the play page at / (doc/viewer.md)\n" ..
         "  --bind ADDR     the address to listen on (default 127.0.0.1: this machine only)\n" ..
         "  --port N        the port (default 8080; 0: any free one)\n" ..
         "  --seat SIDE[=KIND]  a seat: a person (the server prints a URL with its secret token)\n" ..
         "                  or a player the server runs: random, greedy, mcts[:k=v,...]; none: one\n" ..
         "                  page plays every side (hot seat). Seats need one SCENARIO: the game\n" ..
         "  --games DIR     the folder saves are written to and loaded from (default: games)\n" ..
         "  SCENARIO...     the scenarios a page may open (default: scenarios/*.lua); the first\n" ..
         "                  is opened at the start when one is given\n" ..
         limits.help { cpu = "the CPU limit of one request's rule code" } .. "\n" ..
         "Exit status: 0 at the end of input or after {\"op\":\"quit\"}, 2 usage.",
}

local function cwd()
  local p = io.popen("pwd")
  local d = p and p:read("l")
  if p then p:close() end
  return d or "."
end

-- keel serve --http: a table for the scenarios given, its seats, until stopped
local function http(opts, rest, l)
  local serve_http = require "keel.serve_http"
  local libs, why = serve_http.libs()
  if not libs then io.stderr:write(why, "\n"); return 1 end
  local port = opts.port and math.tointeger(tonumber(opts.port)) or serve_http.PORT
  if not port or port < 0 or port > 65535 then cli.usage_error(("--port wants a port number, got '%s'"):format(opts.port)) end
  local bind = opts.bind or "127.0.0.1"
  local seats = {}
  for _, s in ipairs(opts.seat or {}) do
    local seat, err = serve_http.parse_seat(s)
    if not seat then cli.usage_error(err) end
    for _, o in ipairs(seats) do
      if o.side == seat.side then cli.usage_error(("--seat %s: the side has a seat already"):format(seat.side)) end
    end
    seats[#seats + 1] = seat
  end
  local keel = require "keel"
  local scenarios = {}
  if #rest == 0 then
    local p = io.popen("ls scenarios/*.lua 2>/dev/null")
    for f in p:lines() do rest[#rest + 1] = f end
    p:close()
  end
  for _, f in ipairs(rest) do
    local real, kind = keel.file.find_real(f)
    if not real or kind ~= "file" then cli.usage_error(("no scenario file '%s'"):format(f)) end
    -- as given: the journal's header names it as keel run's does
    scenarios[#scenarios + 1] = { name = f:match("([^/]+)%.lua$") or f, path = f }
  end
  if #seats > 0 and #rest ~= 1 then cli.usage_error("seats are a game's: give one SCENARIO with --seat") end
  local games = opts.games or "games"
  os.execute("mkdir -p '" .. games:gsub("'", "'\\''") .. "'")
  games = keel.file.find_real(games) or games
  local tbl, err = serve_http.new_table {
    scenarios = scenarios, seats = seats, games = games, cpu = l.cpu, memory = l.memory, cwd = cwd(),
    open = #opts.given > 0 and scenarios[1].path or nil,
    log = function(msg) io.stderr:write(msg, "\n") end,
  }
  if not tbl then io.stderr:write(tostring(err), "\n"); return 1 end
  serve_http.run(tbl, { bind = bind, port = port, print = function(host, p)
    local base = ("http://%s:%d/"):format(host:find(":", 1, true) and ("[" .. host .. "]") or host, p)
    local reach = bind == "127.0.0.1" and " (this machine only; --bind ADDR to open it)"
      or " (open to the network: whoever has a seat's URL plays that seat)"
    print(("keel serve: listening on %s:%d%s"):format(host, p, reach))
    if tbl.hot_token then
      print(("keel serve: hot seat, every side on one page: %s?token=%s"):format(base, tbl.hot_token))
    end
    for _, s in ipairs(seats) do
      if s.kind == "person" then
        print(("keel serve: %s's seat: %s?token=%s"):format(s.side, base, s.token))
      else
        print(("keel serve: %s is played by %s"):format(s.side, s.spec))
      end
    end
    io.stdout:flush()
  end })
  return 0
end

function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { stdio = "flag", root = "value", http = "flag",
    bind = "value", port = "value", seat = "list", games = "value" })
  local l = limits.resolve(cli.limits(opts))
  if opts.http and opts.stdio then cli.usage_error("serve takes one transport: --stdio or --http") end
  if opts.http then
    if opts.root then cli.usage_error("--root is --stdio's; over HTTP a client names no path (--games DIR)") end
    opts.given = { table.unpack(rest) }
    return http(opts, rest, l)
  end
  for _, o in ipairs { "bind", "port", "seat", "games" } do
    if opts[o] then cli.usage_error(("--%s is --http's"):format(o)) end
  end
  if #rest > 0 then cli.usage_error(("serve takes no arguments, got '%s'"):format(rest[1])) end
  if not opts.stdio then cli.usage_error("serve needs a transport: --stdio or --http") end
  local keel = require "keel"
  local json = require "keel.json"
  local root
  if opts.root then
    local kind
    root, kind = keel.file.find_real(opts.root)
    if not root or kind ~= "folder" then cli.usage_error(("--root wants a folder, got '%s'"):format(opts.root)) end
  end
  local sb = keel.sandbox.new { memory = l.memory }
  local start = { cpu = l.cpu, cwd = cwd(), root = root }
  local ok, err = sb:call("keel.serve", "start", start)
  if not ok then error("serve: " .. tostring(err), 0) end
  for line in io.stdin:lines() do
    if line:match("%S") then
      local r = table.pack(sb:call("keel.serve", "handle_line", line))
      local out, quit = r[2], r[3]
      if not r[1] then
        -- the sandbox state gave up (out of memory): the game is gone
        local req = json.decode(line, { nulls = false })
        local id = type(req) == "table" and req.id or nil
        local resp = { id = id, ok = false, error = { kind = r[3] or "error",
          message = tostring(r[2]) .. "; the game is closed: open or load it again" } }
        local eok, text = pcall(json.encode, resp)
        if not eok then resp.id = nil; text = json.encode(resp) end   -- an id with no JSON form: none
        out = text
        quit = false
        sb:call("keel.serve", "start", start)
      end
      io.stdout:write(out, "\n")
      io.stdout:flush()
      if quit == true then break end
    end
  end
  sb:close()
  return 0
end

return M
