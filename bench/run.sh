#!/bin/sh
# bench/run.sh — run every benchmark: bench/*.lua through bin/keel script, and the
# C baselines built from bench/*.c (build/rel/bench/NAME). Each prints lines
#   <what>: keel <figure> | <reference> <figure> | ratio <x>
# with the reference measured in the same run.
cd "$(dirname "$0")/.." || exit 1
status=0
for f in $(ls bench/*_bench.lua 2>/dev/null | sort); do
  echo "== $f"
  bin/keel script "$f" || status=1
done
exit $status
