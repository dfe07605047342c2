--- keel.tables — rule tables written as text, parsed with LPeg.
--
-- A table file holds one or more tables, each written as the rulebook
-- prints it (see doc/tables.md for the whole format):
--
--   table naval_search
--   title NAVAL SEARCH TABLE
--   rule  32.B
--   dice  2d6
--   rows
--   3 or less   D
--   4-6         F*
--   14+         S*
--   modifiers (cumulative)
--   +2  cargo:  If phasing naval group is cargo.
--   results
--   D:  Disaster: The attempt fails. ...
--
-- Dice tables map a modified roll to a row (rolls beyond the ends clamp to
-- the first/last row); keyed tables (no `dice`) map a row name to cells.
-- Modifiers are bound by name to a Lua predicate or value and are
-- cumulative. The grammar is compiled once, when this module loads.
local lpeg = require "lpeg"
local dice_expr = require "keel.dice_expr"

local P, R, S, C, Cc, Cp, Ct, Cg, Cmt = lpeg.P, lpeg.R, lpeg.S, lpeg.C, lpeg.Cc, lpeg.Cp, lpeg.Ct,
  lpeg.Cg, lpeg.Cmt
local expect, pmessage = dice_expr.expect, dice_expr.pmessage
local error, type, tonumber, tostring, ipairs, pairs, setmetatable, pcall =
  error, type, tonumber, tostring, ipairs, pairs, setmetatable, pcall
local math_type, huge = math.type, math.huge
local next = next
local sum_modifiers = require("keel").tables.sum_modifiers
local concat, sort = table.concat, table.sort

local M = {}

-- ---- cells ------------------------------------------------------------------

--- A cell is a parsed result with its text: kinds
---   code     D, F*, NE, E, destroyed        {code=}
---   mp       +3 MP, + 10 MP, -5 MP          {mp=}
---   scatter  1/6 S, ½ S                     {num=, den=}
---   multiply x5, x 1/2, x3/4                {num=, den=}
---   number   15                             {value=}
---   none     -  (not allowed)
local Cell = {}
Cell.__index = Cell
Cell.__tostring = function(c) return c.text end
M.Cell = Cell

local function cell(kind, text, fields)
  fields.kind, fields.text = kind, text
  return setmetatable(fields, Cell)
end

local sp = S" \t"
local nlc = S"\r\n"
local nl = P"\r"^-1 * P"\n"
local digits = R"09"^1
local ident = (R("az", "AZ") + "_") * (R("az", "AZ", "09") + "_")^0
local unicode_frac = P"½" * Cc(1) * Cc(2) + P"¼" * Cc(1) * Cc(4) + P"¾" * Cc(3) * Cc(4)
local fraction = ((digits / tonumber) * sp^0 * "/" * sp^0 * (digits / tonumber)) + unicode_frac
local cell_end = #(sp + nlc + "|" + -P(1))

local mp_cell = C(S"+-" * sp^0 * digits * sp^0 * "MP") * cell_end / function(text)
  local sign, n = text:match("^([+-])%s*(%d+)")
  n = tonumber(n)
  return cell("mp", text, { mp = sign == "-" and -n or n })
