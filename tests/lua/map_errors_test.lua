-- tests/lua/map_errors_test.lua — malformed maps: each gives
-- "file:line:col: ... found X, expected Y", none crashes or hangs, and none
-- builds a board.
-- luacheck: max line length 170
local t = require "keel.testing"
local map = require "keel.map"

local HEAD = "hexes flat even digits 2 first 1 1\nsection 15B at 0 0 size 10 10\n"

-- { name, text, "line:col", substring of the message }
local cases = {
  { "unknown statement", HEAD .. "secton 15B at 0 0 size 2 2\n", "3:1", "found 'secton', expected a statement" },
  { "unknown terrain symbol", HEAD .. "terrain at 15B:0101 {\n  . . Q .\n}\n", "4:7", "unknown terrain symbol: found 'Q'" },
  { "unknown terrain name", HEAD .. "hex 15B:0101 swamp\n", "3:14", "unknown terrain: found 'swamp'" },
  { "unknown default terrain", HEAD .. "default ocean\n", "3:9", "unknown terrain" },
  { "feature between non-adjacent hexes", HEAD .. "side 15B:0101/0303 river\n", "3:6", "hexes not adjacent" },
  { "duplicate hex (statement)", HEAD .. "hex 15B:0101 coastal\nhex 15B:0101 all-sea\n", "4:5", "duplicate hex: found '15B:0101' again" },
  { "duplicate hex (grid then statement)", HEAD .. "terrain at 15B:0101 {\n . c\n}\nhex 15B:0201 all-sea\n", "6:5", "duplicate hex" },
  { "duplicate hex (two grids)", HEAD .. "terrain at 15B:0101 {\n . c\n}\nterrain at 15B:0201 {\n L\n}\n", "7:2", "duplicate hex: found '15B:0201' again" },
  { "bad label (letter)", HEAD .. "hex 15B:01O1 coastal\n", "3:5", "bad hex label" },
  { "bad label (too short)", HEAD .. "hex 15B:011 coastal\n", "3:5", "bad hex label" },
  { "hex off its section", HEAD .. "hex 15B:1111 coastal\n", "3:5", "hex off the board" },
  { "unknown section", HEAD .. "hex 99Z:0101 coastal\n", "3:5", "unknown map section: found '99Z'" },
  { "truncated file (open grid)", HEAD .. "terrain at 15B:0101 {\n . c\n", "5:1", "found end of file, expected a grid row or '}'" },
  { "truncated file (mid statement)", HEAD .. "port 15B:0101", "3:14", "found end of file" },
  { "truncated string", HEAD .. 'place "Port Said\n', "3:17", "expected a closing '\"'" },
  { "binary garbage", HEAD .. "\0\1\2\255\254garbage\n", "3:1", "found '\\x00" },
  { "a 10 MB line", HEAD .. "# " .. ("x"):rep(10 * 1024 * 1024) .. "\n", "3:65537", "line too long" },
  { "a 10 MB terrain row", HEAD .. "terrain at 15B:0101 {\n" .. ("."):rep(10 * 1024 * 1024) .. "\n}\n", "4:65537", "line too long" },
  { "grid runs off the board", HEAD .. "terrain at 15B:0101 {\n . . . . . . . . . . .\n}\n", "4:22", "terrain grid runs off the board" },
  { "unknown hexside feature", HEAD .. "side 15B:0101/0102 creek\n", "3:20", "unknown hexside feature: found 'creek'" },
  { "conflicting features", HEAD .. "side 15B:0101/0102 all-water all-land\n", "3:30", "conflicting features" },
  { "conflicting features over two statements", HEAD .. "side 15B:0101/0102 river\nside 15B:0101/0102 canal\n", "4:6", "conflicting hexside features" },
  { "bad side label", HEAD .. "side 15B:0101-0102 river\n", "3:6", "expected a hexside label" },
  { "side with an off-board hex", HEAD .. "side 15B:1010/1011 river\n", "3:15", "hex off the board" },
  { "unknown port size", HEAD .. "port 15B:0101 huge\n", "3:15", "unknown port size: found 'huge'" },
  { "duplicate port", HEAD .. "port 15B:0101 minor\nport 15B:0101 major\n", "4:6", "duplicate port" },
  { "duplicate place", HEAD .. 'place "A" = 15B:0101\nplace "A" = 15B:0102\n', "4:7", "duplicate place" },
  { "unknown direction in coasts", HEAD .. "coasts 15B:0101 N E\n", "3:19", "unknown direction: found 'E'" },
  { "direction twice in coasts", HEAD .. "coasts 15B:0101 N / N\n", "3:21", "direction listed twice" },
  { "section after data", HEAD .. "hex 15B:0101 coastal\nsection 16 at 0 10 size 2 2\n", "4:1", "section after hex data" },
  { "duplicate section", HEAD .. "section 15B at 0 20 size 2 2\n", "3:9", "duplicate section" },
  { "odd section offset on the shifted axis", HEAD .. "section 16 at 1 20 size 2 2\n", "3:15", "bad section placement" },
  { "no section", "hexes flat\nhex 0101 coastal\n", "2:5", "no map section declared yet" },
  { "empty file", "", "1:1", "no map section" },
  { "hexes after a section", HEAD .. "hexes pointy\n", "3:1", "numbering comes too late" },
  { "bad digits", "hexes digits 7\n", "1:7", "bad digits" },
  -- each once built a wrong board or failed inside keel's own Lua
  { "section past the digits", "hexes digits 2 first 98 98\nsection A at 0 0 size 4 4\n", "2:23",
    "section too large: found column numbers 98 to 101" },
  { "first past 2^32", "hexes digits 2 first 4294967296 1\nsection A at 0 0 size 4 4\n", "1:22",
    "found '4294967296', expected a number between -999999999 and 999999999" },
  { "first past 2^31", "hexes digits 2 first 2147483648 1\nsection A at 0 0 size 4 4\n", "1:22",
    "expected a number between" },
  { "port capacity 2^63", HEAD .. "port 15B:0101 minor capacity 9223372036854775807\n", "3:30",
    "expected a number between" },
  { "first past the digits", "hexes digits 2 first 100 1\nsection A at 0 0 size 4 4\n", "1:16",
    "bad first hex: found 100 1, expected a first column and row that fit in 2 digits" },
  { "hex range with a letter", HEAD .. 'zone "Sea" 15B:010z..0203\n', "3:12", "bad hex range" },
  { "hex range with a letter at its end", HEAD .. 'zone "Sea" 15B:0101..02x3\n', "3:24", "expected end of line" },
  { "16-character section name", "section ABCDEFGHIJKLMNOP at 0 0 size 4 4\n", "1:9",
    "section name too long: found 16 characters" },
  { "multi-byte legend symbol", HEAD .. "legend terrain {\n \u{e9} coastal\n}\n", "4:2",
    "expected a symbol of one printable ASCII character" },
  { "multi-byte grid symbol", HEAD .. "terrain at 15B:0101 {\n . \u{e9}\n}\n", "4:4",
    "expected a symbol of one printable ASCII character" },
  { "hexside names before any section", 'side 0101/0102 major-river "Guadalquivir"\n', "1:28",
    "no map section declared yet" },
  { "missing 'at'", HEAD .. "terrain 15B:0101 {\n}\n", "3:9", "expected 'at'" },
  { "stray text after a statement", HEAD .. "hex 15B:0101 coastal extra\n", "3:21", "expected end of line" },
  { "unknown zone symbol", HEAD .. "zones at 15B:0101 {\n  Z\n}\n", "4:3", "unknown zone symbol: found 'Z'" },
  { "hex in two zones", HEAD .. 'zone "A" 15B:0101\nzone "B" 15B:0101\n', "4:6", "hex in two sea zones" },
  { "bad range", HEAD .. "tag x 15B:0505..0101\n", "3:7", "empty hex range" },
  { "strait passage through a far side", HEAD .. "strait 15B:0101/0102 through 15B:0505/0909\n", "3:30", "hexes not adjacent" },
  { "sea boxes twice", HEAD .. "seaboxes radius 2 origin 15B:0101\nseaboxes radius 2 origin 15B:0101\n", "4:1", "sea boxes declared twice" },
  { "negative coast-defence level", HEAD .. "cd 15B:0101 -1\n", "3:13", "bad coast-defence level" },
  { "grid symbol '{'", HEAD .. "terrain at 15B:0101 {\n . {\n}\n", "4:1", "expected a grid row or '}'" },
  { "legend with '_'", HEAD .. "legend terrain {\n _ coastal\n}\n", "4:2", "reserved symbol" },
  { "unknown owner symbol", HEAD .. "legend owner {\n r Red\n}\nowners at 15B:0101 {\n r _ Q\n}\n", "7:6", "unknown owner symbol: found 'Q'" },
  { "owner grid row off its section", HEAD .. "legend owner {\n r Red\n}\nowners at 15B:0901 {\n r _ r\n}\n", "7:6", "hex off the board: found '15B:1101'" },
  { "zone grid row into the next section", HEAD .. "section 16 at 10 0 size 4 4\nlegend zone {\n a A\n}\n" ..
    "zones at 15B:0901 {\n a a a\n}\n", "8:6", "hex off the board: found '15B:1101'" },
  { "hex in two zones (grid)", HEAD .. 'legend zone {\n a A\n b "B"\n}\nzone "A" 15B:0202\n' ..
    "zones at 15B:0102 {\n b b a a\n b b\n}\n", "9:4", "hex in two sea zones: found '15B:0202'" },
  { "hex in two zones (ranges)", HEAD .. 'zone "A" 15B:0304..0505\nzone "B" 15B:0101..0909\n', "4:6", "hex in two sea zones: found '15B:0304'" },
  { "owner range off the board", HEAD .. "owner Red 15B:0101 15B:0909..1109\n", "3:20", "hex off the board: found '15B:1109'" },
  -- once blamed on the indentation before it (4:1, "found ' '")
  { "two-character legend symbol after indentation", HEAD .. "legend zone {\n  a A\n  bb B\n}\n", "5:3",
    "found 'bb', expected a symbol of one printable ASCII character, then its value" },
  { "two-character legend symbol after a tab", HEAD .. "legend terrain {\n\tcc coastal\n}\n", "4:2",
    "found 'cc', expected a symbol of one printable ASCII character" },
  { "unknown symbol before a duplicate hex in a row", HEAD .. "terrain at 15B:0101 {\n . c\n}\nterrain at 15B:0101 {\n . Q\n}\n",
    "7:4", "unknown terrain symbol: found 'Q'" },
}

for i, c in ipairs(cases) do
  t.test(("map-error-%d: %s"):format(i, c[1]), function()
    local board, err = map.load_string(c[2], "bad.map")
    t.eq(board, nil, "no board is built")
    t.ok(type(err) == "string", "a message")
    local where = err:match("^bad%.map:(%d+:%d+): ")
    t.eq(where, c[3], err)
    t.ok(err:find(c[4], 1, true), ("%q does not mention %q"):format(err, c[4]))
    t.ok(err:find("found ", 1, true) and err:find(", expected ", 1, true), err)
    t.ok(#err < 400, "short message")
  end)
end

t.test("map-error-count: at least 30 malformed maps", function()
  t.ok(#cases >= 30, #cases .. " cases")
end)

t.test("map-error-io: a missing file names the file", function()
  local b, err = map.load("no/such/file.map")
  t.eq(b, nil)
  t.ok(err:find("no/such/file.map", 1, true))
end)
