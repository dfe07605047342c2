/*
 * test_sandbox.c — the C side of the sandbox: the memory-limited allocator,
 * the CPU watchdog, and the bounded pattern engine (kernel/pattern.c).
 */
#include "check.h"
#include "keel.h"
#include "pattern.h"
#include <stdlib.h>
#include <time.h>

/* ---- allocator ---- */

TEST(alloc_counts_and_refuses_over_limit) {
  keel_memlimit m = { 0, 1000, 0, 0 };
  void *a = keel_sandbox_alloc(&m, NULL, 5 /* a type tag, not a size */, 600);
  CHECK(a != NULL);
  CHECK_INT(m.used, 600);
  void *b = keel_sandbox_alloc(&m, NULL, 0, 500);
  CHECK(b == NULL);                 /* 1100 > 1000 */
  CHECK_INT(m.refusals, 1);
  CHECK_INT(m.used, 600);
  a = keel_sandbox_alloc(&m, a, 600, 900);   /* grow within the limit */
  CHECK(a != NULL);
  CHECK_INT(m.used, 900);
  CHECK(keel_sandbox_alloc(&m, a, 900, 1001) == NULL);
  a = keel_sandbox_alloc(&m, a, 900, 100);   /* shrinking always works */
  CHECK(a != NULL);
  CHECK_INT(m.used, 100);
  CHECK_INT(m.peak, 900);
  CHECK(keel_sandbox_alloc(&m, a, 100, 0) == NULL);
  CHECK_INT(m.used, 0);
}

TEST(alloc_huge_request_does_not_wrap) {
  keel_memlimit m = { 0, 1000, 0, 0 };
  CHECK(keel_sandbox_alloc(&m, NULL, 0, (size_t)-8) == NULL);
  CHECK_INT(m.used, 0);
}

TEST(alloc_without_limit) {
  keel_memlimit m = { 0, 0, 0, 0 };
  void *a = keel_sandbox_alloc(&m, NULL, 0, 1 << 20);
  CHECK(a != NULL);
  keel_sandbox_alloc(&m, a, 1 << 20, 0);
  CHECK_INT(m.used, 0);
}

/* ---- watchdog ---- */

struct fired { volatile int n; };
static void on_fire(void *ud) { ((struct fired *)ud)->n++; }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST(watchdog_fires_after_deadline) {
  struct fired f = { 0 };
  keel_watchdog *w = NULL;
  CHECK_OK(keel_watchdog_new(on_fire, &f, &w));
  CHECK_OK(keel_watchdog_start(w, 20 * 1000000u));   /* 20 ms */
  double t0 = now_s();
  while (!f.n && now_s() - t0 < 5.0) { /* a runaway action */ }
  CHECK_INT(f.n, 1);
  CHECK(keel_watchdog_fired(w));
  CHECK(now_s() - t0 >= 0.019);
  keel_watchdog_stop(w);
  keel_watchdog_free(w);
}

TEST(watchdog_short_actions_never_fire) {
  struct fired f = { 0 };
  keel_watchdog *w = NULL;
  CHECK_OK(keel_watchdog_new(on_fire, &f, &w));
  double t0 = now_s();
  /* many short actions across several limit periods: the timer runs down,
   * sees each action in turn either over or not started, and re-arms. The
   * limit is wall time, so it is 400 times an action: a loaded machine that
   * preempts one action for a while must not make a correct watchdog fire. */
  while (now_s() - t0 < 0.6) {
    CHECK_OK(keel_watchdog_start(w, 200 * 1000000u));
    double a = now_s();
    while (now_s() - a < 0.0005) { }
    keel_watchdog_stop(w);
  }
  CHECK_INT(f.n, 0);
  CHECK(!keel_watchdog_fired(w));
  /* and then one long one still fires */
  CHECK_OK(keel_watchdog_start(w, 10 * 1000000u));
  double a = now_s();
  while (!f.n && now_s() - a < 5.0) { }
  CHECK_INT(f.n, 1);
  keel_watchdog_stop(w);
  keel_watchdog_free(w);
}

TEST(watchdog_shorter_limit_after_longer) {
  struct fired f = { 0 };
  keel_watchdog *w = NULL;
  CHECK_OK(keel_watchdog_new(on_fire, &f, &w));
  CHECK_OK(keel_watchdog_start(w, 2000 * 1000000u));   /* 2 s, stopped at once */
  keel_watchdog_stop(w);
  CHECK_OK(keel_watchdog_start(w, 10 * 1000000u));     /* 10 ms must not wait 2 s */
  double a = now_s();
  while (!f.n && now_s() - a < 1.5) { }
  CHECK_INT(f.n, 1);
  CHECK(now_s() - a < 1.0);
  keel_watchdog_stop(w);
  keel_watchdog_free(w);
}

