--- keel serve --stdio — the protocol for user interfaces over standard
-- input and output: one JSON request a line in, one JSON response a line
-- out (keel.serve; doc/protocol.md).
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "speak the JSON-lines protocol for user interfaces",
  usage = "keel serve --stdio [--root DIR] [--memory MIB] [--cpu SECONDS]",
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
         "  --stdio         the transport: standard input and output (the only one)\n" ..
         "  --root DIR      the folder requests' paths are confined to, and start from\n" ..
         limits.help { cpu = "the CPU limit of one request's rule code" } .. "\n" ..
         "Exit status: 0 at the end of input or after {\"op\":\"quit\"}, 2 usage.",
}

local function cwd()
  local p = io.popen("pwd")
  local d = p and p:read("l")
  if p then p:close() end
  return d or "."
end

function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { stdio = "flag", root = "value" })
  if #rest > 0 then cli.usage_error(("serve takes no arguments, got '%s'"):format(rest[1])) end
  if not opts.stdio then cli.usage_error("serve needs a transport: --stdio") end
  local l = limits.resolve(cli.limits(opts))
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
