/*
 * check.h — the tiny assertion harness of keel's C unit tests.
 *
 *   TEST(hex_distance_1) { CHECK_INT(keel_hex_distance(a, b), 7); }
 *   int main(void) { RUN(hex_distance_1); return check_report(); }
 *
 * A test passes when every CHECK in it holds. The last line printed is
 * "N passed, N failed" (tests/run.sh adds these up).
 */
#ifndef KEEL_CHECK_H
#define KEEL_CHECK_H
#include <stdio.h>
#include <string.h>
#include <math.h>

static int check_tests_passed, check_tests_failed, check_current_failed;
static const char *check_current_name;

#define TEST(name) static void name(void)
#define RUN(name) check_run(#name, name)

static void check_run(const char *name, void (*fn)(void)) {
  check_current_name = name;
  check_current_failed = 0;
  fn();
  if (check_current_failed) check_tests_failed++;
  else check_tests_passed++;
}

static void check_fail(const char *file, int line, const char *what) {
  if (!check_current_failed) printf("FAIL %s\n", check_current_name);
  printf("  %s:%d: %s\n", file, line, what);
  check_current_failed++;
}

#define CHECK(cond) do { if (!(cond)) check_fail(__FILE__, __LINE__, #cond); } while (0)
#define CHECK_INT(got, want) do { \
    long long g_ = (long long)(got), w_ = (long long)(want); \
    if (g_ != w_) { char m_[256]; \
      snprintf(m_, sizeof m_, "%s == %lld, expected %lld", #got, g_, w_); \
      check_fail(__FILE__, __LINE__, m_); } } while (0)
#define CHECK_STR(got, want) do { \
    const char *g_ = (got), *w_ = (want); \
    if (!g_ || strcmp(g_, w_) != 0) { char m_[512]; \
      snprintf(m_, sizeof m_, "%s == \"%s\", expected \"%s\"", #got, g_ ? g_ : "(null)", w_); \
      check_fail(__FILE__, __LINE__, m_); } } while (0)
#define CHECK_NEAR(got, want, eps) do { \
    double g_ = (got), w_ = (want); \
    if (!(fabs(g_ - w_) <= (eps))) { char m_[256]; \
      snprintf(m_, sizeof m_, "%s == %.9g, expected %.9g", #got, g_, w_); \
      check_fail(__FILE__, __LINE__, m_); } } while (0)
#define CHECK_OK(st) CHECK_INT((st), KEEL_OK)

static int check_report(void) {
  printf("%d passed, %d failed\n", check_tests_passed, check_tests_failed);
  return check_tests_failed ? 1 : 0;
}
#endif
