#!/bin/sh
# tools/deps.sh check|install PKG...
# check: exit 0 when every Debian package is installed, else say how to get them.
# install: apt-get install the missing ones when root, else print the command.
mode=$1; shift
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
