-- tests/lua/pbem_test.lua — keel pbem (32): a showcase played by e-mail to
-- its end, each step a separate keel process; the file against the game
-- played in one process; every kind of tampering refused, naming the order
-- and the rule; sealed orders (hidden information) and their reveals.
local t = require "keel.testing"
local json = require "keel.json"
local pbem = require "keel.pbem"
local player = require "keel.player"

local KEEL = t.keel_bin
local SUEZ = "scenarios/suez_1942.lua"

local function write(path, s) local f = assert(io.open(path, "wb")); f:write(s); f:close() end
local function find_line(lines, pattern)
  for i, l in ipairs(lines) do if l:find(pattern) then return i end end
  error("no line " .. pattern)
end
local function lines_of(text)
  local out = {}
  for l in text:gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

-- `side`'s orders for its part of the game in `text`, by a player, played
-- on a copy of the game here (the test's own side of the table): the order
-- lines of an --orders file
local function orders_by(text, side, spec, seed)
  local res = pbem.check(text, "game.keel")
  local set, game = res.run.set, res.run.game
  local p = assert(player.new(spec, { seed = seed }))
  local out = {}
  while true do
    local st = set:status(game)
    local mine = false
    for _, s in ipairs(st.active) do if s == side then mine = true end end
    if st.over or not mine then break end
    local name, params = p:decide(set, game, side)
    assert(set:act(game, name, params, side))
    out[#out + 1] = name .. " " .. require("keel").state.json(params or {})
  end
  return table.concat(out, "\n") .. "\n"
end

-- the same game in one process: the Axis by `random` with seed k at its
-- k-th part, the Allies by `greedy`, as the two players below play it
local function one_process()
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load(SUEZ))
  local set, game = run.set, run.game
  local part = 0
  while not set:status(game).over do
    part = part + 1
    local side = set:status(game).active[1]
    local p = assert(player.new(side == "Axis" and "random" or "greedy", { seed = part }))
    while true do
      local st = set:status(game)
      if st.over or st.active[1] ~= side then break end
      local name, params = p:decide(set, game, side)
      assert(set:act(game, name, params, side))
    end
  end
  return game
end

local dir = t.tmpdir()

t.test("32-pbem-1: suez_1942 played by e-mail to its end (each step a keel process; the Axis a bot, the Allies from orders files); the file is the one-process game", function()
  local file = dir .. "/suez.keel"
  local code, out = t.sh(("%s pbem new %s -o %s"):format(KEEL, SUEZ, file))
  t.eq(code, 0, out)
  t.ok(out:find("Axis to decide", 1, true), out)
  local part, sealed_seen = 0, false
  while true do
    local text = t.read_file(file)
    local res = pbem.check(text, file)
    if res.status.over then break end
    part = part + 1
    t.ok(part < 200, "the game ends")
    local side = res.status.active[1]
    if side == "Axis" then
      code, out = t.sh(("%s pbem play %s --side Axis --player random --seed %d"):format(KEEL, file, part))
    else
      -- the Allies: what they were told first, then their orders from a file
      code, out = t.sh(("%s pbem show %s --side Allied"):format(KEEL, file))
      t.eq(code, 0, out)
      t.ok(out:find("to decide: Allied (you)", 1, true), out)
      if out:find("an order hidden from Allied (sealed", 1, true) then sealed_seen = true end
      local orders = dir .. "/allied.txt"
      write(orders, orders_by(text, "Allied", "greedy", part))
      code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, file, orders))
    end
    t.eq(code, 0, out)
    t.ok(out:find(("turn %d, %s played"):format(part, side), 1, true), out)
  end
  t.ok(sealed_seen, "the Allies were shown sealed Axis orders")
  code, out = t.sh(("%s pbem verify %s --journal %s/suez.jsonl"):format(KEEL, file, dir))
  t.eq(code, 0, out)
  t.ok(out:find("the game is over", 1, true), out)
  -- the one-process game: the same journal, byte for byte, and the same orders
  local game = one_process()
  t.eq(t.read_file(dir .. "/suez.jsonl"), game:journal_text(), "the file's game is the one-process game")
  local actions = {}
  for _, l in ipairs(game:journal_lines()) do
    local e = json.decode(l, { nulls = false })
    if e.ev == "action" and e.side then actions[#actions + 1] = e end
  end
  local res = pbem.check(t.read_file(file), file)
  t.eq(#res.orders, #actions)
  for i, o in ipairs(res.orders) do
    local a = actions[i]
    t.eq({ o.action, o.side, o.name, json.encode(o.order) }, { a.action, a.side, a.name, json.encode(a.order or {}) })
  end
  code, out = t.sh(("%s replay %s/suez.jsonl"):format(KEEL, dir))
  t.eq(code, 0, out)
  -- every sealed order is revealed by the end, and the reveal checked
  local n = 0
  for _, o in pairs(res.sealed) do n = n + 1; t.ok(o.revealed, "order " .. o.action .. " revealed") end
  t.ok(n > 0, "some orders were sealed")
  -- a reveal changed (another order than the sealed one): refused against the commitment
  local lines = lines_of(t.read_file(file))
  local i = find_line(lines, '"ev":"reveal"')
  local e = json.decode(lines[i])
  lines[i] = lines[i]:gsub('"name":"[%w_]+"', e.name == "end_phase" and '"name":"move"' or '"name":"end_phase"', 1)
  write(dir .. "/reveal.keel", table.concat(lines, "\n") .. "\n")
  code, out = t.sh(("%s pbem verify %s/reveal.keel"):format(KEEL, dir))
  t.eq(code, 1, out)
  t.ok(out:find((":%d: turn %%d+ %%(%%a+%%): the reveal of order %d %%(%s%%) does not match its commitment %%x+"):format(i,
    e.reveal, e.side)), out)
  os.remove(dir .. "/allied.txt")
end)

-- A short game with known orders: the Axis search, the Allied reaction,
-- the turn over, then the Afrika Korps' advance (turn 2).
local AK_TO, AK_FROM = (function()
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load(SUEZ))
  local to, from = run:hex("19A:3014"), run:hex("19A:2614")
  run.game.state:close()
  return to, from
end)()
local SCRIPT = {
  { "Axis", { { "end_phase" }, { "move", { group = 1, path = { "19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412" } } } } },
  { "Allied", { { "react", { group = 3, against = 1 } }, { "move", { group = 3, to = "19A:3411" } }, { "end_phase" } } },
  { "Axis", { { "move", { group = 1, path = { "19A:3413" } } }, { "end_phase" }, { "end_phase" } } },
  { "Allied", { { "end_phase" }, { "end_phase" }, { "end_phase" } } },
  { "Axis", { { "end_phase" }, { "end_phase" }, { "advance", { unit = 7, to = AK_TO } }, { "end_phase" } } },
}