TEST(watchdog_two_at_once_and_free_with_pending) {
  struct fired f1 = { 0 }, f2 = { 0 };
  keel_watchdog *w1 = NULL, *w2 = NULL;
  CHECK_OK(keel_watchdog_new(on_fire, &f1, &w1));
  CHECK_OK(keel_watchdog_new(on_fire, &f2, &w2));
  CHECK_OK(keel_watchdog_start(w1, 1000000u));
  keel_watchdog_stop(w1);
  keel_watchdog_free(w1);            /* its expiry may still be pending */
  CHECK_OK(keel_watchdog_start(w2, 5 * 1000000u));
  double a = now_s();
  while (!f2.n && now_s() - a < 5.0) { }
  CHECK_INT(f2.n, 1);
  CHECK_INT(f1.n, 0);
  keel_watchdog_free(w2);
}

TEST(watchdog_rejects_zero_limit) {
  struct fired f = { 0 };
  keel_watchdog *w = NULL;
  CHECK_INT(keel_watchdog_new(NULL, &f, &w), KEEL_E_ARG);
  CHECK_OK(keel_watchdog_new(on_fire, &f, &w));
  CHECK_INT(keel_watchdog_start(w, 0), KEEL_E_ARG);
  keel_watchdog_free(w);
}

/* ---- patterns ---- */

static ptrdiff_t find_at(const char *s, const char *p, size_t at, keel_status *st) {
  keel_pattern m;
  keel__pattern_init(&m, s, strlen(s), p, strlen(p), 1000000);
  ptrdiff_t end;
  *st = keel__pattern_match(&m, at, p[0] == '^', &end);
  return end;
}

TEST(pattern_basics) {
  keel_status st;
  CHECK_INT(find_at("hello world", "hel+o", 0, &st), 5);
  CHECK_OK(st);
  CHECK_INT(find_at("hello", "x", 0, &st), -1);
  CHECK_INT(find_at("  27.A.3 ", "%s*(%d+)%.(%u)", 0, &st), 6);
  CHECK_INT(find_at("(a(b)c)d", "%b()", 0, &st), 7);
  CHECK_INT(find_at("THE (quick) fox", "%f[%a]%a+", 4, &st), -1);
  CHECK_INT(find_at("THE (quick) fox", "%f[%a]%a+", 5, &st), 10);
  CHECK_INT(find_at("abab", "(ab)%1", 0, &st), 4);
  CHECK_INT(find_at("abc", "abc$", 0, &st), 3);
  CHECK_INT(find_at("a]b", "[]]", 1, &st), 2);
  CHECK(keel__pattern_is_plain("abc", 3));
  CHECK(!keel__pattern_is_plain("a.c", 3));
}

TEST(pattern_malformed) {
  keel_status st;
  keel_pattern m;
  ptrdiff_t end;
  keel__pattern_init(&m, "abc", 3, "[a", 2, 1000);
  st = keel__pattern_match(&m, 0, 0, &end);
  CHECK_INT(st, KEEL_E_PARSE);
  CHECK_STR(m.message, "malformed pattern (missing ']')");
  find_at("abc", "a%", 0, &st);
  CHECK_INT(st, KEEL_E_PARSE);
  find_at("abc", "(a", 0, &st);
  CHECK_INT(st, KEEL_OK);
}

TEST(pattern_budget_stops_backtracking) {
  char s[2001];
  memset(s, 'a', 2000);
  s[2000] = '\0';
  const char *p = "a-a-a-a-a-a-a-a-b";   /* polynomial blow-up, never matches */
  keel_pattern m;
  keel__pattern_init(&m, s, 2000, p, strlen(p), 100000);
  ptrdiff_t end;
  keel_status st = keel__pattern_match(&m, 0, 0, &end);
  CHECK_INT(st, KEEL_E_LIMIT);
  CHECK(strstr(m.message, "too complex") != NULL);
  CHECK(m.steps > 100000);
}

static int always(void *ud) { (void)ud; return 1; }

TEST(pattern_interrupt_is_polled) {
  char s[5001];
  memset(s, 'a', 5000);
  s[5000] = '\0';
  keel_pattern m;
  keel__pattern_init(&m, s, 5000, ".-.-.-b", 7, (uint64_t)1 << 40);
  m.interrupted = always;
  ptrdiff_t end;
  CHECK_INT(keel__pattern_match(&m, 0, 0, &end), KEEL_E_LIMIT);
  CHECK(strstr(m.message, "over its limit") != NULL);
  CHECK(m.steps <= KEEL_PATTERN_POLL);
}

int main(void) {
  RUN(alloc_counts_and_refuses_over_limit);
  RUN(alloc_huge_request_does_not_wrap);
  RUN(alloc_without_limit);
  RUN(watchdog_fires_after_deadline);
  RUN(watchdog_short_actions_never_fire);
  RUN(watchdog_shorter_limit_after_longer);
  RUN(watchdog_two_at_once_and_free_with_pending);
  RUN(watchdog_rejects_zero_limit);
  RUN(pattern_basics);
  RUN(pattern_malformed);
  RUN(pattern_budget_stops_backtracking);
  RUN(pattern_interrupt_is_polled);
  return check_report();
}
