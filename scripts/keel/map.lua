--- keel.map — the map format: parse a map text with LPeg into a description
-- (a list of statements with their positions), then feed it to a keel.Board.
--
--   local map = require "keel.map"
--   local board, err = map.load("scenarios/maps/crete.map")
--   local desc, err = map.parse(text, "name.map")   -- description only
--   local owners = map.get_owners(board)             -- the owners a game starts with
--
-- A board holds the map only. Who owns a hex is game state: a map's
-- `owner`/`owners` statements are the owners a game starts with, kept here
-- beside the board they came with, and seeded into the state by keel.game.
--
-- Errors read "file:line:col: found X, expected Y" (with the problem first
-- when it is not plain syntax). See doc/map-format.md.
-- luacheck: max line length 130
local lpeg = require "lpeg"
local keel = require "keel"
local sorted_keys = require("keel.keys").sorted

local P, R, S, C, Ct, Cc, Cp, Cmt, Cg = lpeg.P, lpeg.R, lpeg.S, lpeg.C, lpeg.Ct, lpeg.Cc, lpeg.Cp, lpeg.Cmt, lpeg.Cg
local error, type, tostring, tonumber, pcall, ipairs, pairs = error, type, tostring, tonumber, pcall, ipairs, pairs
local setmetatable = setmetatable
local concat = table.concat
local byte, fmt, sub = string.byte, string.format, string.sub

local M = {}

-- board -> the starting owners of a map: {{side =, hexes =}, ...}, or
-- {numbering =, ownership =} (the statements) until first asked
local declared = setmetatable({}, { __mode = "k" })
-- board -> its declared owners as a keel.state owner base (M.seed_owners)
local bases = setmetatable({}, { __mode = "k" })

--- Longest line accepted, in bytes (a 256-column grid row is ~512).
M.MAX_LINE = 65536

M.TERRAINS = { "all-sea", "coastal", "all-land", "restricted", "lake" }
M.FEATURES = { "all-water", "partial-water", "all-land", "river", "major-river",
  "great-river", "canal", "lake", "narrow-strait", "estuary", "prohibited" }
M.PORT_SIZES = { "minor", "standard", "medium", "major", "great" }
--- Default terrain legend; `_` leaves a hex as it is in every grid.
M.DEFAULT_LEGEND = { ["."] = "all-sea", c = "coastal", L = "all-land", r = "restricted",
  ["~"] = "lake" }
--- Compass names of the six directions (keel.hex directions 0..5).
M.COMPASS = {
  flat = { "SE", "NE", "N", "NW", "SW", "S" },
  pointy = { "E", "NE", "NW", "W", "SW", "SE" },
}