local function scripted(upto)
  local text = pbem.new(SUEZ)
  for i, part in ipairs(SCRIPT) do
    if upto and i > upto then break end
    local next_order = pbem.from_list(part[2])
    text = pbem.play(text, "s.keel", part[1], next_order)
  end
  return text
end

-- the file with one line changed by fn(lines) (the lines, no newlines), verified by keel
local function tampered(name, fn)
  local lines = lines_of(scripted())
  fn(lines)
  local path = dir .. "/" .. name .. ".keel"
  write(path, table.concat(lines, "\n") .. "\n")
  local code, out = t.sh(("%s pbem verify %s"):format(KEEL, path))
  t.eq(code, 1, out)
  t.eq(out:find("keel/[%w_/]+%.lua:%d+:"), nil, out)
  return out, path
end


t.test("32-pbem-2: the scripted file verifies; the reaction window ends the Axis turn; orders naming hidden groups are sealed, the rest clear", function()
  local text = scripted()
  local path = dir .. "/s.keel"
  write(path, text)
  local code, out = t.sh(("%s pbem verify %s"):format(KEEL, path))
  t.eq(code, 0, out)
  t.ok(out:find("5 turn(s), 15 order(s) (4 sealed)", 1, true), out)
  local lines = lines_of(text)
  -- the Axis move of the unknown Regia: sealed, hidden from the Allies; the end_phase before it clear
  t.ok(lines[4]:find('"action":2,"side":"Axis","name":"end_phase"', 1, true), lines[4])
  t.ok(lines[5]:find('"action":3,"side":"Axis","sealed":"%x+","salt":"%x+","commit":"%x+","hidden_from":%["Allied"%]'), lines[5])
  t.eq(text:find("19A:3407", 1, true), nil, "the path of the hidden group is nowhere in the clear")
  -- the Afrika Korps (seen in full) advances in the clear
  t.ok(text:find(('"name":"advance","order":{"to":%d,"unit":7}'):format(AK_TO), 1, true), text)
  -- what each side is told
  code, out = t.sh(("%s pbem show %s --side Allied"):format(KEEL, path))
  t.eq(code, 0, out)
  t.ok(out:find(('turn 5, Axis: action 15, advance {"to":%d,"unit":7}'):format(AK_TO), 1, true), out)
  t.ok(out:find("now: turn 2, the Allied initial; to decide: Allied (you)", 1, true), out)
  code, out = t.sh(("%s pbem show %s --side Axis"):format(KEEL, path))
  t.eq(code, 0, out)
  t.ok(out:find("since Axis's turn 5:\n  nothing", 1, true), out)
  t.ok(out:find("to decide: Allied\n", 1, true), out)
end)

