-- tests/lua/data/state/save_loop.lua — the child of the kill test:
--   keel script save_loop.lua PATH hashes   print the hashes of states A and B
--   keel script save_loop.lua PATH loop     save A, B, A, B ... to PATH forever
-- Both states are large (so that a save takes a while and a SIGKILL lands
-- mid-write), and differ.
local game_mod = require "keel.game"
local path, mode = ...

local function build(k)
  local g = game_mod.new { seed = k, journal = false }
  for i = 1, 4000 do
    local id = g:unit_new { name = "unit " .. i, type = (i % 3 == 0) and "DD" or "NT", side = k == 1 and "Allied" or "Axis",
                            values = { strength = i % 7 + k, ["capacity.RE"] = 1 } }
    if i % 5 == 0 then g:add_marker(id, "DG", k) end
  end
  for q = 0, 99 do for r = 0, 99 do g:set_owner((q << 32) | r, (q + r + k) % 2 == 0 and "Allied" or "Axis") end end
  return g
end

local a, b = build(1), build(2)
if mode == "hashes" then
  print(a:hash_hex(), b:hash_hex())
  return 0
end
local n = 0
while true do
  assert((n % 2 == 0 and a or b):save(path))
  n = n + 1
end