end
local scatter_cell = Cmt(C(fraction * sp^0 * "S" * cell_end), function(_, i, text)
  local num, den = lpeg.match(fraction, text)
  if den == 0 then pmessage(i - #text, "a fraction with denominator 0") end
  return i, cell("scatter", text, { num = num, den = den })
end)
local multiply_cell = Cmt(C(S"xX" * sp^0 * (fraction + digits / tonumber * Cc(1))) * cell_end,
  function(_, i, text)
    local num, den = lpeg.match(S"xX" * sp^0 * (fraction + digits / tonumber * Cc(1)), text)
    if den == 0 then pmessage(i - #text, "a fraction with denominator 0") end
    return i, cell("multiply", text, { num = num, den = den })
  end)
local number_cell = C(P"-"^-1 * digits) * cell_end / function(text)
  return cell("number", text, { value = tonumber(text) })
end
local none_cell = C"-" * cell_end / function(text) return cell("none", text, {}) end
local code_cell = C(ident * P"*"^-1) * cell_end / function(text)
  return cell("code", text, { code = text })
end

--- One result cell.
M.cell_pattern = mp_cell + scatter_cell + multiply_cell + number_cell + none_cell + code_cell
local cellp = M.cell_pattern

--- Parse one cell text ("+3 MP", "1/6 S", "x5", "-", "F*").
---@param text string
---@return table|nil cell
function M.parse_cell(text)
  local ok, c = pcall(lpeg.match, cellp * sp^0 * -P(1), text)
  if ok then return c end
  return nil
end

-- ---- the grammar ------------------------------------------------------------

local function trim(s) return (s:gsub("%s+$", "")) end
local rest = C((1 - nlc)^0) / trim
local eol = sp^0 * (nl + expect"the end of the line")
local skip = sp^0 * (P"--" * (1 - nlc)^0)^-1 * nl     -- a blank or comment line

local keywords = { "table", "title", "rule", "source", "standin", "note", "dice", "columns", "rows",
  "modifiers", "results" }
local kw = P(false)
for _, k in ipairs(keywords) do kw = kw + P(k) end
kw = kw * #(sp + nlc + -P(1))
local at_keyword = sp^0 * kw

-- What a parsed row keeps under its own names: a column may not take one
-- (row[column] is the column's cell, table:get reads it).
local ROW_FIELDS = { kind = "kind of line", pos = "position", range = "die range", range_pos = "range's position",
                     cells = "list of cells", key = "name", label = "label", index = "place in the table" }
local ROW_FIELD_NAMES = "cells, index, key, kind, label, pos, range, range_pos"

local function item(kind, body)
  return Ct(Cg(Cc(kind), "kind") * Cg(Cp(), "pos") * body)
end

local name_p = C(ident)
-- Die-roll values are bounded so that range arithmetic (widths, the dense
-- index below) never overflows an integer.
M.MAX_ROLL = 999999999
local sint = Cmt(Cp() * C(P"-"^-1 * digits), function(_, i, start, text)
  local n = #text <= 11 and math.tointeger(tonumber(text))
  if not n or n > M.MAX_ROLL or n < -M.MAX_ROLL then
    pmessage(start, ("a die roll value between %d and %d (got %s)"):format(-M.MAX_ROLL, M.MAX_ROLL, text))
  end
  return i, n
end)

-- die ranges: `3 or less`, `14+`, `14 or more`, `4-6`, `-3--1`, `6`
local range = Cg(Cp(), "range_pos") * Cg(
  (sint * sp^1 * "or" * sp^1 * "less") / function(n) return { lo = -huge, hi = n } end
  + (sint * (P"+" + sp^1 * "or" * sp^1 * "more")) / function(n) return { lo = n, hi = huge } end
  + (sint * "-" * sint) / function(a, b) return { lo = a, hi = b } end
  + sint / function(n) return { lo = n, hi = n } end, "range")

local what_cell = "a result such as D, F*, NE, +3 MP, 1/6 S, x5, 15 or -"
local cells_p = Cg(Ct(cellp * (sp^1 * #(1 - nlc - "|") * (cellp + expect(what_cell)))^0), "cells")
local range_row = item("range_row", range * sp^1 * (cells_p + expect(what_cell)) * eol)
local key_p = C(ident * P"*"^-1)
local keyed_row = item("keyed_row", Cg(key_p, "key") *
  (sp^1 * Cg(C((1 - S"|\r\n")^1) / trim, "label"))^-1 * sp^0 *
  (P"|" + expect"'|' between the row's label and its cells (or, in a dice table, a die range)") * sp^0 *
  (cells_p + expect(what_cell)) * eol)
local row_line = sp^0 * #(S"-" ^ -1 * R"09") * range_row + sp^0 * #(ident) * keyed_row +
  expect"a row: a die range and its result(s) (`4-6  F*`), or `name  label | cells`"

local amount = Cg(C(S"+-"), "sign") * sp^0 * (Cg(digits / tonumber, "amount") + Cg(C"#", "amount"))
local modifier_line = sp^0 * item("modifier", (amount + expect"a modifier amount such as +2, -1 or +#") *
  sp^1 * (Cg(name_p, "name") + expect"a modifier name (letters, digits, _) followed by ':'") *
  (P":" + expect"':' after the modifier name") * sp^0 * Cg(rest, "text") * eol)

local legend_line = sp^0 * item("legend", Cg(C((1 - S":\r\n")^1) / trim, "key") *
  (P":" + expect"':' after the result code (as in `D: Disaster ...`)") * sp^0 *
  Cg(rest, "text") * eol)

local function section(header, line)
  return header * (skip + #P(1) * -at_keyword * line)^0
end

local header = sp^0 * (
  item("title", P"title" * sp^1 * Cg(rest, "value") * eol)
  + item("rule", P"rule" * sp^1 * Cg(C((1 - sp - nlc)^1), "value") * eol)
  + item("source", P"source" * sp^1 * Cg(rest, "value") * eol)
  + item("standin", P"standin" * sp^1 * (Cg(C((1 - sp - nlc) * (1 - nlc)^0) / trim, "value")
      + expect"the chapter the table stands in for, after 'standin'") * eol)
  + item("note", P"note" * sp^1 * Cg(rest, "value") * eol)
  + item("dice", P"dice" * sp^1 * Cg(dice_expr.pattern + expect"a dice expression such as 2d6",
      "value") * eol)
  + item("columns", P"columns" * Cg(Ct((sp^1 * C((R("az", "AZ", "09") + S"_/*+-")^1))^1)
      + expect"column names after 'columns'", "value") * eol)
  + section(item("rows", P"rows" * (sp^1 * "from" * sp^1 *
      (Cg(name_p, "from") + expect"a table name after 'rows from'"))^-1 * eol), row_line)
  + section(item("modifiers", P"modifiers" * (sp^1 * (1 - nlc)^0)^-1 * nl), modifier_line)
  + section(item("results", P"results" * sp^0 * nl), legend_line))

local table_block = Ct(sp^0 * item("table", P"table" * sp^1 *
  (Cg(name_p, "value") + expect"a table name (letters, digits, _)") * eol) *
  (skip + header)^0)

-- One table at a time (M.parse loops): a single match over a whole file of
-- thousands of tables would pile up more captures than LPeg allows.
local block_grammar = skip^0 * (table_block * Cp() + -P(1) * Cc(false) +
  expect("a table line: 'table NAME', or a keyword (title, rule, source, standin, note, dice, " ..
    "columns, rows, modifiers, results) in a table"))

-- ---- building tables from parsed items -------------------------------------------

local Table = {}
Table.__index = Table
M.Table = Table

local function line_col(text, pos)
  local line, col_start = 1, 1
  for i in text:gmatch("()\n") do
    if i >= pos then break end
    line, col_start = line + 1, i + 1
  end
  return line, pos - col_start + 1
end

local function range_text(r)
  if r.lo == -huge then return r.hi .. " or less" end
  if r.hi == huge then return r.lo .. "+" end
  if r.lo == r.hi then return tostring(r.lo) end
  return r.lo .. "-" .. r.hi
end
M.range_text = range_text

local function build(items, fail)
  local t = setmetatable({ name = items[1].value, notes = {}, modifiers = {}, rows = {},
    legend = {}, legend_order = {}, bindings = {}, pos = items[1].pos }, Table)
  local seen = {}
  for i = 2, #items do
    local it = items[i]
    local k = it.kind
    if k == "title" or k == "rule" or k == "source" or k == "standin" or k == "dice" or k == "columns" then
      if seen[k] then fail(it.pos, ("'%s' given twice in table %s"):format(k, t.name)) end
      seen[k] = true
      t[k] = it.value
      if k == "columns" then seen.columns_pos = it.pos end
    elseif k == "note" then
      t.notes[#t.notes + 1] = it.value
    elseif k == "rows" then
      if seen.rows then fail(it.pos, "'rows' given twice in table " .. t.name) end
      seen.rows = true
      t.rows_from = it.from
    elseif k == "modifiers" or k == "results" then
      if seen[k] then fail(it.pos, ("'%s' given twice in table %s"):format(k, t.name)) end
      seen[k] = true
    elseif k == "range_row" or k == "keyed_row" then
      t.rows[#t.rows + 1] = it
    elseif k == "modifier" then
      local m = it
      for _, o in ipairs(t.modifiers) do
        if o.name == m.name then fail(m.pos, ("modifier '%s' given twice"):format(m.name)) end
      end
      m.kind = nil
      m.per = m.amount == "#"
      m.amount = m.per and (m.sign == "-" and -1 or 1) or (m.sign == "-" and -m.amount or m.amount)
      m.sign = nil
      t.modifiers[#t.modifiers + 1] = m
    elseif k == "legend" then
      if t.legend[it.key] then fail(it.pos, ("result '%s' described twice"):format(it.key)) end
      t.legend[it.key] = it.text
      t.legend_order[#t.legend_order + 1] = it.key
    end
  end
  t.columns = t.columns or { "result" }
  local ncol = #t.columns
  for i, c in ipairs(t.columns) do
    for j = 1, i - 1 do
      if t.columns[j] == c then fail(t.pos, ("column '%s' given twice"):format(c)) end
    end
    -- a row holds its cells by column name beside what the loader keeps of it
    if ROW_FIELDS[c] then
      fail(seen.columns_pos or t.pos, ("column '%s' in table %s: a row keeps its %s under that name; name the column otherwise "
        .. "(these are taken: %s)"):format(c, t.name, ROW_FIELDS[c], ROW_FIELD_NAMES))
    end
  end
  if t.rows_from and #t.rows > 0 then
    fail(t.rows[1].pos, ("table %s takes its rows from %s: it cannot list rows"):format(t.name, t.rows_from))
  end
  if not t.rows_from and #t.rows == 0 then
    fail(t.pos, ("table %s has no rows (expected a 'rows' section)"):format(t.name))
  end
  local dice_table = t.dice ~= nil or t.rows_from ~= nil
  if t.dice and t.rows_from then
    fail(t.pos, ("table %s: 'dice' and 'rows from' exclude each other (the rows' table has the dice)")
      :format(t.name))
  end
  if not dice_table and #t.modifiers > 0 then
    fail(t.modifiers[1].pos, ("table %s has modifiers but no 'dice' line"):format(t.name))
  end
  t.by_key = {}
  for i, row in ipairs(t.rows) do
    if dice_table and row.kind ~= "range_row" then
      fail(row.pos, ("a die range (as in 4-6, 3 or less, 14+) expected in dice table %s"):format(t.name))
    elseif not dice_table and row.kind ~= "keyed_row" then
      fail(row.pos, ("a row name expected in table %s (it has no 'dice' line)"):format(t.name))
    end
    if #row.cells ~= ncol then
      fail(row.pos, ("%d result(s) expected (columns: %s), got %d"):format(ncol,
        concat(t.columns, " "), #row.cells))
    end
    row.index = i
    for j, c in ipairs(t.columns) do row[c] = row.cells[j] end
    if row.key then
      for _, kwd in ipairs(keywords) do
        if row.key == kwd then fail(row.pos, ("'%s' is a keyword, not a row name"):format(kwd)) end
      end
      if t.by_key[row.key] then fail(row.pos, ("row '%s' given twice"):format(row.key)) end
      t.by_key[row.key] = row
    end
  end
  if t.dice or (dice_table and #t.rows > 0) then
    -- ranges: sorted, contiguous, open ends only at the extremes
    local order = {}
    for i, row in ipairs(t.rows) do
      local r = row.range
      if r.lo > r.hi then fail(row.range_pos, ("empty range %s (low end above high end)"):format(range_text(r))) end
      order[i] = row
    end
    sort(order, function(a, b)
      if a.range.lo ~= b.range.lo then return a.range.lo < b.range.lo end
      return a.index < b.index
    end)
    for i = 2, #order do
      local a, b = order[i - 1], order[i]
      if b.range.lo <= a.range.hi then
        fail(b.range_pos, ("range %s overlaps range %s"):format(range_text(b.range), range_text(a.range)))
      elseif b.range.lo > a.range.hi + 1 then
        fail(b.range_pos, ("range %s leaves a gap after %s (%s uncovered)"):format(range_text(b.range),
          range_text(a.range), a.range.hi + 1 == b.range.lo - 1 and tostring(a.range.hi + 1)
          or (a.range.hi + 1) .. "-" .. (b.range.lo - 1)))
      end
    end
    t.sorted = order
    -- a dense index from each roll between the finite ends to its row
    local first, last = order[1], order[#order]
    local minv = first.range.lo == -huge and first.range.hi or first.range.lo
    local maxv = last.range.hi == huge and last.range.lo or last.range.hi
    if maxv - minv <= 100000 then
      local by_roll = {}
      for _, row in ipairs(order) do
        local a = row.range.lo < minv and minv or row.range.lo
        local b = row.range.hi > maxv and maxv or row.range.hi
        for v = a, b do by_roll[v] = row end
      end
      t.by_roll, t.min_roll, t.max_roll = by_roll, minv, maxv
    end
  end
  -- by name: the modifier, its amount, and whether it is a `+#`/`-#` one
  -- (for keel.tables.sum_modifiers, the C half)
  t.modifier_names, t.modifier_amounts, t.modifier_per = {}, {}, {}
  for _, m in ipairs(t.modifiers) do
    t.modifier_names[m.name], t.modifier_amounts[m.name] = true, m.amount
    if m.per then t.modifier_per[m.name] = true end
  end
  if #t.legend_order > 0 then   -- every code used in the rows is described
    for _, row in ipairs(t.rows) do
      for _, c in ipairs(row.cells) do
        if c.kind == "code" and dice_table and not t.legend[c.code] then
          fail(row.pos, ("result '%s' is not described in the 'results' section"):format(c.code))
        end
      end
    end
  end
  for _, row in ipairs(t.rows) do row.pos, row.kind, row.range_pos = nil, nil, nil end
  return t
end

--- Parse the text of a table file.
---@param text string
---@param filename? string used in error messages (default "(table)")
---@return table[] tables in file order (also indexed by name)
function M.parse(text, filename)
  filename = filename or "(table)"
  if type(text) ~= "string" then error("tables.parse: text expected", 2) end
  local subject = text:sub(-1) == "\n" and text or text .. "\n"
  local function fail(pos, msg)
    local line, col = line_col(subject, pos)
    error(("%s:%d:%d: %s"):format(filename, line, col, msg), 0)
  end
  local res, pos = {}, 1
  while true do
    local ok, items, next_pos = pcall(lpeg.match, block_grammar, subject, pos)
    if not ok then
      if dice_expr.is_perror(items) then
        fail(items.pos, items.message or ("expected " .. items.expected))
      end
      error(items, 0)
    end
    if not items then break end
    res[#res + 1], pos = items, next_pos
  end
  if #res == 0 then fail(1, "no tables in the file (expected 'table NAME')") end
  local out = {}
  local at, at_line = 1, 1    -- lines counted once over the file, not per table
  for _, items in ipairs(res) do
    local t = build(items, fail)
    if out[t.name] then fail(t.pos, ("table '%s' defined twice in the file"):format(t.name)) end
    t.file = filename
    for _ in subject:sub(at, t.pos - 1):gmatch("\n") do at_line = at_line + 1 end
    at = t.pos
    t.line = at_line
    t.pos = nil
    out[#out + 1] = t
    out[t.name] = t
  end
  return out
end

--- Read and parse a table file.
---@param path string
---@return table[] tables
function M.load_file(path)
  local text, err = require("keel").file.read(path)
  if not text then error(("cannot read table file %s"):format(err), 0) end   -- the reason names the path
  return M.parse(text, path)
end

--- Load a file that holds exactly one table, or the table `name` in it.
---@param path string
---@param name? string
---@return table
function M.load(path, name)
  local ts = M.load_file(path)
  if name then
    if not ts[name] then error(("%s: no table named '%s'"):format(path, name), 2) end
    return ts[name]
  end
  if #ts ~= 1 then
    local names = {}
    for i, t in ipairs(ts) do names[i] = t.name end
    error(("%s holds %d tables (%s): name the one you want"):format(path, #ts, concat(names, ", ")), 2)
  end
  return ts[1]
end

-- ---- tables of a rule set ----------------------------------------------------------
-- There is no registry of tables here: a rule set loads its families'
-- table files (keel.registry) and is asked for them (set:table(name)).

--- A copy of `t` (a table whose rows come from another: `rows from`) that
--- takes its dice and rows from `src` (nil: none was supplied). A rule set
--- links its tables so (set:table); a host reading a table file links the
--- file's tables among themselves.
---@param t table
---@param src? table
---@return table
function M.link(t, src)
  if getmetatable(t) ~= Table then error("tables.link: a table from tables.parse expected", 2) end
  if src ~= nil and getmetatable(src) ~= Table then error("tables.link: the rows' table must be a table too", 2) end
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  c.rows_source = src
  return setmetatable(c, Table)
end

-- ---- using a table ------------------------------------------------------------------

--- The table whose rows a dice table uses (itself, or its `rows from`, as
--- linked by the rule set the table came from: tables.link).
function Table:rows_table()
  if not self.rows_from then return self end
  local src = self.rows_source
  if not src then
    error(("%s:%d: table %s takes its rows from '%s', which the rule set does not have (a scenario supplies it)")
      :format(self.file, self.line, self.name, self.rows_from), 2)
  end
  if not src.dice then
    error(("table %s takes its rows from '%s', which is not a dice table"):format(self.name, src.name), 2)
  end
  -- a script reads this table through a read-only view: so it sees the other
  -- only through one too
  local sandbox = require "keel.sandbox"
  if sandbox.is_protected(self) then return sandbox.readonly(src, "table " .. tostring(src.name)) end
  return src
end

--- The dice expression (parsed) of a dice table.
function Table:dice_expr()
  local src = self:rows_table()
  return src.dice
end

--- Bind modifiers by name to predicates `fn(ctx) -> boolean|integer` or to
--- values; returns a new table object sharing the rows. Unknown names raise.
---@param bindings table<string, any>
---@return table
function Table:bind(bindings)
  local known = self.modifier_names
  local bad = {}
  for k in pairs(bindings) do if not known[k] then bad[#bad + 1] = tostring(k) end end
  if #bad > 0 then
    sort(bad)
    error(("table %s has no modifier named %s"):format(self.name, concat(bad, ", ")), 2)
  end
  local t = {}
  for k, v in pairs(self) do t[k] = v end
  local b = {}
  for k, v in pairs(self.bindings) do b[k] = v end
  for k, v in pairs(bindings) do b[k] = v end
  t.bindings = b
  return setmetatable(t, Table)
end

local function modifier_value(self, m, ctx)
  local v = self.bindings[m.name]
  if v == nil and ctx ~= nil then v = ctx[m.name] end
  if type(v) == "function" then v = v(ctx) end
  if v == nil or v == false or v == 0 then return nil end
  if v == true then
    if m.per then
      error(("table %s: modifier '%s' (%s#) needs a number, got true"):format(self.name, m.name,
        m.amount < 0 and "-" or "+"), 3)
    end
    return m.amount
  end
  if math_type(v) ~= "integer" then
    error(("table %s: modifier '%s' must be a boolean or an integer, got %s"):format(self.name,
      m.name, type(v) == "number" and tostring(v) or type(v)), 3)
  end
  return m.amount * v
end

--- The modifiers that apply under a context, in table order.
-- ctx[name] (or a binding) gives each modifier's value: false/nil/0 (not
-- applied), true (applied once), or an integer (a count, or the # of a
-- `+#`/`-#` modifier). A boolean under a name that is no modifier is an
-- error (it catches typos); other values are context for predicates.
---@param ctx? table
---@return integer total, table[] applied {name=, amount=, text=}
function Table:modifiers_for(ctx)
  if type(ctx) == "table" then
    local known, bad = self.modifier_names, nil
    for k, v in pairs(ctx) do
      if type(v) == "boolean" and not known[k] then
        bad = bad or {}
        bad[#bad + 1] = tostring(k)
      end
    end
    if bad then
      sort(bad)
      error(("table %s has no modifier named %s"):format(self.name, concat(bad, ", ")), 2)
    end
  end
  local total, applied, n = 0, {}, 0
  local mods, bindings = self.modifiers, self.bindings
  local bound = next(bindings) ~= nil
  local plain = type(ctx) == "table"
  for i = 1, #mods do
    local m = mods[i]
    -- a modifier neither bound nor in ctx does not apply: no call for it
    if (bound and bindings[m.name] ~= nil) or (plain and ctx[m.name] ~= nil) or not plain then
      local a = modifier_value(self, m, ctx)
      if a then
        total = total + a
        n = n + 1
        applied[n] = { name = m.name, amount = a, text = m.text }
      end
    end
  end
  return total, applied
end

-- Bindings tables known to hold none (a table's bindings never change once
-- made: Table:bind makes new ones), so that a sum need not ask each time.
local no_bindings = setmetatable({}, { __mode = "k" })

--- The modifier total under a context: modifiers_for's first value, with
--- the same errors. A plain ctx of a table without bindings is summed in C
--- from its keys (no table made); otherwise modifiers_for decides.
---@param ctx? table
---@return integer total
function Table:sum_modifiers(ctx)
  local bindings = self.bindings
  local none = no_bindings[bindings]
  if none == nil then
    none = next(bindings) == nil
    no_bindings[bindings] = none
  end
  -- nil when the ordered walk of modifiers_for must decide: a ctx that is
  -- no plain table, a predicate to call (calls go in table order), a value
  -- it refuses, or a boolean under a name that is no modifier (its errors
  -- name the first in table order)
  local total = none and sum_modifiers(ctx, self.modifier_amounts, self.modifier_per)
  if total then return total end
  return (self:modifiers_for(ctx))
end

--- The row a modified roll falls in (clamped to the first/last row).
--- `src`: the table whose rows to use (default: rows_table()).
---@param roll integer
---@param src? table
---@return table row, boolean clamped
function Table:row_for(roll, src)
  src = src or (self.rows_from and self:rows_table() or self)
  local by_roll = src.by_roll
  if by_roll then
    local row = by_roll[roll]
    if row then return row, false end
    if roll < src.min_roll then
      row = src.sorted[1]
      return row, row.range.lo ~= -huge
    end
    row = src.sorted[#src.sorted]
    return row, row.range.hi ~= huge
  end
  local rows = src.sorted
  if not rows then error(("table %s is not a dice table"):format(self.name), 2) end
  if roll < rows[1].range.lo then return rows[1], true end
  if roll > rows[#rows].range.hi then return rows[#rows], true end
  for _, row in ipairs(rows) do
    if roll >= row.range.lo and roll <= row.range.hi then return row, false end
  end
  error("unreachable: ranges are contiguous")
end

--- The cell(s) of a row: one cell for a one-column table, else {column = cell}.
local function result_of(t, row)
  if #t.columns == 1 then return row.cells[1] end
  local r = {}
  for i, c in ipairs(t.columns) do r[c] = row.cells[i] end
  return r
end
M.result_of = result_of

--- Look up a keyed row: the row, or its cell in `column`.
---@param key string
---@param column? string
function Table:get(key, column)
  local row = self.by_key[key]
  if not row then error(("table %s has no row '%s'"):format(self.name, tostring(key)), 2) end
  if column == nil then return result_of(self, row) end
  local cell_ = row[column]
  if not cell_ then
    error(("table %s has no column '%s' (columns: %s)"):format(self.name, tostring(column),
      concat(self.columns, " ")), 2)
  end
  return cell_
end

--- The column whose printed range holds `value`, for tables whose columns
--- are ranges of a strength ("1-2", "3-5", "10+"; a column "4" is 4 alone):
--- each column holds the values from its low end up to the next column's
--- low end, so a fraction between two printed ranges (2.5 in "1-2", "3-5")
--- stays in the lower one. `shift` moves that many columns (right when
--- positive) and is clamped to the first and last. Returns name, index,
--- clamped — or nil, reason when value is below the first column.
---@param value number
---@param shift? integer
---@return string|nil name, integer|string index_or_reason, boolean? clamped
function Table:column_for(value, shift)
  if type(value) ~= "number" then error("column_for: a number expected", 2) end
  shift = shift or 0
  if math_type(shift) ~= "integer" then error("column_for: shift must be an integer", 2) end
  local lows = {}
  for i, c in ipairs(self.columns) do
    local lo = c:match("^(%d+)$") or c:match("^(%d+)%-%d+$") or c:match("^(%d+)%+$")
    if not lo then
      error(("table %s: column '%s' is not a range (as 1-2, 3-5, 10+)"):format(self.name, c), 2)
    end
    lows[i] = tonumber(lo)
    if i > 1 and lows[i] <= lows[i - 1] then
      error(("table %s: column ranges must rise left to right ('%s')"):format(self.name, c), 2)
    end
  end
  if value < lows[1] then
    return nil, ("%s is below the first column (%s)"):format(tostring(value), self.columns[1])
  end
  local idx = 1
  for i = 2, #lows do if value >= lows[i] then idx = i end end
  -- clamped to the table's columns without forming idx + shift (it would
  -- wrap for a shift near 2^63)
  local got
  if shift >= #lows - idx then got = #lows
  elseif shift <= 1 - idx then got = 1
  else got = idx + shift end
  return self.columns[got], got, got - idx ~= shift
end

--- Look up a modified roll without rolling: result, row, clamped.
---@param roll integer
function Table:lookup(roll)
  local row, clamped = self:row_for(roll)
  if #row.cells == 1 and not self.rows_from then return row.cells[1], row, clamped end
  return result_of(self:rows_table(), row), row, clamped
end

--- Roll on a dice table and resolve it.
---@param dice userdata a keel.Dice
---@param ctx? table modifier context (see modifiers_for)
---@param opts? {stream: string, reason: string, rule: string, modifier: integer, rows: table}
---@return any result, table record
-- a row's range as text, made once per row
local row_texts = setmetatable({}, { __mode = "k" })
local function row_range_text(row)
  local t = row_texts[row]
  if not t then
    t = range_text(row.range)
    row_texts[row] = t
  end
  return t
end

-- What a resolve hands the dice: one table, filled again for each roll (the
-- dice read it at once), so that a roll makes no table.
local roll_opts = {}

-- Roll on the table and resolve: the result, and the record when
-- `recording` (else none is made). Table:resolve and ctx:resolve (keel.rules)
-- call it; `rows` as Table:resolve's opts.rows, `extra` its opts.modifier
-- (checked by the caller).
function Table:_resolve(dice, ctx, rule, reason, stream, extra, rows, recording)
  if rows and (not self.rows_from or not rows.dice) then
    error(("table %s: opts.rows is for a table whose rows come from a dice table"):format(self.name), 3)
  end
  -- rows: the table `rows from` names, as the caller has it (a rule set's
  -- own, which a scenario may supply), instead of the one linked
  local src = rows or (self.rows_from and self:rows_table() or self)
  local mod, applied
  if recording then mod, applied = self:modifiers_for(ctx) else mod = self:sum_modifiers(ctx) end
  if extra then
    mod = mod + extra
    if applied then applied[#applied + 1] = { name = "extra", amount = extra, text = "Extra modifier." } end
  end
  local o = roll_opts
  o.stream, o.rule, o.reason = stream, rule, reason
  local roll = dice:roll(src.dice.text, o)
  local modified = roll + mod
  local by_roll = src.by_roll
  local row, clamped = by_roll and by_roll[modified], false
  if not row then row, clamped = self:row_for(modified, src) end
  local result
  if #src.columns == 1 then result = row.cells[1] else result = result_of(src, row) end
  if not recording then return result end
  return result, {
    table = self.name, rule = rule, roll = dice:get_record(), die = roll,
    modifier = mod, modified = modified, clamped = clamped, row = row.index,
    range = row_range_text(row), modifiers = applied, result = result,
  }
end

function Table:resolve(dice, ctx, opts)
  opts = opts or {}
  if opts.modifier and math_type(opts.modifier) ~= "integer" then error("opts.modifier: integer expected", 2) end
  return self:_resolve(dice, ctx, opts.rule or self.rule, opts.reason or self.title or self.name, opts.stream,
    opts.modifier, opts.rows, true)
end

--- The legend text of a result cell (its `results` entry), or nil.
function Table:describe(c)
  local key = type(c) == "table" and (c.code or (c.kind == "mp" and "+ # MP")
    or (c.kind == "scatter" and "# S")) or c
  return key and self.legend[key] or nil
end

--- The product of multiplier cells (x 1/2, x3/4, x5) as a reduced
--- fraction {num=, den=}.
---@param cells table[]
---@return table
function M.product(cells)
  local num, den = 1, 1
  for i, c in ipairs(cells) do
    if type(c) ~= "table" or c.kind ~= "multiply" then
      error(("tables.product: cell #%d is not a multiplier (x N or x N/M)"):format(i), 2)
    end
    num, den = num * c.num, den * c.den
  end
  local a, b = num, den
  while b ~= 0 do a, b = b, a % b end
  return { num = num // a, den = den // a }
end

--- A one-line narration of a resolution record.
---@param rec table from resolve
---@return string
function M.narrate(rec)
  local parts = {}
  for _, m in ipairs(rec.modifiers) do
    parts[#parts + 1] = ("%+d %s"):format(m.amount, m.name)
  end
  local res = rec.result
  if getmetatable(res) ~= Cell then
    local cols = {}
    for k, v in pairs(res) do cols[#cols + 1] = k .. " " .. tostring(v) end
    sort(cols)
    res = concat(cols, ", ")
  end
  return ("%s (rule %s): rolled %d (%s)%s = %d -> %s: %s"):format(rec.table, rec.rule or "-",
    rec.die, concat(rec.roll.faces, "+"), #parts > 0 and (" " .. concat(parts, " ")) or "",
    rec.modified, rec.range .. (rec.clamped and ", clamped" or ""), tostring(res))
end

return M