local function set_of(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end
local TERRAIN_SET, FEATURE_SET, PORT_SET = set_of(M.TERRAINS), set_of(M.FEATURES), set_of(M.PORT_SIZES)
local WATER_CLASS = set_of { "all-water", "partial-water", "all-land" }
local RIVERINE = set_of { "river", "major-river", "great-river", "canal", "lake" }

---------------------------------------------------------------------------
-- grammar (compiled once, when the module loads)
---------------------------------------------------------------------------

-- raise a syntax error at position i
local function expect(patt, what)
  return patt + Cmt(P(0), function(_, i) error({ map_error = true, pos = i, expected = what }, 0) end)
end

local ws = S" \t"
local sp = ws ^ 0
local sp1 = ws ^ 1
local comment = "#" * (1 - P"\n") ^ 0
local nl = P"\r" ^ -1 * P"\n"
local eol = sp * comment ^ -1 * (nl + -P(1))
local blank = sp * comment ^ -1 * nl
local namechar = R("AZ", "az", "09") + S"_-"
local wordend = -namechar

M.SECTION_NAME_MAX = 15   -- keel.h KEEL_SECTION_NAME_MAX

-- Numbers are bounded, so that nothing downstream (offsets, sizes,
-- capacities, C ints) ever sees an overflow or a float.
M.MAX_NUMBER = 999999999
local int = Cmt(C(P"-" ^ -1 * R"09" ^ 1), function(_, i, text)
  local n = #text <= 11 and math.tointeger(tonumber(text))
  if not n or n > M.MAX_NUMBER or n < -M.MAX_NUMBER then
    error({ map_error = true, pos = i - #text,
      expected = ("a number between %d and %d"):format(-M.MAX_NUMBER, M.MAX_NUMBER) }, 0)
  end
  return i, n
end)
local word = C(namechar ^ 1)
local str = P'"' * C((1 - S'"\n') ^ 0) * expect(P'"', 'a closing \'"\'')
local label = C((namechar ^ 1 * ":") ^ -1 * namechar ^ 1)   -- checked by the grid
local side_label = C((namechar ^ 1 * ":") ^ -1 * namechar ^ 1 * "/" * (namechar ^ 1 * ":") ^ -1 * namechar ^ 1)
-- a hex item: a label, or a rectangle "SEC:CCRR..CCRR"
local hexitem = Ct(Cp() * label * (P".." * C(R"09" ^ 1)) ^ -1)
local hexlist = Ct(hexitem * (sp1 * hexitem) ^ 0)

local function kw(k) return P(k) * wordend end
-- a positioned argument: {pos, value}
local function arg(patt) return Ct(Cp() * patt) end

local function stmt(name, body)
  return Ct(Cg(Cc(name), "kind") * Cg(Cp(), "pos") * kw(name) * body * expect(eol, "end of line"))
end

local hexes_opt = Ct(Cp() * (C(kw"flat" + kw"pointy" + kw"odd" + kw"even") +
  C(kw"digits") * sp * expect(int, "a number of digits") +
  C(kw"first") * sp * expect(int, "the first column number") * sp *
    expect(int, "the first row number")))

local row_sym = R"!~" - S"#{}"
local grid_row = Ct(Cp() * C((row_sym + ws) ^ 1)) * sp * comment ^ -1 * nl
-- a byte of a multi-byte (UTF-8) character where a one-character symbol goes:
-- the error points at it, not at the start of its line
local SYMBOL = "a symbol of one printable ASCII character"
local non_ascii = #R"\128\255" * expect(P(false), SYMBOL) * P(1)   -- P(1): never empty, for LPeg
local block_end = sp * P"}"
local function grid_block()
  return sp * expect(P"{", "'{' opening the grid") * eol *
    Ct((blank + (-block_end * (grid_row + sp * (row_sym + ws) ^ 0 * non_ascii))) ^ 0) *
    expect(block_end, "a grid row or '}' closing the grid")
end
local legend_entry = sp * Ct(Cp() * C(row_sym) * sp1 * (arg(str) + arg(word))) * eol
-- a symbol of more than one character: the error points at it, not at the
-- indentation before it
local long_symbol = sp * #(row_sym * row_sym) * expect(P(false), SYMBOL .. ", then its value") * P(1)
local legend_block = sp * expect(P"{", "'{' opening the legend") * eol *
  Ct((blank + (-block_end * (legend_entry + long_symbol + sp * non_ascii))) ^ 0) *
  expect(block_end, "a legend entry 'SYMBOL VALUE' or '}' closing the legend")

local dirgroup = Ct(arg(word) * (sp1 * arg(word)) ^ 0)

local statements = {
  stmt("map", sp1 * Cg(expect(str, "the map's name in quotes"), "name")),
  stmt("hexes", Cg(Ct((sp1 * hexes_opt) ^ 1), "opts")),
  stmt("section", sp * Cg(arg(expect(word, "a section name")), "name") * sp *
    expect(kw"at", "'at'") * sp * Cg(arg(expect(int, "a column offset")), "col") * sp *
    Cg(arg(expect(int, "a row offset")), "row") * sp * expect(kw"size", "'size'") * sp *
    Cg(arg(expect(int, "a number of columns")), "cols") * sp *
    Cg(arg(expect(int, "a number of rows")), "rows")),
  stmt("default", sp * Cg(arg(expect(word, "a terrain")), "terrain")),
  stmt("legend", sp * Cg(arg(expect(C(kw"terrain" + kw"zone" + kw"owner"),
    "terrain, zone or owner")), "layer") * Cg(legend_block, "entries")),
  stmt("terrain", sp * expect(kw"at", "'at'") * sp * Cg(arg(expect(label, "a hex label")), "at") *
    Cg(grid_block(), "rows")),
  stmt("zones", sp * expect(kw"at", "'at'") * sp * Cg(arg(expect(label, "a hex label")), "at") *
    Cg(grid_block(), "rows")),
  stmt("owners", sp * expect(kw"at", "'at'") * sp * Cg(arg(expect(label, "a hex label")), "at") *
    Cg(grid_block(), "rows")),
  stmt("hex", sp * Cg(arg(expect(label, "a hex label")), "hex") * sp *
    Cg(arg(expect(word, "a terrain")), "terrain")),
  stmt("side", sp1 * Cg(Ct(arg(expect(side_label, "a hexside label like 33:1223/1224")) *
    (sp1 * arg(side_label)) ^ 0), "sides") * sp1 *
    Cg(Ct(arg(expect(word, "a hexside feature")) * (sp1 * arg(word)) ^ 0), "features") *
    (sp1 * Cg(arg(str), "name")) ^ -1),
  stmt("strait", sp * Cg(arg(expect(side_label, "a hexside label")), "side") *
    (sp1 * kw"through" * sp1 * Cg(Ct(arg(expect(side_label, "a hexside label")) *
      (sp1 * arg(side_label)) ^ 0), "through")) ^ -1),
  stmt("coasts", sp * Cg(arg(expect(label, "a hex label")), "hex") * sp1 *
    Cg(Ct(expect(dirgroup, "compass directions") *
      (sp * "/" * sp * expect(dirgroup, "compass directions")) ^ 0), "groups")),
  stmt("port", sp * Cg(arg(expect(label, "a hex label")), "hex") * sp *
    Cg(arg(expect(word, "a port size")), "size") *
    (sp1 * (Cg(Cc(true) * kw"inland", "inland") +
      kw"capacity" * sp * Cg(arg(expect(int, "a capacity")), "capacity") +
      Cg(arg(str), "name"))) ^ 0),
  stmt("place", sp * Cg(arg(expect(str, "a place name in quotes")), "name") * sp *
    (P"=" * sp) ^ -1 * Cg(arg(expect(label, "a hex label")), "hex")),
  stmt("owner", sp * Cg(arg(expect(word + str, "an owner name")), "name") *
    (sp1 * Cg(hexlist, "hexes")) ^ -1),
  stmt("zone", sp * Cg(arg(expect(str + word, "a zone name")), "name") *
    (sp1 * Cg(hexlist, "hexes")) ^ -1),
  stmt("seaboxes", sp * expect(kw"radius", "'radius'") * sp *
    Cg(arg(expect(int, "a radius")), "radius") * sp * expect(kw"origin", "'origin'") * sp *
    Cg(arg(expect(label, "a hex label")), "origin")),
  stmt("cd", sp * Cg(arg(expect(label, "a hex label")), "hex") * sp *
    Cg(arg(expect(int, "a coast-defence level")), "level")),
  stmt("tag", sp * Cg(arg(expect(word + str, "a tag name")), "name") * sp1 *
    Cg(expect(hexlist, "hex labels"), "hexes")),
}

local KEYWORDS = {}
local any_stmt = P(false)
for _, s in ipairs(statements) do any_stmt = any_stmt + s end
for _, k in ipairs { "map", "hexes", "section", "default", "legend", "terrain", "zones", "owners",
  "hex", "side", "strait", "coasts", "port", "place", "owner", "zone", "seaboxes", "cd", "tag" } do
  KEYWORDS[#KEYWORDS + 1] = k
end
M.KEYWORDS = KEYWORDS

local document = Ct((blank + sp * any_stmt) ^ 0) *
  expect(sp * -P(1), "a statement (one of " .. concat(KEYWORDS, ", ") .. ")")

---------------------------------------------------------------------------
-- positions and messages
---------------------------------------------------------------------------

local function line_col(text, pos)
  local line, start = 1, 1
  local i = 1
  while true do
    local j = text:find("\n", i, true)
    if not j or j >= pos then break end
    line = line + 1
    start = j + 1
    i = j + 1
  end
  return line, pos - start + 1
end

local function show(s)
  s = s:gsub("[%c\128-\255\"\\]", function(c) return fmt("\\x%02X", byte(c)) end)
  return s
end

-- what the text holds at pos, for "found ..."
local function found_at(text, pos)
  if pos > #text then return "end of file" end
  local c = sub(text, pos, pos)
  if c == "\n" or c == "\r" then return "end of line" end
  local tok = text:match("^[^%s]+", pos) or c
  if #tok > 24 then tok = sub(tok, 1, 24) .. "..." end
  return "'" .. show(tok) .. "'"
end

local MapError = {}
MapError.__index = MapError
MapError.__tostring = function(e) return e.message end

local function make_error(text, file, pos, expected, problem, found)
  local line, col = line_col(text, pos)
  found = found or found_at(text, pos)
  local msg = fmt("%s:%d:%d: %sfound %s, expected %s", file, line, col,
    problem and (problem .. ": ") or "", found, expected)
  return setmetatable({ file = file, line = line, col = col, expected = expected,
    found = found, problem = problem, message = msg }, MapError)
end

---------------------------------------------------------------------------
-- parse
---------------------------------------------------------------------------

--- Parse a map text into its description: a list of statements, each a
--- table with `kind`, `pos` and its fields (see doc/map-format.md).
---@param text string
---@param file? string name used in error messages
---@return table|nil desc, string|nil err
function M.parse(text, file)
  file = file or "map"
  if type(text) ~= "string" then return nil, file .. ":1:1: found no text, expected a map" end
  -- a line longer than MAX_LINE is refused before the grammar runs
  local i, n = 1, #text
  while i <= n do
    local j = text:find("\n", i, true) or (n + 1)
    if j - i > M.MAX_LINE then
      local e = make_error(text, file, i + M.MAX_LINE, ("at most %d characters on a line"):format(M.MAX_LINE),
        "line too long", ("a line of %d characters"):format(j - i))
      return nil, e.message, e
    end
    i = j + 1
  end
  local ok, res = pcall(lpeg.match, document, text)
  if not ok then
    if type(res) == "table" and res.map_error then
      local e = make_error(text, file, res.pos, res.expected)
      return nil, e.message, e
    end
    error(res, 0)
  end
  return { file = file, text = text, statements = res }
end

---------------------------------------------------------------------------
-- build: feed a description to a keel.Board
---------------------------------------------------------------------------

local SIDE = keel.board.SIDE

-- A label's section prefix ("SEC:" or ""), its digits, and its column and
-- row of d digits each.
local function label_parts(lbl, d)
  local sec, digits = lbl:match("^(.-:?)(%d+)$")
  if not digits then return nil end
  return sec, digits, tonumber(digits:sub(1, d)), tonumber(digits:sub(d + 1))
end

-- The format that makes a label again from (section prefix, column, row).
local function label_format(d) return "%s%0" .. d .. "d%0" .. d .. "d" end

local Builder = {}
Builder.__index = Builder

function Builder:fail(pos, expected, problem, found)
  local e = make_error(self.text, self.file, pos, expected, problem, found)
  error({ built_error = e }, 0)
end

-- reason from a C call: "what: phrase" -> phrase
local function phrase(reason) return (tostring(reason):gsub("^[^:]*: ", "")) end

function Builder:board_ready(pos)
  if self.board then return self.board end
  self:fail(pos, "a 'section' statement before any hex data", "no map section declared yet",
    "hex data")
end

function Builder:hex(a)
  local pos, lbl = a[1], a[2]
  local b = self:board_ready(pos)
  local h, why = b:hex(lbl)
  if not h then
    local p = phrase(why)
    if p:find("unknown map section", 1, true) then
      local sec = lbl:match("^([^:]*):")
      self:fail(pos, "a declared section (" .. concat(b:numbering().sections, ", ") .. ")",
        "unknown map section", "'" .. show(sec) .. "'")
    elseif p:find("not on the board", 1, true) then
      self:fail(pos, "a hex inside its section", "hex off the board", "'" .. show(lbl) .. "'")
    end
    local n = b:numbering()
    self:fail(pos, ("a label [SECTION:]%s with %d-digit column and row"):format(
      ("C"):rep(n.digits) .. ("R"):rep(n.digits), n.digits), "bad hex label", "'" .. show(lbl) .. "'")
  end
  return h
end

function Builder:side(a)
  local pos, lbl = a[1], a[2]
  local b = self:board_ready(pos)
  local s, why = b:side(lbl)
  if not s then
    local p = phrase(why)
    -- find the hex that is wrong for a precise message
    local l1, l2 = lbl:match("^(.-)/(.*)$")
    local sec = l1:match("^([^:]*):")
    if sec and not l2:find(":", 1, true) then l2 = sec .. ":" .. l2 end
    self:hex({ pos, l1 })
    self:hex({ pos + #l1 + 1, l2 })
    if p:find("not adjacent", 1, true) then
      self:fail(pos, "a hexside between two adjacent hexes", "hexes not adjacent",
        "'" .. show(lbl) .. "'")
    end
    self:fail(pos, "a hexside label like 33:1223/1224", "bad hexside label", "'" .. show(lbl) .. "'")
  end
  return s
end

-- check a hex list (labels and rectangles) and give its rectangles: {from
-- hex, to hex} each, a label as a rectangle of one hex. Both corners of a
-- rectangle are in its section, so every hex between them is too.
function Builder:rects(list)
  local out = {}
  for _, item in ipairs(list) do
    local pos, lbl, to = item[1], item[2], item[3]
    if not to then
      local h = self:hex({ pos, lbl })
      out[#out + 1] = { h, h }
    else
      local b = self:board_ready(pos)
      local n = b:numbering()
      local d = n.digits
      local sec, digits, c1, r1 = label_parts(lbl, d)
      if not digits or #digits ~= 2 * d or #to ~= 2 * d or not to:find("^%d+$") then
        self:fail(pos, ("a range SEC:CCRR..CCRR with %d-digit columns and rows"):format(d),
          "bad hex range", "'" .. show(lbl .. ".." .. to) .. "'")
      end
      local a = self:hex({ pos, lbl })
      local z = self:hex({ pos, sec .. to })
      local _, _, c2, r2 = label_parts(to, d)
      if c2 < c1 or r2 < r1 then
        self:fail(pos, "a range from its top-left to its bottom-right hex", "empty hex range",
          "'" .. show(lbl .. ".." .. to) .. "'")
      end
      out[#out + 1] = { a, z }
    end
  end
  return out
end

function Builder:check(ok, why, pos, expected, problem, found)
  if ok then return ok end
  self:fail(pos, expected, problem or phrase(why), found)
end

-- A board call refused (why) what the statement at pos gives: when the
-- board has it already ("defined twice"), fail with dup_expected, dup_problem
-- and dup_found; otherwise as not giving `expected`.
function Builder:refused(why, pos, expected, dup_expected, dup_problem, dup_found)
  if phrase(why):find("defined twice", 1, true) then self:fail(pos, dup_expected, dup_problem, dup_found) end
  self:check(false, why, pos, expected)
end

local function terrain_name(self, a)
  local t = a[2]
  if not TERRAIN_SET[t] then
    self:fail(a[1], "a terrain (one of " .. concat(M.TERRAINS, ", ") .. ")", "unknown terrain",
      "'" .. show(t) .. "'")
  end
  return t
end

local function new_board(self, pos)
  local o = self.numbering
  local b = keel.board.new(o)
  self.board = b
  self.compass = M.COMPASS[o.pointy and "pointy" or "flat"]
  return b, pos
end

local handlers = {}

function handlers.map(self, s) self.name = s.name end

function handlers.hexes(self, s)
  if self.board then self:fail(s.pos, "'hexes' before the first section", "numbering comes too late", "'hexes'") end
  if self.seen_hexes then self:fail(s.pos, "one 'hexes' statement", "numbering declared twice", "'hexes'") end
  self.seen_hexes = true
  local o = self.numbering
  for _, opt in ipairs(s.opts) do
    local pos, k = opt[1], opt[2]
    if k == "flat" then o.pointy = false
    elseif k == "pointy" then o.pointy = true
    elseif k == "odd" or k == "even" then o.shift = k
    elseif k == "digits" then
      if opt[3] < 1 or opt[3] > 4 then self:fail(pos, "1 to 4 digits", "bad digits", tostring(opt[3])) end
      o.digits = opt[3]
    elseif k == "first" then
      if opt[3] < 0 or opt[4] < 0 then self:fail(pos, "first column and row >= 0", "bad first hex", tostring(opt[3])) end
      o.first_col, o.first_row, o.first_pos = opt[3], opt[4], pos
    end
  end
  local lim = math.tointeger(10 ^ o.digits)
  if o.first_col >= lim or o.first_row >= lim then
    self:fail(o.first_pos, ("a first column and row that fit in %d digits (below %d)"):format(o.digits, lim),
      "bad first hex", o.first_col .. " " .. o.first_row)
  end
end

function handlers.section(self, s)
  local b = self.board or new_board(self, s.pos)
  if self.data_seen then
    self:fail(s.pos, "every 'section' before the hex data", "section after hex data", "'section'")
  end
  if #s.name[2] > M.SECTION_NAME_MAX then
    self:fail(s.name[1], ("a section name of at most %d characters"):format(M.SECTION_NAME_MAX),
      "section name too long", ("%d characters"):format(#s.name[2]))
  end
  if s.cols[2] < 1 or s.rows[2] < 1 then
    self:fail(s.cols[1], "a size of at least 1 column and 1 row", "empty section", tostring(s.cols[2]))
  end
  local n = self.numbering
  local lim = 10 ^ n.digits
  for _, d in ipairs({ { s.cols, n.first_col, "column" }, { s.rows, n.first_row, "row" } }) do
    local size, first, what = d[1], d[2], d[3]
    if first + size[2] > lim then
      self:fail(size[1], ("a size whose printed %s numbers fit in %d digits (%d to %d)"):format(what, n.digits,
        first, math.tointeger(lim) - 1), "section too large",
        ("%s numbers %d to %d"):format(what, first, first + size[2] - 1))
    end
  end
  local ok, why = b:add_section(s.name[2], s.col[2], s.row[2], s.cols[2], s.rows[2])
  if not ok then
    local p = phrase(why)
    if p:find("defined twice", 1, true) then
      self:fail(s.name[1], "a new section name", "duplicate section", "'" .. show(s.name[2]) .. "'")
    end
    self:fail(s.col[1], "an offset that keeps the column shift (even on the shifted axis) and a size within the digits",
      "bad section placement", p)
  end
end

function handlers.default(self, s) self.default_terrain = terrain_name(self, s.terrain) end

function handlers.legend(self, s)
  local layer = s.layer[2]
  local lg = self.legends[layer]
  for _, e in ipairs(s.entries) do
    local sym, v = e[2], e[3]
    if sym == "_" then self:fail(e[1], "a symbol other than '_' (it means: leave the hex)", "reserved symbol", "'_'") end
    if layer == "terrain" then terrain_name(self, v) end
    lg[sym] = v[2]
  end
end

-- Walk a grid block: calls fn(hex_label_pos, col, row, sym, pos) per symbol.
function Builder:grid(s, kind, legend, apply_row)
  local b = self:board_ready(s.pos)
  local at = self:hex(s.at)
  local n = b:numbering()
  local d = n.digits
  local sec, _, c0, r0 = label_parts(s.at[2], d)
  local f = label_format(d)
  local known = sorted_keys(legend)
  for ri, row in ipairs(s.rows) do
    local rowpos, txt = row[1], row[2]
    local r = r0 + ri - 1
    local first
    if ri == 1 then first = at
    else
      local lbl = f:format(sec, c0, r)
      first = b:hex(lbl)
      if not first then self:fail(rowpos, "a row inside the section", kind .. " grid runs off the board",
        "row " .. ri .. " ('" .. show(lbl) .. "')") end
    end
    apply_row(first, rowpos, txt, known, c0, r, sec, f)
  end
end

-- A pattern that finds the first symbol of a grid row that the legend lacks.
local function unknown_symbol(legend)
  local cls = { "[^ \t_" }
  for sym in pairs(legend) do cls[#cls + 1] = sym:find("^%w$") and sym or "%" .. sym end
  cls[#cls + 1] = "]"
  return concat(cls)
end

function handlers.terrain(self, s)
  local legend = self.legends.terrain
  local unknown = unknown_symbol(legend)
  self:grid(s, "terrain", legend, function(first, rowpos, txt, known, c0, r, sec, f)
    local ok, why, i, at = self.board:fill_row("terrain", first, txt, legend)
    if not ok then
      -- a symbol the legend lacks anywhere in the row comes first
      local u = txt:find(unknown)
      if u then
        self:fail(rowpos + u - 1, "a terrain symbol (one of " .. concat(known, " ") .. " _)",
          "unknown terrain symbol", "'" .. show(sub(txt, u, u)) .. "'")
      end
      local p = phrase(why)
      local lbl = f:format(sec, c0 + at - 1, r)
      if p:find("defined twice", 1, true) then
        self:fail(rowpos + i - 1, "each hex's terrain once", "duplicate hex", "'" .. show(lbl) .. "' again")
      end
      self:fail(rowpos + i - 1, "a hex inside a section", "terrain grid runs off the board", "'" .. show(lbl) .. "'")
    end
  end)
end

local function unknown_grid_symbol(self, kind, legend, pos, sym)
  self:fail(pos, "a " .. kind .. " symbol (one of " .. concat(sorted_keys(legend), " ") ..
    " _, declared with 'legend " .. kind .. "')", "unknown " .. kind .. " symbol", "'" .. show(sym) .. "'")
end

-- A grid row symbol by symbol (the slow path: it fails where the row does).
local function layer_row_each(self, kind, legend, apply, rowpos, txt, c0, r, sec, f)
  local k = 0
  for i = 1, #txt do
    local c = sub(txt, i, i)
    if c ~= " " and c ~= "\t" then
      k = k + 1
      if c ~= "_" then
        local v = legend[c]
        if not v then unknown_grid_symbol(self, kind, legend, rowpos + i - 1, c) end
        apply(self:hex({ rowpos + i - 1, f:format(sec, c0 + k - 1, r) }), v, rowpos + i - 1)
      end
    end
  end
end

-- A zones or owners grid. A row whose last hex (not '_') is inside the
-- section of its first has every hex inside: fast_row(first, rowpos, txt,
-- legend, column -> label) does it in bulk. Any other row goes symbol by
-- symbol through apply(hex, value, pos), which fails where the row does.
local function layer_grid(self, s, kind, apply, fast_row)
  local legend = self.legends[kind]
  local unknown = unknown_symbol(legend)
  self:grid(s, kind, legend, function(first, rowpos, txt, _, c0, r, sec, f)
    local cols = txt:gsub("[ \t]", "")
    local last = cols:find("[^_]_*$")
    if not last then return end   -- nothing but '_'
    if self.board:hex(f:format(sec, c0 + last - 1, r)) then
      return fast_row(first, rowpos, txt, legend, unknown, function(k) return f:format(sec, c0 + k - 1, r) end)
    end
    layer_row_each(self, kind, legend, apply, rowpos, txt, c0, r, sec, f)
  end)
end

function handlers.zones(self, s)
  local vals = {}   -- symbol -> zone index, as the row meets them
  layer_grid(self, s, "zone", function(h, v, pos) self:zone_hex(v, h, pos) end,
    function(first, rowpos, txt, legend, _, label_of)
      local b, start = self.board, 1
      while true do
        local ok, why, i, k = b:fill_row("zone", first, txt, vals, start)
        if ok then return end
        local sym, pos = sub(txt, i, i), rowpos + i - 1
        if vals[sym] then   -- the hex refused its zone
          self:refused(why, pos, "a hex on the board",
            "each hex in one sea zone", "hex in two sea zones", "'" .. show(b:format(b:hex(label_of(k)))) .. "'")
        end
        local v = legend[sym]
        if not v then unknown_grid_symbol(self, "zone", legend, pos, sym) end
        vals[sym] = self:zone_index(v, pos, "a zone name")
        start = i
      end
    end)
end

function handlers.owners(self, s)
  layer_grid(self, s, "owner", function(h, v) self:own_hex(v, h) end,
    function(first, rowpos, txt, legend, unknown)
      -- the row's hexes get their owners once the board is finished (the
      -- legend as it is now: a later legend block does not change them)
      local u = txt:find(unknown)
      if u then unknown_grid_symbol(self, "owner", legend, rowpos + u - 1, sub(txt, u, u)) end
      local vals = {}
      for sym, name in pairs(legend) do vals[sym] = name end
      self.ownership[#self.ownership + 1] = { row = true, first = first, txt = txt, vals = vals }
    end)
end

function handlers.hex(self, s)
  local h = self:hex(s.hex)
  local t = terrain_name(self, s.terrain)
  local ok, why = self.board:set_terrain(h, t)
  if not ok then
    self:refused(why, s.hex[1], "a hex on the board",
      "each hex's terrain once", "duplicate hex", "'" .. show(s.hex[2]) .. "' again")
  end
end

function Builder:side_name(a)
  local id, why = self:board_ready(a[1]):side_name_id(a[2])
  return self:check(id, why, a[1], "at most 255 distinct feature names")
end

function handlers.side(self, s)
  local bits = 0
  for _, f in ipairs(s.features) do
    if not FEATURE_SET[f[2]] then
      self:fail(f[1], "a hexside feature (one of " .. concat(M.FEATURES, ", ") .. ")",
        "unknown hexside feature", "'" .. show(f[2]) .. "'")
    end
    local bit = SIDE[f[2]]
    local mask = WATER_CLASS[f[2]] and 3 or (RIVERINE[f[2]] and 0x1c or 0)
    if mask ~= 0 and bits & mask ~= 0 and bits & mask ~= bit then
      self:fail(f[1], "one water class and one riverine kind per hexside", "conflicting features", "'" .. f[2] .. "'")
    end
    bits = bits | bit
  end
  if s.name then bits = bits | (self:side_name(s.name) << SIDE.name_shift) end
  for _, a in ipairs(s.sides) do
    local side = self:side(a)
    local ok, why = self.board:add_side(side, bits)
    if not ok then
      self:refused(why, a[1], "a hexside between two hexes on the board",
        "features that agree with the earlier ones for this hexside", "conflicting hexside features",
        "'" .. show(a[2]) .. "'")
    end
  end
end

function handlers.strait(self, s)
  local st = self:side(s.side)
  self:check(self.board:add_side(st, SIDE["narrow-strait"]), "hexside off the board", s.side[1], "a hexside on the board")
  for _, a in ipairs(s.through or {}) do
    local c = self:side(a)
    local ok, why = self.board:add_strait_passage(c, st)
    if not ok then
      self:refused(why, a[1], "a hexside on the board",
        "a hexside that passes through one strait only", "duplicate strait passage", "'" .. show(a[2]) .. "'")
    end
  end
end

function handlers.coasts(self, s)
  local h = self:hex(s.hex)
  local idx = {}
  for i, name in ipairs(self.compass) do idx[name] = i end
  local c = { 0, 0, 0, 0, 0, 0 }
  if #s.groups > self.coast_max then
    self:fail(s.pos, "at most " .. self.coast_max .. " coasts", "too many coasts", tostring(#s.groups))
  end
  for g, group in ipairs(s.groups) do
    for _, a in ipairs(group) do
      local i = idx[a[2]]
      if not i then
        self:fail(a[1], "a compass direction (one of " .. concat(self.compass, " ") .. ")",
          "unknown direction", "'" .. show(a[2]) .. "'")
      end
      if c[i] ~= 0 then self:fail(a[1], "each direction in one coast", "direction listed twice", "'" .. a[2] .. "'") end
      c[i] = g
    end
  end
  local ok, why = self.board:set_coasts(h, c)
  if not ok then
    self:refused(why, s.hex[1], "a hex on the board",
      "one 'coasts' statement per hex", "duplicate coasts", "'" .. show(s.hex[2]) .. "'")
  end
end

function handlers.port(self, s)
  local h = self:hex(s.hex)
  local size = s.size[2]
  if not PORT_SET[size] then
    self:fail(s.size[1], "a port size (minor, standard, medium, major, great)", "unknown port size", "'" .. show(size) .. "'")
  end
  local cap = s.capacity and s.capacity[2]
  if cap and cap < 0 then self:fail(s.capacity[1], "a capacity >= 0", "bad capacity", tostring(cap)) end
  local ok, why = self.board:add_port(h, size, cap, s.inland)
  if not ok then
    self:refused(why, s.hex[1], "a hex on the board", "one port per hex", "duplicate port", "'" .. show(s.hex[2]) .. "'")
  end
  if s.name then self:place(s.name, h) end
end

function Builder:place(a, h)
  local ok, why = self.board:add_place(a[2], h)
  if not ok then
    self:refused(why, a[1], "a place on the board", "a new place name", "duplicate place", '"' .. show(a[2]) .. '"')
  end
end

function handlers.place(self, s) self:place(s.name, self:hex(s.hex)) end

function Builder:own_hex(name, h)
  self.ownership[#self.ownership + 1] = { a = h, z = h, name = name }
end

function handlers.owner(self, s)
  local b = self:board_ready(s.pos)
  for _, q in ipairs(s.hexes and self:rects(s.hexes) or {}) do
    self.ownership[#self.ownership + 1] = { a = q[1], z = q[2], name = s.name[2] }
  end
  return b
end

-- The starting owners of finished board b from its owner statements: one
-- {side =, hexes =} per statement (a grid row gives one per side it names,
-- in the order it meets them), in map order, each with the hexes on the
-- board (a hex of a section without terrain owns nothing). A rectangle's
-- hexes come from the board in one C call, row by row; a row's one column
-- per symbol ('_' leaves a hex).
local function owners_of(b, n, ownership)
  local conv = (n.shift == "even" and "even-" or "odd-") .. (n.pointy and "r" or "q")
  local groups = {}
  for _, o in ipairs(ownership) do
    if o.row then
      local c, r = keel.hex.to_offset(o.first, conv)
      local of, order = {}, {}
      for i = 1, #o.txt do
        local ch = sub(o.txt, i, i)
        if ch ~= " " and ch ~= "\t" then
          local h = ch ~= "_" and keel.hex.from_offset(conv, c, r)
          if h and b:contains(h) then
            local side = o.vals[ch]
            local g = of[side]
            if not g then g = { side = side, hexes = {} }; of[side] = g; order[#order + 1] = g end
            g.hexes[#g.hexes + 1] = h
          end
          c = c + 1
        end
      end
      for _, g in ipairs(order) do groups[#groups + 1] = g end
    else
      groups[#groups + 1] = { side = o.name, hexes = b:rect_hexes(o.a, o.z) }
    end
  end
  return groups
end

-- the owner statements of the board's map file, expanded the first time
-- they are asked for (the module's own: never handed out)
local function declared_owners(board)
  local d = declared[board]
  if d and d.ownership then
    d = owners_of(board, d.numbering, d.ownership)
    declared[board] = d
  end
  return d
end

--- The owners a game on this board starts with, as its map file declares
--- them: a list of {side =, hexes = {hex...}} in map order, a later entry
--- winning over an earlier one for a hex both name (new tables: the
--- caller's to keep; empty for a board that did not come from a map file).
--- keel.game seeds them into the game state, the one place owners live.
---@param board userdata keel.Board
---@return {side: string, hexes: integer[]}[]
function M.get_owners(board)
  local d = declared_owners(board)
  local out = {}
  for i, g in ipairs(d or {}) do
    out[i] = { side = g.side, hexes = table.move(g.hexes, 1, #g.hexes, 1, {}) }
  end
  return out
end

--- Set the owners the board's map file declares in a keel.State, in map
--- order (st:set_owner with each statement's hexes): what keel.game seeds
--- a new game with, without the copy get_owners hands out.
---@param board userdata keel.Board
---@param st userdata keel.State
function M.seed_owners(board, st)
  local d = declared_owners(board)
  if not d or #d == 0 then return end
  -- the owners as one base shared by every game on the board (built on
  -- the first game): a new game sets none of them one by one, and holds
  -- only the owners that come to differ (keel.state owner_base)
  local base = bases[board]
  if base == nil then
    base = keel.state.owner_base(d)
    bases[board] = base
  end
  if st:count_owned() == 0 and st:count_actions() == 0 and pcall(st.set_owner_base, st, base) then return end
  for _, g in ipairs(d) do st:set_owner(g.hexes, g.side) end
end

-- The index of zone `name`, added to the board the first time.
function Builder:zone_index(name, pos, expected)
  local idx = self.zones[name]
  if not idx then
    local why
    idx, why = self:board_ready(pos):add_zone(name)
    self:check(idx, why, pos, expected)
    self.zones[name] = idx
  end
  return idx
end

function Builder:zone_hex(name, h, pos)
  local b = self.board
  local ok, why = b:set_zone(h, self:zone_index(name, pos, "a zone name"))
  if not ok then
    self:refused(why, pos, "a hex on the board",
      "each hex in one sea zone", "hex in two sea zones", "'" .. show(b:format(h)) .. "'")
  end
end

function handlers.zone(self, s)
  self:board_ready(s.pos)
  local name = s.name[2]
  local idx = self:zone_index(name, s.name[1], "a new zone name")
  local b = self.board
  for _, q in ipairs(s.hexes and self:rects(s.hexes) or {}) do
    local ok, why, at = b:fill("zone", q[1], q[2], idx)
    if not ok then
      self:refused(why, s.name[1], "a hex on the board",
        "each hex in one sea zone", "hex in two sea zones", "'" .. show(b:format(at)) .. "'")
    end
  end
end

function handlers.seaboxes(self, s)
  local o = self:hex(s.origin)
  local r = s.radius[2]
  if r < 0 or r > 1024 then self:fail(s.radius[1], "a radius 0..1024", "bad radius", tostring(r)) end
  local ok, why = self.board:set_seaboxes(r, o)
  if not ok then
    self:refused(why, s.pos, "sea boxes", "one 'seaboxes' statement", "sea boxes declared twice", "'seaboxes'")
  end
end

function handlers.cd(self, s)
  local h = self:hex(s.hex)
  local lv = s.level[2]
  if lv < 0 or lv > 255 then self:fail(s.level[1], "a level 0..255", "bad coast-defence level", tostring(lv)) end
  local ok, why = self.board:set_cd(h, lv)
  if not ok then
    self:refused(why, s.hex[1], "a hex on the board",
      "one coast-defence level per hex", "duplicate coast defence", "'" .. show(s.hex[2]) .. "'")
  end
end

function handlers.tag(self, s)
  self:board_ready(s.pos)
  local id, why = self.board:tag_id(s.name[2])
  self:check(id, why, s.name[1], "a tag name")
  for _, q in ipairs(self:rects(s.hexes)) do
    self:check(self.board:fill("tag", q[1], q[2], id), "hex off the board", s.name[1], "a hex on the board")
  end
end

local DATA = { default = false, map = false, hexes = false, section = false, legend = false }

--- Build a keel.Board from a description (from M.parse).
---@param desc table
---@return userdata|nil board, string|nil err
function M.build(desc)
  local self = setmetatable({
    file = desc.file, text = desc.text,
    numbering = { pointy = false, shift = "odd", digits = 2, first_col = 1, first_row = 1 },
    legends = { terrain = {}, zone = {}, owner = {} },
    zones = {}, ownership = {}, coast_max = keel.board.COAST_MAX,
  }, Builder)
  for k, v in pairs(M.DEFAULT_LEGEND) do self.legends.terrain[k] = v end
  local ok, err = pcall(function()
    for _, s in ipairs(desc.statements) do
      if DATA[s.kind] == nil then self.data_seen = true end
      handlers[s.kind](self, s)
    end
    if not self.board then
      self:fail(#self.text + 1, "at least one 'section' statement", "no map section", "none")
    end
    local b = self.board
    if self.default_terrain then b:set_default_terrain(self.default_terrain) end
    local fin, why = b:finish()
    if not fin then self:fail(1, "a board that can be finished", phrase(why)) end
    if #self.ownership > 0 then declared[b] = { numbering = self.numbering, ownership = self.ownership } end
  end)
  if not ok then
    if self.board then self.board:close() end
    if type(err) == "table" and err.built_error then return nil, err.built_error.message, err.built_error end
    error(err, 0)
  end
  return self.board, nil, { name = self.name, file = self.file }
end

--- Parse and build a map text.
---@param text string
---@param file? string
---@return userdata|nil board, string|nil err
function M.load_string(text, file)
  local desc, err, e = M.parse(text, file or "map")
  if not desc then return nil, err, e end
  return M.build(desc)
end

-- path -> {text =, board =, info =}: boards shared by every game of the process
local shared = {}

--- Read, parse and build a map file. opts.shared: the process's one board
--- for this file as it reads now (built again only when the text changed).
--- A finished board never changes, so every game may play on it, and what
--- depends on the board alone (cost maps, graphs) is built once for all of
--- them; never close a shared board.
---@param path string
---@param opts? {shared?: boolean}
---@return userdata|nil board, string|nil err
function M.load(path, opts)
  local text, ferr = keel.file.read(path)
  if not text then return nil, ferr end
  if not (opts and opts.shared) then return M.load_string(text, path) end
  local e = shared[path]
  if e and e.text == text then return e.board, nil, e.info end
  local b, err, info = M.load_string(text, path)
  if b then shared[path] = { text = text, board = b, info = info } end
  return b, err, info
end

return M
