/* fixtime.c — an LD_PRELOAD shim for bench/count/run.sh: time() returns a
 * constant, so that Lua seeds its string hashes the same in every run and
 * valgrind's instruction counts of a game are exact, run after run. */
#include <time.h>
time_t time(time_t *t) {
  if (t) *t = 1700000000;
  return 1700000000;
}