t.test("32-pbem-3: an edited order is refused, naming the order and the rule", function()
  local out = tampered("edited", function(l)
    local i = find_line(l, '"name":"advance"')
    l[i] = l[i]:gsub(tostring(AK_TO), tostring(AK_FROM))
  end)
  t.ok(out:find((":25: turn 5 (Axis): the rules refuse order 15 'advance' {\"to\":%d,\"unit\":7}: "):format(AK_FROM), 1, true)
    or out:find((":25: turn 5 (Axis): order 15 'advance' {\"to\":%d,\"unit\":7}: state hash "):format(AK_FROM), 1, true), out)
  t.ok(out:find("(rule ", 1, true), out)
  -- an edited sealed order: its commitment no longer matches
  out = tampered("edited-sealed", function(l)
    l[5] = l[5]:gsub('"sealed":"(%x)', function(c) return '"sealed":"' .. (c == "0" and "1" or "0") end)
  end)
  t.ok(out:find(":5: turn 1 (Axis): sealed order 3 does not match its commitment", 1, true), out)
end)

t.test("32-pbem-4: a removed line and a reordered pair are refused, naming the order and the rule", function()
  local out = tampered("removed", function(l) table.remove(l, 4) end)   -- the Axis end_phase of its initial phase
  t.ok(out:find(":4: turn 1 (Axis): the rules refuse order 3 a sealed order: ", 1, true), out)
  t.ok(out:find("(rule 32.A)", 1, true) or out:find("(rule the sequence of play)", 1, true), out)
  out = tampered("reordered", function(l) l[4], l[5] = l[5], l[4] end)
  t.ok(out:find(":4: turn 1 (Axis): the rules refuse order 3 a sealed order: ", 1, true), out)
  t.ok(out:find("(rule ", 1, true), out)
end)

t.test("32-pbem-5: a changed state hash is refused, naming the order and the rule; a changed chain hash, naming the turn", function()
  local out = tampered("hash", function(l)
    local i = find_line(l, '"name":"advance"')
    l[i] = l[i]:gsub('"hash":"(%x)', function(c) return '"hash":"' .. (c == "0" and "1" or "0") end)
  end)
  t.ok(out:find(("hash.keel:25: turn 5 (Axis): order 15 'advance' {\"to\":%d,\"unit\":7}: state hash "):format(AK_TO), 1, true), out)
  t.ok(out:find("%x+ in the file, %x+ on replay %(rule S%.1%)"), out)
  out = tampered("chain", function(l)
    local i = find_line(l, '"ev":"end","end":2')
    l[i] = l[i]:gsub('"chain":"(%x)', function(c) return '"chain":"' .. (c == "0" and "1" or "0") end)
  end)
  t.ok(out:find("turn 2 %(Allied%): the chain hash of turn 2 is %x+ in the file, %x+ from its lines"), out)
end)

