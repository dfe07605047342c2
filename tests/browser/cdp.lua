-- tests/browser/cdp.lua — a small client of the Chrome DevTools Protocol
-- for the browser tests: Debian's chromium, headless, spoken to over
-- --remote-debugging-pipe (the protocol's JSON messages, NUL-terminated, on
-- file descriptors 3 and 4, here two named pipes). No websocket, no npm, no
-- browser download: the chromium package is all it needs.
--
--   local cdp = dofile("tests/browser/cdp.lua")
--   local b = assert(cdp.launch { width = 1400, height = 900 })
--   local page = b:open("file:///...")          -- a tab, attached
--   page:eval("document.title")                  -- -> value
--   page:screenshot("build/x.png")
--   b:close()
local json = require "keel.json"

local M = {}

--- The chromium binary, or nil.
function M.find()
  for _, name in ipairs { "chromium", "chromium-browser" } do
    local p = io.popen("command -v " .. name .. " 2>/dev/null")
    local path = p:read("l")
    p:close()
    if path and path ~= "" then return path end
  end
end

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local B64_VALUE = {}
for i = 1, 64 do B64_VALUE[B64:byte(i)] = i - 1 end

--- Decode base64 text.
function M.base64_decode(s)
  local out, n, bits, acc = {}, 0, 0, 0
  for i = 1, #s do
    local v = B64_VALUE[s:byte(i)]
    if v then
      acc = (acc << 6) | v
      bits = bits + 6
      if bits >= 8 then
        bits = bits - 8
        n = n + 1
        out[n] = string.char((acc >> bits) & 0xff)
      end
    end
  end
  return table.concat(out)
end

local Browser = {}
Browser.__index = Browser
local Page = {}
Page.__index = Page

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

--- Start a headless chromium with a profile of its own, spoken to over pipes.
---@param opts? {exe?: string, timeout?: integer, log?: string}
---@return table|nil browser, string? why
function M.launch(opts)
  opts = opts or {}
  local exe = opts.exe or M.find()
  if not exe then return nil, "no chromium installed" end
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. sh_quote(dir .. "/profile") .. " && mkfifo " .. sh_quote(dir .. "/in") .. " " ..
    sh_quote(dir .. "/out")))
  local log = opts.log or (dir .. "/chromium.log")
  -- the shell opens "in" then "out"; this side opens them in the same order
  local cmd = ("timeout %d %s --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check " ..
    "--disable-background-networking --disable-component-update --disable-sync --disable-extensions " ..
    "--disable-default-apps --mute-audio --hide-scrollbars --user-data-dir=%s --remote-debugging-pipe " ..
    "about:blank 3<%s 4>%s 2>%s &"):format(opts.timeout or 120, sh_quote(exe), sh_quote(dir .. "/profile"),
    sh_quote(dir .. "/in"), sh_quote(dir .. "/out"), sh_quote(log))
  os.execute(cmd)
  local w = assert(io.open(dir .. "/in", "wb"))
  local r = assert(io.open(dir .. "/out", "rb"))
  w:setvbuf("no")
  local self = setmetatable({ dir = dir, w = w, r = r, next_id = 0, events = {}, log = log }, Browser)
  local ok, err = pcall(self.call, self, "Browser.getVersion")
  if not ok then self:close() return nil, "chromium did not answer: " .. tostring(err) end
  self.version = err.product
  return self
end

-- one message from the browser (nil at the end of the pipe)
function Browser:_read()
  local buf, n = {}, 0
  local r = self.r
  while true do
    local chunk = r:read(1)
    if not chunk then return nil end
    if chunk == "\0" then return table.concat(buf) end
    n = n + 1
    buf[n] = chunk
  end
end

