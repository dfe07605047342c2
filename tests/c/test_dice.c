/* test_dice.c — unit tests of kernel/dice.c: reference vectors of the
 * generators, unbiased ranges, stream independence, forced faces, and the
 * exact text form of the state. */
#include "check.h"
#include "keel.h"
#include <stdint.h>
#include <stdlib.h>

/* Published vectors: xoshiro256** from state {1,2,3,4} (reference C code by
 * Blackman and Vigna, as quoted by rand_xoshiro's `reference` test) and
 * splitmix64 from 0; FNV-1a 64 of "", "a", "foobar" (FNV test suite). */
TEST(dice_xoshiro_reference) {
  keel_rng r = { { 1, 2, 3, 4 } };
  const uint64_t want[10] = {
    UINT64_C(11520), UINT64_C(0), UINT64_C(1509978240), UINT64_C(1215971899390074240),
    UINT64_C(1216172134540287360), UINT64_C(607988272756665600),
    UINT64_C(16172922978634559625), UINT64_C(8476171486693032832),
    UINT64_C(10595114339597558777), UINT64_C(2904607092377533576) };
  for (int i = 0; i < 10; i++) CHECK(keel_rng_next(&r) == want[i]);
}

TEST(dice_splitmix_reference) {
  uint64_t x = 0;
  CHECK(keel_splitmix64_next(&x) == UINT64_C(0xe220a8397b1dcdaf));
  CHECK(keel_splitmix64_next(&x) == UINT64_C(0x6e789e6aa1b965f4));
  CHECK(keel_splitmix64_next(&x) == UINT64_C(0x06c45d188009454f));
  CHECK(keel_splitmix64_next(&x) == UINT64_C(0xf88bb8a8724c81ec));
}

