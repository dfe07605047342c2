#!/bin/sh
# tools/deps.sh check|install PKG... | npm
# check: exit 0 when every Debian package is installed, else say how to get them.
# install: apt-get install the missing ones when root, else print the command.
#  npm: install the browser tests' playwright-core from package-lock.json
#  (npm ci; Debian's chromium is the browser: no download).
mode=$1; shift
if [ "$mode" = npm ]; then
  if ! command -v npm >/dev/null 2>&1; then echo "keel: npm is missing: the browser tests will skip" >&2; exit 0; fi
  [ -d node_modules/playwright-core ] && exit 0
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
  exit $?
fi
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$mode" = check ]; then
  echo "keel: missing Debian packages:$missing" >&2
  echo "keel: run 'make deps' (as root), or: sudo apt-get install$missing" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  echo "keel: installing:$missing"
  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
  exit $?
fi
echo "keel: missing Debian packages:$missing" >&2
echo "keel: not root; run: sudo apt-get install -y$missing" >&2
exit 1