t.test("32-pbem-6: a change of variant, of rules or of keel version is refused, saying so", function()
  local out = tampered("variant", function(l)
    l[2] = l[2]:gsub('"variants":{}', '"variants":["tests/families/variants/lab_search_7_10.lua"]')
  end)
  t.ok(out:find(":2: the game was set up under other rules or variants than this keel sets its header's up with "
    .. '(variants ["tests/families/variants/lab_search_7_10.lua"]; rule files: ', 1, true), out)
  t.ok(out:find("here: tests/families/variants/lab_search_7_10.lua ", 1, true), out)
  out = tampered("turn-rules", function(l)
    local i = find_line(l, '"ev":"turn","turn":3')
    l[i] = l[i]:gsub('"rules":"(%x)', function(c) return '"rules":"' .. (c == "0" and "1" or "0") end)
  end)
  t.ok(out:find("turn 3 (Axis) was played under other rules or variants", 1, true), out)
  out = tampered("keel-version", function(l)
    local i = find_line(l, '"ev":"turn","turn":4')
    l[i] = l[i]:gsub('"keel":"[^"]*"', '"keel":"0.0.9"')
  end)
  t.ok(out:find("turn 4 (Allied) was played by keel 0.0.9; this is keel ", 1, true), out)
end)

t.test("32-pbem-7: a file replayed twice is refused: a turn given twice in the file, an old file sent again, one sent back unplayed", function()
  local out = tampered("twice", function(l)
    local a, b = find_line(l, '"ev":"turn","turn":2'), find_line(l, '"ev":"end","end":2')
    local copy = {}
    for i = a, b do copy[#copy + 1] = l[i] end
    for k = #copy, 1, -1 do table.insert(l, b + 1, copy[k]) end
  end)
  t.ok(out:find(": turn 2 where turn 3 was expected (a turn given twice, left out or out of order)", 1, true), out)
  -- the Allies received turn 3 and checked it (their .seen); the Axis send the turn-1 file again
  local path = dir .. "/seen.keel"
  write(path, scripted(3))
  local code
  code, out = t.sh(("%s pbem verify %s --side Allied"):format(KEEL, path))
  t.eq(code, 0, out)
  write(path, scripted(1))
  write(dir .. "/none.txt", "")
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s/none.txt"):format(KEEL, path, dir))
  t.eq(code, 1, out)
  t.ok(out:find(path .. ": Allied has already seen turn 3 (chain ", 1, true), out)
  t.ok(out:find("); this file ends at turn 1: an old file sent again", 1, true), out)
  -- the turn 3 played again another way (a file replayed with other dice or orders): the history was rewritten
  local other = pbem.new(SUEZ)
  for i = 1, 2 do other = pbem.play(other, "o.keel", SCRIPT[i][1], pbem.from_list(SCRIPT[i][2])) end
  other = pbem.play(other, "o.keel", "Axis", pbem.from_list({ { "end_phase" }, { "end_phase" } }))
  write(path, other)
  code, out = t.sh(("%s pbem verify %s --side Allied"):format(KEEL, path))
  t.eq(code, 1, out)
  t.ok(out:find("turn 3 has chain %x+ here, but Allied saw it as %x+: the history was rewritten"), out)
  -- the Allies play turn 4, then get their own file back
  write(path, scripted(3))
  local orders = dir .. "/o.txt"
  write(orders, "end_phase\nend_phase\nend_phase\n")
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 0, out)
  code, out = t.sh(("%s pbem verify %s --side Allied"):format(KEEL, path))
  t.eq(code, 0, "checking one's own file keeps that one sent it: " .. out)
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find("the last turn (4) is the one Allied sent: the file came back unplayed", 1, true), out)
end)

