--- keel.xml — a small XML well-formedness check in LPeg, for the SVG that
-- keel.render writes (tests use it so no XML package is needed).
--
--   local ok, err = require("keel.xml").check(text)
--
-- It checks: one root element, properly nested and matched tags, quoted
-- attribute values without '<', no duplicate attribute on an element,
-- entity references (&name; &#N; &#xN;) only, comments, processing
-- instructions and CDATA sections closed. It does not read DTDs.
local lpeg = require "lpeg"
local P, R, S, C, Ct, Cp, Cmt = lpeg.P, lpeg.R, lpeg.S, lpeg.C, lpeg.Ct, lpeg.Cp, lpeg.Cmt

local M = {}

local ws = S" \t\r\n"
local namestart = R("az", "AZ") + S"_:" + R"\128\255"
local namechar = namestart + R"09" + S"-."
local name = namestart * namechar ^ 0
local ref = "&" * (name + "#" * R"09" ^ 1 + "#x" * R("09", "af", "AF") ^ 1) * ";"
local chardata = ((1 - S"<&") + ref) ^ 1
local attvalue = '"' * ((1 - S'<&"') + ref) ^ 0 * '"' + "'" * ((1 - S"<&'") + ref) ^ 0 * "'"
local attribute = Ct(C(name) * ws ^ 0 * "=" * ws ^ 0 * attvalue)
local comment = "<!--" * (1 - P"--") ^ 0 * "-->"
local pi = "<?" * name * (1 - P"?>") ^ 0 * "?>"
local cdata = "<![CDATA[" * (1 - P"]]>") ^ 0 * "]]>"
local misc = comment + pi + ws ^ 1
local doctype = "<!DOCTYPE" * (1 - S"<>[") ^ 0 * ("[" * (1 - P"]") ^ 0 * "]") ^ -1 * ws ^ 0 * ">"

local function unique(_, i, ...)
  local seen = {}
  for _, a in ipairs { ... } do   -- with no attribute, LPeg passes the empty match
    if type(a) == "table" then
      if seen[a[1]] then return false end
      seen[a[1]] = true
    end
  end
  return i
end
local attrs = Cmt((ws ^ 1 * attribute) ^ 0, unique)

local element = P {
  "el",
  el = Cmt("<" * C(name) * attrs * ws ^ 0 * (P"/>" * lpeg.Cc(false) + ">" * lpeg.V"content" *
    "</" * C(name) * ws ^ 0 * ">"), function(_, i, open, close)
      if close == false or open == close then return i end
      return false
    end),
  content = (chardata + lpeg.V"el" + comment + pi + cdata) ^ 0,
}

local document = (P"\239\187\191") ^ -1 * ("<?xml" * (1 - P"?>") ^ 0 * "?>") ^ -1 * misc ^ 0 *
  (doctype * misc ^ 0) ^ -1 * element * misc ^ 0 * Cp()

--- Check that text is a well-formed XML document.
---@param text string
---@return true|nil ok, string|nil err "line N: not well-formed"
function M.check(text)
  if type(text) ~= "string" then return nil, "not a string" end
  local stop = lpeg.match(document, text)
  if stop and stop == #text + 1 then return true end
  -- report roughly where: the longest prefix that still has balanced parsing is
  -- not tracked; give the line of the first offending byte after the prolog
  local at = stop or 1
  local line = select(2, text:sub(1, at):gsub("\n", "")) + 1
  return nil, ("line %d: not well-formed XML"):format(line)
end

return M