--- Send a command and wait for its answer; events met meanwhile are kept
--- in self.events. Raises the protocol's error.
---@param method string
---@param params? table
---@param session? string
function Browser:call(method, params, session)
  self.next_id = self.next_id + 1
  local id = self.next_id
  local msg = { id = id, method = method }
  if params and next(params) ~= nil then msg.params = params end
  if session then msg.sessionId = session end
  self.w:write(json.encode(msg), "\0")
  while true do
    local text = self:_read()
    if not text then error(method .. ": chromium closed the pipe (see " .. self.log .. ")", 0) end
    local m = json.decode(text)
    if m.id == id then
      if m.error then error(("%s: %s"):format(method, m.error.message), 0) end
      return m.result
    elseif m.method then
      self.events[#self.events + 1] = m
    end
  end
end

--- Open a tab at url, attached; returns a page.
function Browser:open(url, opts)
  opts = opts or {}
  local t = self:call("Target.createTarget", { url = "about:blank" })
  local a = self:call("Target.attachToTarget", { targetId = t.targetId, flatten = true })
  local page = setmetatable({ browser = self, session = a.sessionId, target = t.targetId }, Page)
  page:call("Page.enable")
  page:call("Runtime.enable")
  page:call("Network.enable")
  page:call("Emulation.setDeviceMetricsOverride", { width = opts.width or 1400, height = opts.height or 900,
    deviceScaleFactor = 1, mobile = false })
  page:call("Page.navigate", { url = url })
  return page
end

function Browser:close()
  if self.w then
    pcall(self.call, self, "Browser.close")
    self.w:close()
    while self:_read() do end   -- to the end of the pipe: chromium has exited
    self.r:close()
    self.w = nil
  end
  os.execute("rm -rf " .. sh_quote(self.dir))
end

function Page:call(method, params) return self.browser:call(method, params, self.session) end

--- Evaluate a JavaScript expression in the page; its value (JSON-able), or
--- raises with the page's exception.
function Page:eval(expr)
  local r = self:call("Runtime.evaluate", { expression = expr, returnByValue = true, awaitPromise = true })
  if r.exceptionDetails then
    local ex = r.exceptionDetails.exception
    error("page: " .. tostring(ex and ex.description or r.exceptionDetails.text), 2)
  end
  local v = r.result.value
  if v == json.null then return nil end
  return v
end

--- Wait until expr is truthy in the page (polling), at most `seconds`.
function Page:wait(expr, seconds)
  local deadline = os.time() + (seconds or 20)
  while true do
    local ok, v = pcall(self.eval, self, expr)
    if ok and v and v ~= json.null then return v end
    if os.time() > deadline then error("page: timed out waiting for " .. expr, 2) end
    os.execute("sleep 0.05")
  end
end

--- Press a key (keydown and keyup), as the keyboard would.
---@param key string e.g. "ArrowRight"
function Page:key(key)
  local codes = { ArrowRight = 39, ArrowLeft = 37, ArrowUp = 38, ArrowDown = 40, Home = 36, End = 35,
                  PageUp = 33, PageDown = 34 }
  local code = codes[key] or key:byte()
  local base = { key = key, code = codes[key] and key or nil, windowsVirtualKeyCode = code }
  local down = { type = codes[key] and "rawKeyDown" or "keyDown", text = not codes[key] and key or nil }
  for k, v in pairs(base) do down[k] = v end
  self:call("Input.dispatchKeyEvent", down)
  local up = { type = "keyUp" }
  for k, v in pairs(base) do up[k] = v end
  self:call("Input.dispatchKeyEvent", up)
end

--- Move the mouse to x, y and click there (left button).
function Page:click(x, y)
  self:call("Input.dispatchMouseEvent", { type = "mouseMoved", x = x, y = y })
  self:call("Input.dispatchMouseEvent", { type = "mousePressed", x = x, y = y, button = "left", clickCount = 1 })
  self:call("Input.dispatchMouseEvent", { type = "mouseReleased", x = x, y = y, button = "left", clickCount = 1 })
end

--- Move the mouse to x, y.
function Page:hover(x, y)
  self:call("Input.dispatchMouseEvent", { type = "mouseMoved", x = x, y = y })
end

--- Save a PNG of the page's viewport; returns its bytes.
function Page:screenshot(path)
  local r = self:call("Page.captureScreenshot", { format = "png" })
  local png = M.base64_decode(r.data)
  if path then
    local f = assert(io.open(path, "wb"))
    f:write(png)
    f:close()
  end
  return png
end

--- The events of this page with this method, so far.
function Page:events(method)
  local out = {}
  for _, e in ipairs(self.browser.events) do
    if e.method == method and e.sessionId == self.session then out[#out + 1] = e.params end
  end
  return out
end

return M
