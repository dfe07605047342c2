-- tests/lua/save_test.lua — saves: round trips, damaged files refused with a
-- clear message (none crash), and atomic writes under SIGKILL.
local t = require "keel.testing"
local keel = require "keel"
local game_mod = require "keel.game"
local S = keel.state

local tmpdir, read, KEEL = t.tmpdir, t.read_file, t.keel_bin
local function write(path, s) local f = assert(io.open(path, "wb")); f:write(s); f:close() end

-- the journal_probe scenario (tests/families/journal_probe): two fleets, a
-- carrier with planes aboard; seed 77, the house variant
local PROBE = "tests/scenarios/journal_probe.lua"
local HOUSE = "tests/families/variants/journal_house.lua"

local function start(path)
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load(path))
  return run.game, run.set
end

local function sample_game()
  local g, set = start(PROBE)
  assert(set:act(g, "barrage", { target = 5 }))
  assert(set:act(g, "dg", { target = 1 }))
  g:set_owner(keel.hex.from_qr(-3, 5), "Axis")
  g:set_global("ratio", 0.25)
  g:set_global("night", true)
  g:set_keyed("zoc", { "Axis", 3 }, true)
  return g
end

t.test("save-1: save then load gives the same hash, dice position and meta", function()
  local dir = tmpdir()
  local g = sample_game()
  assert(g:save(dir .. "/g.save"))
  local back = assert(game_mod.load(dir .. "/g.save"))
  t.eq(back:hash(), g:hash())
  t.eq(back.state:hash_full(), g:hash())
  t.eq(back.seed, 77)
  t.eq(back.variants, { HOUSE })
  t.eq(back.warnings, {})
  t.eq(back:roll("2d6"), g:roll("2d6"), "the dice continue where they were")
  t.eq(back:get_unit(1).markers, g:get_unit(1).markers)
  t.eq(back.state:save_text(), g.state:save_text(), "saving again gives the same text")
  t.eq(back.state:get_keyed("zoc", { "Axis", 3 }), true, "keyed values are saved")
  os.execute("rm -rf " .. dir)
end)

