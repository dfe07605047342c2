#!/bin/sh
# tests/install.sh — make install / uninstall into a staging DESTDIR: the
# installed keel runs, keel.so loads in the stock lua5.4 and plays a
# scenario there, pkg-config finds the library, a C program embeds the
# whole rules engine through the installed keel.pc, and uninstall leaves no
# file behind (doc/embedding.md).
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
name="install: make uninstall removes every file"
ok sh -c "make -s uninstall DESTDIR='$stage' PREFIX=/opt/keel && [ -z \"\$(find '$stage' -type f)\" ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
