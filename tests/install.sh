#!/bin/sh
# tests/install.sh — make install / uninstall into a staging DESTDIR: the
# installed keel runs, keel.so loads in the stock lua5.4 and plays a
# scenario there, pkg-config finds the library, a C program embeds the
# whole rules engine through the installed keel.pc, and uninstall leaves no
# file behind (doc/embedding.md). What authors' tools find there: the meta
# files (the same as scripts/keel/meta, which tests/lua/meta_test.lua checks
# against the bindings), each loading in the stock lua5.4, and the luacheck
# stds that the installed `keel new` points its .luacheckrc at. And the
# rockspec: Debian's luarocks builds it into a scratch tree, and the stock
# lua5.4 requires keel from there and plays the showcase to keel run's
# journal (doc/embedding.md).
cd "$(dirname "$0")/.." || exit 1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pass=0; fail=0
ok() { if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); echo "ok $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi; }
name="install: make install DESTDIR PREFIX"
ok make -s install DESTDIR="$stage" PREFIX=/opt/keel
name="install: installed keel runs with its installed scripts"
ok sh -c "KEEL_SCRIPTS= '$stage/opt/keel/bin/keel' version | grep -q '^keel '"
name="install: keel.so loads in the stock lua5.4"
ok sh -c "KEEL_SCRIPTS= lua5.4 -e 'package.cpath=\"$stage/opt/keel/lib/lua/5.4/?.so;\"..package.cpath; assert(require(\"keel\").hex.distance(0, 1))'"
name="install: the stock lua5.4 plays the showcase with the installed keel.so (LUA_CPATH), keel run's journal"
ok sh -c "KEEL_SCRIPTS= LUA_CPATH='$stage/opt/keel/lib/lua/5.4/?.so;;' lua5.4 -e '
  local keel = require \"keel\"
  local scenario = require \"keel.scenario\"
  local run = scenario.start(scenario.load(\"scenarios/suez_1942.lua\"))
  local _, failed = run:play_all()
  local f = assert(io.open(\"tests/golden/suez_1942.jsonl\", \"rb\"))
  local want = f:read(\"a\")
  f:close()
  assert(failed == 0 and run.game:journal_text() == want)
  assert(keel.script_dir == \"$stage/opt/keel/share/keel/scripts\")'"
share="$stage/opt/keel/share/keel/scripts/keel"
name="install: the installed meta files are scripts/keel/meta's, and each loads in the stock lua5.4"
ok sh -c "
  diff -r scripts/keel/meta '$share/meta' &&
  [ \$(ls '$share/meta'/*.d.lua | wc -l) -ge 16 ] &&
  for f in '$share/meta'/*.d.lua; do lua5.4 \"\$f\" || exit 1; done"
name="install: the installed keel new writes a .luacheckrc using the installed stds, a .luarc.json naming the installed meta"
ok sh -c "
  mkdir -p '$stage/mod' && cd '$stage/mod' && KEEL_SCRIPTS= '$stage/opt/keel/bin/keel' new family fleet >/dev/null &&
  grep -q 'dofile(\"$share/luacheck_stds.lua\").define(stds)' .luacheckrc &&
  grep -q '\"workspace.library\": \[ \"$share/meta\" \]' .luarc.json &&
  { ! command -v luacheck >/dev/null || luacheck --no-color . >/dev/null; } &&
  KEEL_SCRIPTS= '$stage/opt/keel/bin/keel' check fleet >/dev/null"
rm -rf "$stage/mod"
name="install: pkg-config keel names the installed library"
ok sh -c "PKG_CONFIG_PATH='$stage/opt/keel/lib/pkgconfig' pkg-config --libs keel | grep -q -- '-lkeel'"
name="install: a C host builds and runs against the installed keel.pc (PREFIX given only to make install)"
ok sh -c "
  cc -std=c11 -o '$stage/host' tests/host/host.c \$(PKG_CONFIG_PATH='$stage/opt/keel/lib/pkgconfig' pkg-config --cflags --libs keel | sed 's|/opt/keel|$stage/opt/keel|g') &&
  grep -q '^prefix=/opt/keel' '$stage/opt/keel/lib/pkgconfig/keel.pc' && '$stage/host'"
rm -f "$stage/host"
name="install: a C program embeds the rules engine (Lua state, keel.so from the installed keel.pc's luacdir)"
ok sh -c "
  pc='$stage/opt/keel/lib/pkgconfig'
  cdir=\$(PKG_CONFIG_PATH=\$pc pkg-config --variable=luacdir keel | sed 's|/opt/keel|$stage/opt/keel|') &&
  [ \"\$(PKG_CONFIG_PATH=\$pc pkg-config --variable=scriptdir keel)\" = /opt/keel/share/keel/scripts ] &&
  cc -std=c11 -o '$stage/embed' tests/host/embed.c \$(pkg-config --cflags --libs lua5.4) -DKEEL_CPATH=\"\\\"\$cdir/?.so\\\"\" &&
  KEEL_SCRIPTS= '$stage/embed' scenarios/suez_1942.lua tests/golden/suez_1942.jsonl"
rm -f "$stage/embed"
# the rockspec, with Debian's luarocks, into a scratch tree (no network: Lua
# is the only dependency luarocks manages; LPeg is Debian's)
rocks="$stage/rocks"
if command -v luarocks >/dev/null 2>&1; then
  name="rock: luarocks make keel-VERSION-1.rockspec into a scratch tree"
  ok sh -c "HOME='$stage/home' luarocks --lua-version 5.4 --tree '$rocks' make keel-*-1.rockspec &&
    [ -f '$rocks/lib/lua/5.4/keel.so' ] && [ -f '$rocks/share/lua/5.4/keel/scenario.lua' ] &&
    [ -f '$rocks/share/lua/5.4/navgroup/manifest.lua' ] && [ -x '$rocks/bin/keel' ] &&
    diff -r scripts/keel/meta '$rocks/share/lua/5.4/keel/meta'"
  name="rock: the stock lua5.4 requires keel from the tree (luarocks path) and plays the showcase to keel run's journal"
  ok sh -c "eval \"\$(HOME='$stage/home' luarocks --lua-version 5.4 --tree '$rocks' path)\" && KEEL_SCRIPTS= lua5.4 -e '
    local keel = require \"keel\"
    assert(keel.script_dir == \"$rocks/share/lua/5.4\", keel.script_dir)
    assert(package.searchpath(\"keel.scenario\", package.path) == \"$rocks/share/lua/5.4/keel/scenario.lua\")
    local scenario = require \"keel.scenario\"
    local run = scenario.start(scenario.load(\"scenarios/suez_1942.lua\"))
    local _, failed = run:play_all()
    local f = assert(io.open(\"tests/golden/suez_1942.jsonl\", \"rb\"))
    local want = f:read(\"a\")
    f:close()
    assert(failed == 0 and run.game:journal_text() == want)
    io.write(run.game:hash_hex(), \"\\n\")' > '$stage/rock.hash' &&
    bin/keel run scenarios/suez_1942.lua --quiet | grep -q \"state \$(cat '$stage/rock.hash')\$\""
  name="rock: the tree's keel command runs the showcase with the tree's scripts"
  ok sh -c "KEEL_SCRIPTS= '$rocks/bin/keel' run scenarios/suez_1942.lua --quiet --journal '$stage/rock.jsonl' &&
    cmp '$stage/rock.jsonl' tests/golden/suez_1942.jsonl"
  rm -rf "$rocks" "$stage/home" "$stage/rock.hash" "$stage/rock.jsonl"
else
  echo "rock: skipped, luarocks is not installed (make deps installs it)"
fi
name="install: make uninstall removes every file"
ok sh -c "make -s uninstall DESTDIR='$stage' PREFIX=/opt/keel && [ -z \"\$(find '$stage' -type f)\" ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
