#!/bin/sh
# bench/count/run.sh [N] — the machine instructions one showcase game costs
# with a shared rule set: valgrind's count of N games less that of none,
# divided by N, with time() pinned (fixtime.c) so that the count is the same
# on every run. Needs valgrind and a C compiler; not part of `make bench`
# (a minute or two). doc/performance.md uses it.
set -e
N=${1:-10}
mkdir -p build
cc -shared -fPIC -O2 -o build/fixtime.so bench/count/fixtime.c
count() {
  out=$(LD_PRELOAD="$PWD/build/fixtime.so" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        bin/keel script bench/count/games.lua "$1" 2>&1)
  echo "$out" | grep -q "count: done" || { echo "$out" | grep -v '^==' >&2; exit 1; }
  echo "$out" | sed -n 's/.*Collected : //p'
}
a=$(count 0)
b=$(count "$N")
echo "showcase game, shared rule set: $(( (b - a) / N )) instructions per game"
