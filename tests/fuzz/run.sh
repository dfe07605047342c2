#!/bin/sh
# tests/fuzz/run.sh SECONDS TARGET... — run each fuzz target for SECONDS
# with libFuzzer (build/fuzz/keel_fuzz, built by `make fuzz`), starting from
# the checked-in corpus tests/fuzz/corpus/TARGET. New inputs go to
# build/fuzz/corpus/TARGET; a crash, a sanitizer report, a hang (10 s) or an
# input that makes keel misbehave is saved as build/fuzz/found/TARGET-*:
# copy it into tests/fuzz/regress/TARGET/ once fixed, so `make test` keeps
# running it. Prints a line per target and a total.
cd "$(dirname "$0")/../.." || exit 1
secs=$1; shift
bin=build/fuzz/keel_fuzz
total_found=0
for t in "$@"; do
  mkdir -p "build/fuzz/corpus/$t" build/fuzz/found "tests/fuzz/corpus/$t"
  log="build/fuzz/$t.log"
  seeds="tests/fuzz/corpus/$t"
  [ -d "tests/fuzz/regress/$t" ] && seeds="$seeds tests/fuzz/regress/$t"
  before=$(ls build/fuzz/found | grep -c "^$t-" || true)
  KEEL_FUZZ_TARGET=$t ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    $bin -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="build/fuzz/found/$t-" -print_final_stats=1 \
      "build/fuzz/corpus/$t" $seeds >"$log" 2>&1
  rc=$?
  after=$(ls build/fuzz/found | grep -c "^$t-" || true)
  found=$((after - before))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  crashes=$(ls build/fuzz/found | grep -c "^$t-crash-" || true)
  hangs=$(ls build/fuzz/found | grep -c "^$t-timeout-" || true)
  ooms=$(ls build/fuzz/found | grep -c "^$t-oom-" || true)
  corpus=$(ls "build/fuzz/corpus/$t" | wc -l)
  printf '%-10s %9s inputs in %4s s  corpus %5s  new findings %s (crashes %s, hangs %s, oom %s so far)  exit %s\n' \
    "$t" "${runs:-?}" "$secs" "$corpus" "$found" "$crashes" "$hangs" "$ooms" "$rc"
  if [ "$found" -ne 0 ]; then grep -m 5 -E 'keel fuzz:|ERROR:|runtime error' "$log"; fi
  total_found=$((total_found + found))
done
echo "fuzz: $total_found new findings (build/fuzz/found/)"
[ "$total_found" -eq 0 ]