TEST(dice_fnv1a_reference) {
  CHECK(keel_hash_bytes("", 0) == UINT64_C(0xcbf29ce484222325));
  CHECK(keel_hash_bytes("a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
  CHECK(keel_hash_bytes("foobar", 6) == UINT64_C(0x85944171f73967e8));
}

/* A splitmix-seeded state: the state is the four splitmix outputs above,
 * and the outputs were checked against an independent transcription. */
TEST(dice_seeded_reference) {
  keel_rng r;
  keel_rng_seed(&r, 0);
  CHECK(r.s[0] == UINT64_C(0xe220a8397b1dcdaf));
  CHECK(r.s[3] == UINT64_C(0xf88bb8a8724c81ec));
  CHECK(keel_rng_next(&r) == UINT64_C(0x99ec5f36cb75f2b4));
  CHECK(keel_rng_next(&r) == UINT64_C(0xbf6e1f784956452a));
  CHECK(keel_rng_next(&r) == UINT64_C(0x1a5f849d4933e6e0));
  CHECK(keel_rng_next(&r) == UINT64_C(0x6aa594f1262d2d2c));
  keel_rng_seed(&r, 42);
  CHECK(keel_rng_next(&r) == UINT64_C(0x15780b2e0c2ec716));
  CHECK(keel_rng_next(&r) == UINT64_C(0x6104d9866d113a7e));
}

/* Rejection: with n = 2^63 + 1 the threshold is 2^63 - 1, so raw outputs
 * below it are skipped; the result equals the first accepted output mod n. */
TEST(dice_below_rejects) {
  keel_rng a, b;
  keel_rng_seed(&a, 7);
  b = a;
  const uint64_t n = (UINT64_C(1) << 63) + 1, threshold = (0 - n) % n;
  CHECK(threshold == (UINT64_C(1) << 63) - 1);
  uint64_t got = keel_rng_below(&a, n), want = 0;
  for (;;) {
    uint64_t x = keel_rng_next(&b);
    if (x >= threshold) { want = x % n; break; }
  }
  CHECK(got == want);
  CHECK(a.s[0] == b.s[0] && a.s[3] == b.s[3]);   /* consumed the same outputs */
  CHECK(keel_rng_below(&a, 1) == 0);
  CHECK(keel_rng_below(&a, 0) == 0);
}

/* Range unbiasedness: n = 3 * 2^62 has a rejection zone of 2^62 values (a
 * quarter of all outputs); plain x % n would put half of the draws in the
 * lowest third. With rejection each third gets 1/3. */
TEST(dice_below_unbiased) {
  keel_rng r;
  keel_rng_seed(&r, 12345);
  const uint64_t n = UINT64_C(3) << 62, third = UINT64_C(1) << 62;
  int bins[3] = { 0, 0, 0 };
  const int N = 60000;
  for (int i = 0; i < N; i++) bins[keel_rng_below(&r, n) / third]++;
  for (int k = 0; k < 3; k++) CHECK(abs(bins[k] - N / 3) < 600);   /* ~5 sigma */
  /* and a d6: chi-square with 5 degrees of freedom under 20.5 (p = .001) */
  int faces[6] = { 0 };
  const int M = 600000;
  for (int i = 0; i < M; i++) faces[keel_rng_below(&r, 6)]++;
  double chi = 0;
  for (int k = 0; k < 6; k++) {
    double e = M / 6.0, d = faces[k] - e;
    chi += d * d / e;
  }
  CHECK(chi < 20.5);
}

TEST(dice_streams_independent) {
  keel_dice *a = NULL, *b = NULL;
  CHECK_OK(keel_dice_new(99, &a));
  CHECK_OK(keel_dice_new(99, &b));
  size_t sa, sb, oa;
  CHECK_OK(keel_dice_stream(a, "32.B", &sa));
  CHECK_OK(keel_dice_stream(a, "37.D", &oa));
  CHECK_OK(keel_dice_stream(b, "32.B", &sb));
  int fa[3], fb[3], forced;
  uint64_t idx;
  /* many extra rolls on another stream of `a` only */
  for (int i = 0; i < 1000; i++) CHECK_OK(keel_dice_roll(a, oa, 2, 6, fa, &forced, &idx));
  CHECK(idx == 1000);
  for (int i = 0; i < 50; i++) {
    CHECK_OK(keel_dice_roll(a, sa, 3, 6, fa, &forced, &idx));
    CHECK_OK(keel_dice_roll(b, sb, 3, 6, fb, &forced, &idx));
    CHECK(fa[0] == fb[0] && fa[1] == fb[1] && fa[2] == fb[2]);
    CHECK(fa[0] >= 1 && fa[0] <= 6);
  }
  CHECK(idx == 50);
  /* the stream generator is splitmix(seed ^ fnv1a(name)) */
  keel_rng want, got;
  keel_rng_seed(&want, 99 ^ keel_hash_bytes("fresh", 5));
  size_t fr;
  CHECK_OK(keel_dice_stream(a, "fresh", &fr));
  CHECK_OK(keel_dice_get_state(a, fr, &got, NULL));
  CHECK(got.s[0] == want.s[0] && got.s[1] == want.s[1] && got.s[2] == want.s[2] && got.s[3] == want.s[3]);
  /* different names give different sequences */
  CHECK_OK(keel_dice_roll(a, oa, 1, 1000, fa, &forced, &idx));
  CHECK_OK(keel_dice_roll(a, sa, 1, 1000, fb, &forced, &idx));
  CHECK_INT(keel_dice_count_streams(a), 3);
  CHECK_STR(keel_dice_stream_name(a, 2), "fresh");
  CHECK_INT(keel_dice_find(a, "nope", &fr), KEEL_E_NOT_FOUND);
  CHECK_INT(keel_dice_stream(a, "two words", &fr), KEEL_E_ARG);
  CHECK_INT(keel_dice_stream(a, "", &fr), KEEL_E_ARG);
  keel_dice_free(a);
  keel_dice_free(b);
}

TEST(dice_forced) {
  keel_dice *d = NULL;
  CHECK_OK(keel_dice_new(1, &d));
  size_t s;
  CHECK_OK(keel_dice_stream(d, "default", &s));
  keel_rng before;
  CHECK_OK(keel_dice_get_state(d, s, &before, NULL));
  int64_t q[] = { 6, 6, 1 };
  CHECK_OK(keel_dice_force(d, q, 3));
  CHECK_INT(keel_dice_count_forced(d), 3);
  int f[2], forced = 0;
  uint64_t idx;
  CHECK_OK(keel_dice_roll(d, s, 2, 6, f, &forced, &idx));
  CHECK(f[0] == 6 && f[1] == 6 && forced == 1 && idx == 1);
  keel_rng after;
  CHECK_OK(keel_dice_get_state(d, s, &after, NULL));
  CHECK(after.s[0] == before.s[0]);   /* forced faces do not advance the generator */
  /* one forced face left, two dice: the first is forced, the second random */
  CHECK_OK(keel_dice_roll(d, s, 2, 6, f, &forced, &idx));
  CHECK(f[0] == 1 && forced == 1 && idx == 2);
  CHECK_OK(keel_dice_roll(d, s, 1, 6, f, &forced, &idx));
  CHECK(forced == 0);
  /* a forced 7 does not fit a d6: refused, nothing consumed */
  int64_t seven = 7;
  CHECK_OK(keel_dice_force(d, &seven, 1));
  CHECK_INT(keel_dice_roll(d, s, 1, 6, f, &forced, &idx), KEEL_E_RANGE);
  CHECK_INT(keel_dice_count_forced(d), 1);
  uint64_t v;
  CHECK_OK(keel_dice_range(d, s, 27, &v, &forced, &idx));
  CHECK(v == 7 && forced == 1 && idx == 4);
  int64_t zero = 0;
  CHECK_INT(keel_dice_force(d, &zero, 1), KEEL_E_ARG);
  int64_t many[KEEL_DICE_FORCED_MAX + 1];
  for (int i = 0; i <= KEEL_DICE_FORCED_MAX; i++) many[i] = 1;
  CHECK_INT(keel_dice_force(d, many, KEEL_DICE_FORCED_MAX + 1), KEEL_E_CAPACITY);
  CHECK_OK(keel_dice_force(d, many, KEEL_DICE_FORCED_MAX));
  keel_dice_clear_forced(d);
  CHECK_INT(keel_dice_count_forced(d), 0);
  keel_dice_free(d);
}

TEST(dice_state_round_trip) {
  keel_dice *d = NULL, *e = NULL;
  CHECK_OK(keel_dice_new(UINT64_C(0xdeadbeefcafef00d), &d));
  size_t s1, s2;
  CHECK_OK(keel_dice_stream(d, "zeta", &s1));
  CHECK_OK(keel_dice_stream(d, "alpha", &s2));
  int f[4], forced;
  uint64_t idx;
  for (int i = 0; i < 17; i++) CHECK_OK(keel_dice_roll(d, s1, 4, 6, f, &forced, &idx));
  for (int i = 0; i < 5; i++) CHECK_OK(keel_dice_roll(d, s2, 1, 10, f, &forced, &idx));
  size_t cap = keel_max_dice_save_size(d), len;
  char *buf = malloc(cap);
  CHECK_OK(keel_dice_save(d, buf, cap, &len));
  CHECK(strncmp(buf, "keel-dice 1\nseed deadbeefcafef00d\nstream alpha 5 ", 47) == 0);
  CHECK_OK(keel_dice_new(0, &e));
  size_t line;
  const char *why;
  CHECK_OK(keel_dice_load(e, buf, len, &line, &why));
  CHECK(keel_dice_get_seed(e) == UINT64_C(0xdeadbeefcafef00d));
  size_t t1, t2;
  CHECK_OK(keel_dice_find(e, "zeta", &t1));
  CHECK_OK(keel_dice_find(e, "alpha", &t2));
  for (int i = 0; i < 20; i++) {
    int g[4];
    CHECK_OK(keel_dice_roll(d, s1, 4, 6, f, &forced, &idx));
    uint64_t idx2;
    CHECK_OK(keel_dice_roll(e, t1, 4, 6, g, &forced, &idx2));
    CHECK(memcmp(f, g, sizeof f) == 0 && idx == idx2);
  }
  /* a stream first used after the load still derives from the saved seed */
  size_t n1, n2;
  CHECK_OK(keel_dice_stream(d, "new", &n1));
  CHECK_OK(keel_dice_stream(e, "new", &n2));
  keel_rng a, b;
  CHECK_OK(keel_dice_get_state(d, n1, &a, NULL));
  CHECK_OK(keel_dice_get_state(e, n2, &b, NULL));
  CHECK(a.s[2] == b.s[2]);
  /* per-stream get/set */
  CHECK_OK(keel_dice_set_state(e, n2, &a, 3));
  uint64_t rolls;
  CHECK_OK(keel_dice_get_state(e, n2, &b, &rolls));
  CHECK(rolls == 3);
  keel_rng zero = { { 0, 0, 0, 0 } };
  CHECK_INT(keel_dice_set_state(e, n2, &zero, 0), KEEL_E_ARG);
  free(buf);
  keel_dice_free(d);
  keel_dice_free(e);
}

static int load_fails(keel_dice *d, const char *text, size_t want_line) {
  size_t line = 0;
  const char *why = NULL;
  keel_status st = keel_dice_load(d, text, strlen(text), &line, &why);
  return st != KEEL_OK && line == want_line && why != NULL;
}

TEST(dice_load_malformed) {
  keel_dice *d = NULL;
  CHECK_OK(keel_dice_new(5, &d));
  size_t s;
  CHECK_OK(keel_dice_stream(d, "x", &s));
  int f[1], forced;
  uint64_t idx;
  CHECK_OK(keel_dice_roll(d, s, 1, 6, f, &forced, &idx));
  const char *ok = "keel-dice 1\nseed 0000000000000005\n";
  CHECK(load_fails(d, "", 1));
  CHECK(load_fails(d, "keel-dice 2\nseed 0000000000000005\n", 1));
  CHECK(load_fails(d, "keel-dice 1\n", 2));
  CHECK(load_fails(d, "keel-dice 1\nseed 05\n", 2));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005", 2));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005\nstream x 1 1 2 3 4\n", 3));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005\nstream x 01 0000000000000001 "
                      "0000000000000002 0000000000000003 0000000000000004\n", 3));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005\nstream x 1 0000000000000000 "
                      "0000000000000000 0000000000000000 0000000000000000\n", 3));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005\nstream b 1 0000000000000001 "
                      "0000000000000002 0000000000000003 0000000000000004\nstream a 1 "
                      "0000000000000001 0000000000000002 0000000000000003 0000000000000004\n", 4));
  CHECK(load_fails(d, "keel-dice 1\nseed 0000000000000005\nstream x 99999999999999999999 "
                      "0000000000000001 0000000000000002 0000000000000003 0000000000000004\n", 3));
  /* nothing changed: stream x still has its one roll */
  uint64_t rolls = 0;
  CHECK_OK(keel_dice_get_state(d, s, NULL, &rolls));
  CHECK(rolls == 1 && keel_dice_count_streams(d) == 1);
  /* a valid text with no streams resets to fresh streams */
  size_t line;
  CHECK_OK(keel_dice_load(d, ok, strlen(ok), &line, NULL));
  CHECK_INT(keel_dice_count_streams(d), 0);
  keel_dice_free(d);
}