t.test("32-pbem-8: play refuses, the file unchanged: a side not to decide, an order the rules refuse, orders left over or run out", function()
  local path = dir .. "/p.keel"
  local text = scripted(1)
  write(path, text)
  local orders = dir .. "/o.txt"
  write(orders, "end_phase\n")
  local code, out = t.sh(("%s pbem play %s --side Axis --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find("it is Allied's to decide now (turn 1, the Axis naval_step, Allied's naval reaction movement window), not Axis's",
    1, true), out)
  write(orders, 'close_suez\n')
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find("the rules refuse Allied's order 1 of this turn, 'close_suez' {}: ", 1, true), out)
  t.ok(out:find("(rule the sequence of play); nothing written", 1, true), out)
  write(orders, 'end_phase\nend_phase\n')
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find(orders .. ":2: 1 order(s) left over: the side's part ended before them", 1, true), out)
  write(orders, '# nothing\n')
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find("no more orders, and Allied is still to decide", 1, true), out)
  write(orders, 'move {"group":\n')
  code, out = t.sh(("%s pbem play %s --side Allied --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find(orders .. ":1: the parameters of move: a JSON object expected", 1, true), out)
  t.eq(t.read_file(path), text, "the file as it was")
  write(orders, "end_phase\n")
  code, out = t.sh(("%s pbem play %s --side Nobody --orders %s"):format(KEEL, path, orders))
  t.eq(code, 1, out)
  t.ok(out:find("keel: Nobody is not a side of this game (sides: Axis, Allied)", 1, true), out)
  code, out = t.sh(("%s pbem show %s --side Nobody"):format(KEEL, path))
  t.eq(code, 1, out)
  t.ok(out:find("keel: Nobody is not a side of this game (sides: Axis, Allied)", 1, true), out)
  code, out = t.sh(("%s pbem play %s --side Allied --player nonsense"):format(KEEL, path))
  t.eq(code, 1, out)
  t.ok(out:find("--player nonsense: unknown player 'nonsense'", 1, true), out)
  code, out = t.sh(("%s pbem play %s"):format(KEEL, path))
  t.eq(code, 2, out)
  code, out = t.sh(("%s pbem verify %s/none.keel"):format(KEEL, dir))
  t.eq(code, 1, out)
  write(dir .. "/bad.keel", "hello\n")
  code, out = t.sh(("%s pbem verify %s/bad.keel"):format(KEEL, dir))
  t.eq(code, 1, out)
  t.ok(out:find("bad.keel:1: not a keel play-by-e-mail file", 1, true), out)
  t.eq(t.read_file(path), text, "the file as it was")
end)

t.test("32-pbem-9: the human player at the terminal plays a side's part (keel.player human; the end of its input passes)", function()
  local path = dir .. "/h.keel"
  write(path, scripted(2))
  local code, out = t.sh(("%s pbem play %s --side Axis --player human < /dev/null"):format(KEEL, path))
  t.eq(code, 0, out)
  t.ok(out:find("end_phase", 1, true), "the menu lists the pass: " .. out)
  t.ok(out:find("turn 3, Axis played 2 order(s); now turn 1, the Allied initial; send the file to Allied", 1, true), out)
  code, out = t.sh(("%s pbem verify %s"):format(KEEL, path))
  t.eq(code, 0, out)
end)

t.test("32-pbem-10: show narrates each order since the side last played, as keel run does, where the rules hide nothing", function()
  local path = dir .. "/trident.keel"
  local code, out = t.sh(("%s pbem new scenarios/seazone_trident.lua -o %s"):format(KEEL, path))
  t.eq(code, 0, out)
  code, out = t.sh(("%s pbem play %s --side Opfor --player random"):format(KEEL, path))
  t.eq(code, 0, out)
  code, out = t.sh(("%s pbem show %s --side Allies"):format(KEEL, path))
  t.eq(code, 0, out)
  t.ok(out:find("turn 1, Opfor: action %d+, end_phase {}\n%s+keel The sequence of play") ~= nil, out)
  t.ok(out:find("phasing: \"Opfor\" %-> \"Allies\"") ~= nil, "the changes each order made are told: " .. out)
  -- where the rules hide groups (navgroup's 32.B), the orders alone: the narration would name them
  local suez = dir .. "/suez_show.keel"
  code, out = t.sh(("%s pbem new %s -o %s && %s pbem play %s --side Axis --player random"):format(KEEL, SUEZ, suez,
    KEEL, suez))
  t.eq(code, 0, out)
  code, out = t.sh(("%s pbem show %s --side Allied"):format(KEEL, suez))
  t.eq(code, 0, out)
  t.ok(out:find("turn 1, Axis: action", 1, true) and not out:find("The sequence of play", 1, true), out)
end)

os.execute("rm -rf " .. dir)