t.test("save-2: a changed rule file is reported on load", function()
  local dir = tmpdir()
  os.execute(("mkdir -p %s/scenarios %s/families/variants && cp %s %s/scenarios/ && cp -R tests/families/journal_probe %s/families/"
    .. " && cp %s %s/families/variants/"):format(dir, dir, PROBE, dir, dir, HOUSE, dir))
  local g = start(dir .. "/scenarios/journal_probe.lua")
  assert(g:save(dir .. "/g.save"))
  local naval = dir .. "/families/journal_probe/naval.lua"
  write(naval, read(naval) .. "\n-- changed\n")
  local back = assert(game_mod.load(dir .. "/g.save"))
  t.eq(#back.warnings, 1)
  t.ok(back.warnings[1]:find("journal_probe/naval.lua changed since the save", 1, true), back.warnings[1])
  os.execute("rm -rf " .. dir)
end)

-- a good save text, and ways to damage it
local good = sample_game().state:save_text({ { "seed", "77" }, { "dice", "fake-dice 1 77 0" } })

local function rechecksum(body)   -- body without its checksum line
  return body .. ("checksum %s\n"):format(S.hash_bytes(body))
end
local body = good:match("^(.*\n)checksum %x+\n$")
local function edit(pattern, repl) return rechecksum((body:gsub(pattern, repl, 1))) end

local garbage = {}
do
  local x = 12345
  for i = 1, 4096 do x = (x * 1103515245 + 12345) % 2147483648; garbage[i] = string.char(x % 256) end
  garbage = table.concat(garbage)
end

local damaged = {
  { "empty", "", "empty file" },
  { "one byte", "k", "not a keel save" },
  { "truncated in the magic", good:sub(1, 5), "not a keel save" },
  { "truncated after the version", good:sub(1, 12), "truncated" },
  { "truncated at half", good:sub(1, #good // 2), "truncated" },
  { "truncated before the checksum", body, "truncated" },
  { "last newline missing", good:sub(1, -2), "truncated" },
  { "checksum cut short", good:sub(1, -6) .. "\n", "truncated or damaged" },
  { "flipped byte in the body", good:sub(1, 200) .. string.char(good:byte(201) ~ 1) .. good:sub(202), "checksum mismatch" },
  { "flipped byte in the checksum", good:sub(1, -3) .. (good:sub(-2, -2) == "0" and "1" or "0") .. "\n", "checksum mismatch" },
  { "a line deleted", good:gsub("\nV [^\n]*", "", 1), "checksum mismatch" },
  { "wrong version", good:gsub("^keel%-save %d+", "keel-save 3"), "version 3 is not supported" },
  { "version 0", good:gsub("^keel%-save %d+", "keel-save 0"), "version 0 is not supported" },
  { "version not a number", good:gsub("^keel%-save %d+", "keel-save x"), "malformed version" },
  { "binary garbage", garbage, "not a keel save" },
  { "zero bytes", string.rep("\0", 1000), "not a keel save" },
  { "another format", '{"ev":"header"}\n', "not a keel save" },
  { "two saves concatenated", good .. good, "checksum mismatch" },
  { "CRLF line endings", rechecksum((body:gsub("\n", "\r\n"))), "malformed version" },
  { "units out of order", edit("\nU 2 ", "\nU 9 "), "out of order" },
  { "unknown line", edit("\nV ", "\nQ "), "unknown line" },
  { "carried by a missing unit", edit("\nU 3 (.-) 5 2\n", "\nU 3 %1 5 99\n"), "carried by a unit that cannot carry it" },
  { "counts do not match", edit("\nend (%d+)", function(n) return "\nend " .. (tonumber(n) + 1) end), "counts do not match" },
  { "no end line", rechecksum((body:gsub("end [^\n]*\n$", ""))), "no 'end' line" },
  { "bad string escape", edit('"Warspite"', '"War\\qspite"'), "unit: malformed" },
  { "integer overflow", edit("\nV 1 \"strength\" 5", "\nV 1 \"strength\" 99999999999999999999"), "value: malformed" },
  { "nan", edit("\nV 1 \"strength\" 5", "\nV 1 \"strength\" nan"), "value: malformed" },
  { "negative hits", edit("\nU 1 (\"Warspite\" \"BB\" \"Allied\") (%d+) (%d+)", "\nU 1 %1 %2 -4"), "out of range" },
  { "member not a unit", edit("\nE 1 ", "\nE 1 777 "), "members: unknown unit" },
  { "text after end", rechecksum(body .. "W \"x\" 1\n"), "text after 'end'" },
  { "trailing text on a line", edit("\nG 1 (\"[^\"]*\")", "\nG 1 %1 extra"), "unexpected text" },
  { "bad location kind", edit("\nU 1 (.-) (%d+) (%d+)\n", "\nU 1 %1 42 %3\n"), "bad location kind" },
  { "keyed key not an array", edit('\nK "zoc" %[', '\nK "zoc" {'), "keyed value: malformed" },
  { "keyed key of four parts", edit('%["Axis",3%]', '["Axis",3,4,5]'), "keyed value: malformed" },
  { "keyed key part a float", edit('%["Axis",3%]', '["Axis",3.5]'), "keyed value: malformed" },
  { "keyed count wrong", edit("\nend (%d+) (%d+) (%d+) (%d+) 1\n", "\nend %1 %2 %3 %4 2\n"), "counts do not match" },
  { "keyed count missing", edit("\nend (%d+) (%d+) (%d+) (%d+) 1\n", "\nend %1 %2 %3 %4\n"), "end: malformed" },
  -- a line given twice (the last used to win, silently)
  { "a value given twice", edit('\nV 1 "strength" 5\n', '\nV 1 "strength" 5\nV 1 "strength" 7\n'),
    "value 'strength' of unit 1 is given twice" },
  { "a marker given twice", edit('\nM 1 "DG" 1\n', '\nM 1 "DG" 1\nM 1 "DG" 2\n'),
    "marker 'DG' of unit 1 is given twice" },
  { "a group attribute given twice", edit('\nA 1 "kind" "combat"\n', '\nA 1 "kind" "combat"\nA 1 "kind" "escort"\n'),
    "group attribute 'kind' of group 1 is given twice" },
  { "a global given twice", edit('\nW "turn" 1\n', '\nW "turn" 1\nW "turn" 2\n'), "global 'turn' is given twice" },
  { "an owner given twice", edit('\nO (%-?%d+) "Axis"\n', '\nO %1 "Axis"\nO %1 "Allied"\n'), "the owner of hex " },
  { "a keyed value given twice", edit('\nK "zoc" %["Axis",3%] true\n', '\nK "zoc" ["Axis",3] true\nK "zoc" ["Axis",3] false\n'),
    "keyed value of 'zoc': a key is given twice" },
}

t.test("save-3: " .. #damaged .. " damaged save files are refused with a clear message", function()
  t.ok(#damaged >= 25)
  local dir = tmpdir()
  for i, case in ipairs(damaged) do
    local name, text, why = case[1], case[2], case[3]
    t.ok(text ~= good, name .. ": the damage changed something")
    local path = ("%s/%02d.save"):format(dir, i)
    write(path, text)
    local g, err = game_mod.load(path)
    t.eq(g, nil, name)
    t.ok(type(err) == "string" and err:find(path, 1, true), name .. ": names the file")
    t.ok(err:find(why, 1, true), ("%s: %q does not say %q"):format(name, err, why))
  end
  os.execute("rm -rf " .. dir)
end)

t.test("save-4: an enormous file, a folder and a missing file are refused without reading them", function()
  local dir = tmpdir()
  os.execute(("truncate -s 3G %s/huge.save"):format(dir))
  local g, err = game_mod.load(dir .. "/huge.save")
  t.eq(g, nil)
  t.ok(err:find("too large for a save", 1, true), err)
  g, err = game_mod.load(dir)
  t.eq(g, nil); t.ok(err:find(dir .. ": a folder, not a save file", 1, true), err)
  g, err = game_mod.load(dir .. "/missing.save")
  t.eq(g, nil); t.ok(err:find("cannot read (No such file or directory)", 1, true), err)
  os.execute("rm -rf " .. dir)
end)

t.test("save-5: a save killed at any moment leaves the old file or the new one", function()
  local dir = tmpdir()
  local path = dir .. "/big.save"
  local loop = "tests/lua/data/state/save_loop.lua"
  local p = io.popen(("%s script %s %s hashes"):format(KEEL, loop, path))
  local ha, hb = p:read("l"):match("^(%x+)%s+(%x+)$")
  p:close()
  t.ok(ha and hb and ha ~= hb)
  local seen = { [ha] = 0, [hb] = 0 }
  local kills = 16
  for i = 1, kills do
    local delay = 0.35 + (i * 0.037) % 0.5
    os.execute(("%s script %s %s loop >/dev/null 2>&1 & pid=$!; sleep %.3f; kill -9 $pid; wait $pid 2>/dev/null")
      :format(KEEL, loop, path, delay))
    local f = io.open(path, "rb")
    if f then
      f:close()
      local g, err = S.load(path)
      t.ok(g, ("kill %d after %.3fs: %s"):format(i, delay, tostring(err)))
      if g then
        local h = g:hash_hex()
        t.ok(seen[h], "the file holds state A or state B, got " .. h)
        seen[h] = (seen[h] or 0) + 1
        g:close()
      end
    end
  end
  t.ok(seen[ha] + seen[hb] > 0, "at least one save completed")
  local function temps()
    local ls = io.popen(("ls %s | grep -c tmp"):format(dir))
    local n = tonumber(ls:read("l")) or 0
    ls:close()
    return n
  end
  t.ok(temps() <= 1, "killed saves leave at most one temp file, not one each")
  local g = assert(S.load(path))
  t.ok(g:save(path), "the next save succeeds")
  g:close()
  t.eq(temps(), 0, "and the next save leaves no temp file behind")
  os.execute("rm -rf " .. dir)
end)

t.test("save-6: the action numbering goes on after a load (numbers are never reused); save, load, save is byte-identical", function()
  local dir = tmpdir()
  local g, set = start(PROBE)
  for _ = 1, 26 do assert(set:act(g, "barrage", { target = 5 })) end
  t.eq(g.state:action_number(), 26)
  assert(g:save(dir .. "/a.save"))
  local back = assert(game_mod.load(dir .. "/a.save"))
  t.eq(back.state:action_number(), 26)
  assert(back:save(dir .. "/b.save"))
  t.eq(read(dir .. "/b.save"), read(dir .. "/a.save"))
  -- the next action is number 27, and so in the journal
  local _, set2 = start(PROBE)
  assert(set2:act(back, "barrage", { target = 5 }))
  t.ok(back:journal_text():find('{"ev":"action","action":27,', 1, true), back:journal_text():sub(-600))
  os.execute("rm -rf " .. dir)
end)

-- a saved game whose meta line `key` reads `value`
local function with_meta(dir, key, value)
  local g = start(PROBE)
  assert(g:save(dir .. "/m.save"))
  local text = read(dir .. "/m.save")
  local lines, done = {}, false
  for l in text:gmatch("[^\n]+") do
    if l:find(('meta %q '):format(key), 1, true) == 1 then l = ('meta %q %s'):format(key, value); done = true end
    if not l:find("^checksum ") then lines[#lines + 1] = l end
  end
  if not done then table.insert(lines, 2, ('meta %q %s'):format(key, value)) end
  local b = table.concat(lines, "\n") .. "\n"
  write(dir .. "/m.save", rechecksum(b))
  return game_mod.load(dir .. "/m.save")
end

t.test("save-7: a damaged meta line is refused: variants, actions, a key given twice", function()
  local dir = tmpdir()
  for _, c in ipairs {
    { "variants", '"[1,"', 'meta "variants": a JSON list of variant files expected, got "[1,"' },
    { "variants", '"{\\"a\\":1}"', 'meta "variants": a JSON list of variant files expected' },
    { "variants", '"[5]"', 'meta "variants": a JSON list of variant files expected, got "[5]"' },
    { "variants", '"' .. ("["):rep(100000) .. ("]"):rep(100000) .. '"', 'meta "variants": a JSON list of variant files expected' },
    { "actions", '"-3"', 'meta "actions": a whole number >= 0 expected, got "-3"' },
    { "actions", '"2.5"', 'meta "actions": a whole number >= 0 expected, got "2.5"' },
    { "actions", '"lots"', 'meta "actions": a whole number >= 0 expected, got "lots"' },
    { "seed", '"7x"', "save has no seed or dice state" },
  } do
    local g, err = with_meta(dir, c[1], c[2])
    t.eq(g, nil, c[1] .. " " .. c[2]:sub(1, 20))
    t.ok(tostring(err):find(dir .. "/m.save: " .. c[3], 1, true), tostring(err))
  end
  -- a meta key given twice
  local g = start(PROBE)
  assert(g:save(dir .. "/m.save"))
  local text = read(dir .. "/m.save")
  local b = text:match("^(.*\n)checksum %x+\n$"):gsub('(meta "seed" "77"\n)', '%1meta "seed" "78"\n', 1)
  write(dir .. "/m.save", rechecksum(b))
  local back, err = game_mod.load(dir .. "/m.save")
  t.eq(back, nil)
  t.ok(err:find('meta "seed" is given twice', 1, true), err)
  os.execute("rm -rf " .. dir)
end)

t.test("save-9: a save or file that cannot be written or read says the system's reason", function()
  local dir = tmpdir()
  local g = sample_game()
  local hash = g.state:hash()
  local ok, err = g:save(dir .. "/no/such/folder/g.save")
  t.eq(ok, nil)
  t.ok(err:find(dir .. "/no/such/folder/g.save: cannot write the save (No such file or directory)", 1, true), err)
  t.eq(g.state:hash(), hash, "the game is as before")
  ok, err = keel.file.write(dir .. "/no/x.txt", "x")
  t.eq(ok, nil)
  t.ok(err:find("cannot write (No such file or directory)", 1, true), err)
  write(dir .. "/plain", "x\n")
  ok, err = keel.file.write(dir .. "/plain/x.txt", "x")
  t.eq(ok, nil)
  t.ok(err:find("cannot write (Not a directory)", 1, true), err)
  local st, why = keel.state.load(dir .. "/plain/x.save")
  t.eq(st, nil)
  t.ok(why:find("cannot read (Not a directory)", 1, true), why)
  os.execute("rm -rf " .. dir)
end)

t.test("save-8: saving never follows a planted symlink, and keeps the file's mode", function()
  local dir = tmpdir()
  local g = sample_game()
  local path = dir .. "/g.save"
  write(dir .. "/precious", "do not overwrite\n")
  os.execute(("ln -s %s/precious %s.tmp"):format(dir, path))
  assert(g:save(path))
  t.eq(read(dir .. "/precious"), "do not overwrite\n", "the link's target is untouched")
  local _, out = t.sh(("test -L %s && echo link || echo file"):format(path))
  t.eq(out, "file\n", "the save is a file of its own")
  t.ok(game_mod.load(path))
  -- a dangling link too
  os.execute(("rm -f %s.tmp; ln -s %s/nowhere %s.tmp"):format(path, dir, path))
  assert(g:save(path))
  _, out = t.sh(("ls %s/nowhere 2>/dev/null; test -e %s.tmp && echo left || echo gone"):format(dir, path))
  t.eq(out, "gone\n", "nothing made through the link, no temp file left")
  -- the mode stays what it was
  os.execute("chmod 600 " .. path)
  assert(g:save(path))
  local code
  code, out = t.sh("stat -c %a " .. path)
  t.eq(code, 0)
  t.eq(out, "600\n")
  os.execute("chmod 640 " .. path)
  assert(g:save(path))
  t.eq(select(2, t.sh("stat -c %a " .. path)), "640\n")
  -- a new file: 0644 less the umask
  assert(g:save(dir .. "/new.save"))
  t.eq(select(2, t.sh("umask 022; stat -c %a " .. dir .. "/new.save")), "644\n")
  os.execute("rm -rf " .. dir)
end)

t.test("save-empty-path: a save to an empty path is refused with a reason, not an error from game.lua; through keel serve too", function()
  local game = start(PROBE)
  local before = game:hash()
  t.eq({ game:save("") }, { nil, "a save needs a file name, not an empty path" })
  t.eq(game:hash(), before)
  local status, out = t.sh(("printf '%%s\\n' '{\"op\":\"open\",\"scenario\":\"%s\"}' '{\"op\":\"save\",\"path\":\"\"}' "
    .. "| %s serve --stdio"):format(PROBE, KEEL))
  t.eq(status, 0, out)
  t.ok(out:find('"message":"save: path must be a file name, not an empty path"', 1, true), out)
  t.ok(not out:find("game.lua", 1, true) and not out:find("out of its domain", 1, true), out)
end)

-- ---- 32: saves keep the game --------------------------------------------------------

local SUEZ = "scenarios/suez_1942.lua"

-- the showcase's first n scripted orders played (all when n is nil); the run
local function suez_run(n)
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load(SUEZ))
  for i, order in ipairs(run.spec.orders) do
    if n and i > n then break end
    run:play(i, order)
  end
  return run
end

t.test("32-save-history-1: save, load, play on: the journal is the game's whole, byte for byte, and keel replay and keel view take it", function()
  local dir = tmpdir()
  local scenario = require "keel.scenario"
  local whole = suez_run()
  local first = suez_run(20)
  assert(first.game:save(dir .. "/g.save"))
  t.ok(read(dir .. "/g.save"):find('meta "journal_hash" "%x+"'), "the journal's hash is kept")
  local loaded = assert(game_mod.load(dir .. "/g.save"))
  t.eq(loaded:journal_text(), first.game:journal_text(), "a loaded game's journal is the saved one, no header of its own")
  local run = scenario.resume(scenario.load(SUEZ), loaded)
  for i, order in ipairs(run.spec.orders) do
    if i > 20 then run:play(i, order) end
  end
  t.eq(run.game:journal_text(), whole.game:journal_text(), "the same journal as the game played without the save")
  t.eq(run.game:hash_hex(), whole.game:hash_hex())
  assert(run.game:write_journal(dir .. "/j.jsonl"))
  local code, out = t.sh(KEEL .. " replay " .. dir .. "/j.jsonl")
  t.eq(code, 0, out)
  t.ok(out:find("replayed 42 actions", 1, true), out)
  code, out = t.sh(("%s view %s/j.jsonl -o %s/j.html"):format(KEEL, dir, dir))
  t.eq(code, 0, out)
  os.execute("rm -rf " .. dir)
end)

t.test("32-save-history-2: undo after a load goes back past the save (scenario.resume plays its journal again); a bare load says why it cannot", function()
  local dir = tmpdir()
  local scenario = require "keel.scenario"
  local before = suez_run(19)
  local first = suez_run(20)
  assert(first.game:save(dir .. "/g.save"))
  local run = scenario.resume(scenario.load(SUEZ), assert(game_mod.load(dir .. "/g.save")))
  t.eq(run.game.warnings, {})
  local n = run.game.state:count_actions()
  t.ok(n >= 17, "the undo history of the saved game: " .. n)
  run.game:undo(1)
  t.eq(run.game:hash_hex(), before.game:hash_hex(), "undo of the order played before the save")
  run.game:redo(1)
  t.eq(run.game:hash_hex(), first.game:hash_hex())
  -- a bare load (keel.game.load) has no undo history: undo says why
  local bare = assert(game_mod.load(dir .. "/g.save"))
  local ok, err = pcall(bare.undo, bare, 1)
  t.eq(ok, false)
  t.ok(tostring(err):find("undo 1: 0 action(s) can be undone; the game was loaded from " .. dir .. "/g.save and the ", 1, true), err)
  t.ok(tostring(err):find("before that save are in its journal, not in the undo history", 1, true), err)
  t.eq(bare:hash_hex(), first.game:hash_hex(), "the state as before")
  -- a save that keeps no journal (the journal off) says that instead
  first.game.state:journal_clear()
  assert(first.game:save(dir .. "/old.save"))
  local old = assert(game_mod.load(dir .. "/old.save"))
  ok, err = pcall(old.undo, old, 2)
  t.eq(ok, false)
  t.ok(tostring(err):find("undo 2: 0 action(s) can be undone; the game was loaded from " .. dir
    .. "/old.save, a save that keeps neither the ", 1, true), err)
  t.ok(tostring(err):find("action(s) before it nor its journal", 1, true), err)
  os.execute("rm -rf " .. dir)
end)

t.test("32-save-history-3: a save whose journal is edited is refused; one whose journal no longer plays again loads with a warning", function()
  local dir = tmpdir()
  local first = suez_run(20)
  assert(first.game:save(dir .. "/g.save"))
  local text = read(dir .. "/g.save")
  -- the journal edited (an order's hex) and the file's checksum made again
  local sbody = text:match("^(.*\n)checksum %x+\n$")
  local edited = sbody:gsub('19A:3412', '19A:3413', 1)
  t.ok(edited ~= sbody)
  write(dir .. "/e.save", edited .. "checksum " .. S.hash_bytes(edited) .. "\n")
  local g, err = game_mod.load(dir .. "/e.save")
  t.eq(g, nil)
  t.eq(err, dir .. '/e.save: meta "journal": its hash is not meta "journal_hash" (a damaged or edited journal)')
  -- a journal (and hash) consistent in itself, but not this game's state: loads, undo only back to the load
  local j = sbody:match('meta "journal" ("[^\n]*")\n')
  local jt = require("keel.json").decode(j)
  local jt2 = jt:gsub('"action":2,"name":"end_phase"', '"action":2,"name":"end_phase","x":1', 1)
  local body2 = sbody:gsub('meta "journal_hash" "%x+"', 'meta "journal_hash" "' .. S.hash_bytes(jt2) .. '"', 1)
  local i, k = body2:find('meta "journal" "[^\n]*"')
  body2 = body2:sub(1, i - 1) .. 'meta "journal" ' .. require("keel.json").encode(jt2) .. body2:sub(k + 1)
  write(dir .. "/d.save", body2 .. "checksum " .. S.hash_bytes(body2) .. "\n")
  local scenario = require "keel.scenario"
  local run = scenario.resume(scenario.load(SUEZ), assert(game_mod.load(dir .. "/d.save")))
  t.eq(#run.game.warnings, 1, run.game.warnings)
  t.ok(run.game.warnings[1]:find("^undo reaches back only to the load: the save's journal does not play again: "),
    run.game.warnings[1])
  t.eq(run.game:hash_hex(), first.game:hash_hex())
  os.execute("rm -rf " .. dir)
end)

t.test("32-save-streamed: a game whose journal streams to its file saves the whole journal and loads with it", function()
  local dir = tmpdir()
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load("scenarios/suez_1942.lua"), {})
  assert(run.game:stream_journal(dir .. "/g.jsonl"))
  run:play_all()
  assert(run.game:save(dir .. "/g.save"))
  assert(run.game:close_journal())
  local whole = read(dir .. "/g.jsonl")
  t.ok(whole:find('^{"ev":"header"'), "the streamed file holds the whole journal")
  local g = assert(game_mod.load(dir .. "/g.save"))
  t.eq(g:journal_text(), whole, "the save kept the journal written to the file, not only the lines still held")
  os.execute("rm -rf " .. dir)
end)