TEST(dice_histogram) {
  keel_dice *d = NULL;
  CHECK_OK(keel_dice_new(2024, &d));
  size_t s;
  CHECK_OK(keel_dice_stream(d, "mc", &s));
  uint64_t counts[11];
  CHECK_INT(keel_dice_histogram(d, s, 2, 6, 10, counts, 10), KEEL_E_CAPACITY);
  CHECK_OK(keel_dice_histogram(d, s, 2, 6, 360000, counts, 11));
  uint64_t total = 0;
  for (int i = 0; i < 11; i++) total += counts[i];
  CHECK(total == 360000);
  /* 7 comes up 1/6 of the time: 60000 +- 5 sigma (~1118) */
  CHECK(counts[5] > 58800 && counts[5] < 61200);
  uint64_t rolls;
  CHECK_OK(keel_dice_get_state(d, s, NULL, &rolls));
  CHECK(rolls == 360000);
  CHECK_INT(keel_dice_roll(d, s, 0, 6, (int[1]){ 0 }, NULL, NULL), KEEL_E_ARG);
  CHECK_INT(keel_dice_roll(d, s, 1, KEEL_DICE_MAX_SIDES + 1, (int[1]){ 0 }, NULL, NULL), KEEL_E_ARG);
  keel_dice_free(d);
}

int main(void) {
  RUN(dice_xoshiro_reference);
  RUN(dice_splitmix_reference);
  RUN(dice_fnv1a_reference);
  RUN(dice_seeded_reference);
  RUN(dice_below_rejects);
  RUN(dice_below_unbiased);
  RUN(dice_streams_independent);
  RUN(dice_forced);
  RUN(dice_state_round_trip);
  RUN(dice_load_malformed);
  RUN(dice_histogram);
  return check_report();
}
