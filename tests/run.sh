#!/bin/sh
# tests/run.sh — run every test runner (C unit tests, Lua tests, the C host,
# then the same under the ASan/UBSan build), add up their closing lines
# "N passed, N failed", and end with the total (the browser tests of
# tests/browser/ run once, with the release build). Exit 1 on any failure.
#   KEEL_ONLY=c|lua   run one kind only (release build)
cd "$(dirname "$0")/.." || exit 1
total_pass=0
total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() {   # suite NAME COMMAND...
  name=$1; shift
  "$@" >"$log" 2>&1
  rc=$?
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
  [ -n "$line" ] || { p=0; f=0; }
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or no summary
  if [ "$f" -ne 0 ]; then
    echo "--- $name: $f failed (exit $rc)"
    grep -v -E '^ok ' "$log" | tail -n 60
  fi
  printf '%-34s %5d ok %3d failing\n' "$name" "$p" "$f"
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}

lua_tests=$(ls tests/lua/*_test.lua 2>/dev/null | sort)

run_kind() {   # run_kind LABEL BUILD_DIR KEEL_BIN
  label=$1; dir=$2; keel=$3
  if [ "${KEEL_ONLY:-c}" = c ]; then
    for t in $(ls "$dir"/tests/test_* 2>/dev/null | sort); do
      suite "$label c/$(basename "$t")" "$t"
    done
  fi
  if [ "${KEEL_ONLY:-lua}" = lua ] && [ -n "$lua_tests" ]; then
    KEEL_BIN="$keel" suite "$label lua" "$keel" script tests/lua/run.lua $lua_tests
  fi
}

run_kind rel build/rel bin/keel
if [ -z "${KEEL_ONLY:-}" ]; then
  [ -x build/rel/tests/host ] && suite "rel c/host (pkg-config)" build/rel/tests/host
  [ -x build/rel/tests/embed ] && suite "rel c/embed (Lua state, keel.so)" \
    build/rel/tests/embed scenarios/suez_1942.lua tests/golden/suez_1942.jsonl
  suite "install/uninstall" sh tests/install.sh
  # the stack tags of the bindings, checked against their bodies; and the
  # checker itself, on functions whose tags are wrong in known ways
  suite "stack tags" lua5.4 tools/check_stack_tags.lua kernel/l_*.c kernel/main.c
  suite "stack tag checker" sh -c 'lua5.4 tools/check_stack_tags.lua tests/tags/wrong.c | diff tests/tags/wrong.expected - && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }'
  if command -v luacheck >/dev/null 2>&1; then
    suite "lint (luacheck)" sh -c 'make -s lint >/dev/null 2>&1 && echo "1 passed, 0 failed" || { make -s lint; echo "0 passed, 1 failed"; exit 1; }'
  else
    echo "lint (luacheck): skipped, luacheck is not installed (make deps installs lua-check)"
  fi
  # keel view's page and keel serve --http's play page in a real browser
  # (tests/browser/, once): playwright-core (npm ci) driving Debian's chromium
  if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    echo "browser (chromium): skipped, chromium is not installed (make deps installs it)"
  elif ! command -v node >/dev/null 2>&1 || [ ! -d node_modules/playwright-core ]; then
    echo "browser (chromium): skipped, node or playwright-core is missing (make deps: nodejs, npm ci)"
  else
    suite "browser (keel view)" node tests/browser/view.test.js
    suite "browser (keel serve --http, play)" node tests/browser/play.test.js
  fi
  KEEL_SCRIPTS="$(pwd)/scripts" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    run_kind asan build/asan build/asan/keel
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
