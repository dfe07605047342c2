--- keel.view — the replay viewer's page: one self-contained HTML file (no
-- server, no network) holding the board's SVG, the steps of a game as
-- JSON, and the viewer's style and script (scripts/keel/view/viewer.css,
-- viewer.js), inlined.
--
--   local html = require("keel.view").page(data, board_svg)
--
-- data comes from keel.cli.view's collect (a journal replayed, a snapshot
-- per step); doc/viewer.md describes both.
local keel = require "keel"
local json = require "keel.json"

local M = {}

--- Where the page's style and script are.
M.ASSETS = keel.script_dir .. "/keel/view/"

local function asset(name)
  local s, err = keel.file.read(M.ASSETS .. name)
  if not s then error("keel view: cannot read its page asset: " .. tostring(err), 0) end
  return s
end

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }))
end

--- JSON that is safe inside <script>: every "<" written as \u003c (it only
--- occurs inside strings).
---@param v any
---@return string
function M.script_json(v)
  return (json.encode(v):gsub("<", "\\u003c"))
end

local BODY = [[
<header><h1>%s</h1><span class="meta">%s</span></header>
<main>
<div id="board">
%s
<div id="zoom">
<button id="zoom-in" title="zoom in (+)">+</button>
<button id="zoom-out" title="zoom out (-)">&#8722;</button>
<button id="fit-action" class="wide" title="frame the units">action</button>
<button id="fit-map" class="wide" title="the whole map">map</button>
</div>
</div>
<aside>
<section id="controls">
<div class="row">
<button id="first" title="first step (Home)">|&#9664;</button>
<button id="prev" title="step back (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="next" title="step forward (right arrow)">&#9654;</button>
<button id="last" title="last step (End)">&#9654;|</button>
<span id="step-label"></span>
</div>
<div class="toggles">
<label><input type="checkbox" id="follow" checked> follow the action</label>
<label><input type="checkbox" id="show-changes"> state changes</label>
<label><input type="checkbox" id="show-cargo"> cargo</label>
</div>
%s
</section>
<section id="status"><h2>Status</h2><table><tbody id="status-rows"></tbody></table></section>
<section id="narration"><h2>Narration</h2><div id="step-title"></div><div id="lines" class="lines"></div></section>
<section id="unit"><h2>Unit</h2><div id="unit-info"></div></section>
<section id="offboard" hidden><h2>Off the board</h2><ul id="offboard-list"></ul></section>
<section id="timeline"><h2>Timeline</h2><ol id="timeline-list"></ol></section>
</aside>
</main>
]]

--- The page.
---@param data table the steps and what they refer to (keel.cli.view collect)
---@param board_svg? string the board as keel.render draws it (nil: a game without a map)
---@return string html
function M.page(data, board_svg)
  local svg = board_svg and board_svg:gsub("^<%?xml[^>]*>%s*", "")
    or '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><text x="20" y="40">this game has no map</text></svg>'
  local meta = ("seed %s · %d steps · journal %s · keel %s"):format(tostring(data.seed), #data.steps - 1,
    tostring(data.journal), tostring(data.keel))
  local notes = ""
  if data.notes then
    local ns = {}
    for i, n in ipairs(data.notes) do ns[i] = esc(n) end
    notes = '<div class="notes">' .. table.concat(ns, "<br>") .. "</div>"
  end
  local title = tostring(data.name or data.scenario or "keel game")
  return table.concat {
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    "<meta name=\"generator\" content=\"keel view ", esc(data.keel or ""), "\">\n",
    "<title>", esc(title), " — keel view</title>\n<style>\n", asset("viewer.css"), "</style>\n</head>\n<body>\n",
    BODY:format(esc(title), esc(meta), svg, notes),
    '<script type="application/json" id="keel-data">', M.script_json(data), "</script>\n",
    "<script>\n", asset("viewer.js"), "</script>\n</body>\n</html>\n",
  }
end

return M
