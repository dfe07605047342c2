/* test_route.c — reach sets and paths over MP costs (route.c). */
#include "check.h"
#include "keel.h"
#include <stdlib.h>

static keel_hex H(int64_t q, int64_t r) { keel_hex h; keel_hex_from_qr(q, r, &h); return h; }

static keel_costmap *open_sea(int64_t size) {
  keel_costmap *m;
  keel_costmap_new(-size, -size, 2 * size + 1, 2 * size + 1, &m);
  keel_costmap_fill(m, 1, 0);
  return m;
}

TEST(reach_on_open_sea_is_a_disk) {
  keel_costmap *m = open_sea(20);
  for (uint32_t budget = 0; budget <= 6; budget++) {
    keel_reach *r;
    CHECK_OK(keel_reach_new(m, H(0, 0), 0, budget, &r));
    CHECK_INT(keel_reach_count(r), keel_max_disk_size(budget));
    for (size_t i = 0; i < keel_reach_count(r); i++) {
      uint32_t c;
      keel_hex h = keel_reach_hex(r, i);
      CHECK_OK(keel_reach_cost(r, h, &c));
      CHECK_INT(c, keel_hex_distance(h, H(0, 0)));
      if (i) {
        uint32_t prev;
        keel_reach_cost(r, keel_reach_hex(r, i - 1), &prev);
        CHECK(prev <= c);                       /* settled in cost order */
      }
    }
    keel_reach_free(r);
  }
  keel_costmap_free(m);
}

TEST(reach_respects_enter_and_cross_costs_and_blocks) {
  keel_costmap *m = open_sea(10);
  /* a wall of land at q = 2 except one gap at r = -3 */
  for (int r = -10; r <= 10; r++)
    if (r != -3) CHECK_OK(keel_costmap_set_enter(m, H(2, r), KEEL_COST_BLOCKED));
  keel_reach *r;
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 30, &r));
  uint32_t c;
  CHECK_INT(keel_reach_cost(r, H(2, 0), &c), KEEL_E_NOT_FOUND);
  CHECK_OK(keel_reach_cost(r, H(3, 0), &c));
  CHECK_INT(c, 7);                 /* 0,0 -> 2,-3 is 3; on to 3,0 is 4 more */
  keel_hex path[64];
  size_t n;
  CHECK_OK(keel_reach_path(r, H(3, 0), path, 64, &n));
  CHECK_INT(n, 8);
  CHECK_INT(path[0], H(0, 0));
  CHECK_INT(path[n - 1], H(3, 0));
  int through_gap = 0;
  for (size_t k = 0; k < n; k++) {
    if (k) CHECK_INT(keel_hex_distance(path[k - 1], path[k]), 1);
    if (path[k] == H(2, -3)) through_gap = 1;
  }
  CHECK(through_gap);
  keel_reach_free(r);
  /* a hexside that costs 5 to cross, and one that is prohibited */
  keel_side s;
  keel_side_between(H(0, 0), H(1, 0), &s);
  CHECK_OK(keel_costmap_set_cross(m, s, 5));
  keel_side_between(H(0, 0), H(0, 1), &s);
  CHECK_OK(keel_costmap_set_cross(m, s, KEEL_COST_BLOCKED));
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 10, &r));
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK_INT(c, 2);                 /* round by (1,-1): 2, not 6 straight across */
  CHECK_OK(keel_reach_cost(r, H(0, 1), &c));
  CHECK_INT(c, 2);                 /* around the prohibited side */
  uint16_t got;
  CHECK_OK(keel_costmap_get_cross(m, s, &got));
  CHECK_INT(got, KEEL_COST_BLOCKED);
  keel_reach_free(r);
  keel_costmap_free(m);
}

TEST(reach_budget_and_errors) {
  keel_costmap *m = open_sea(3);
  keel_reach *r;
  CHECK_INT(keel_reach_new(m, H(9, 9), 0, 5, &r), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_reach_new(m, H(0, 0), 7, 5, &r), KEEL_E_ARG);
  CHECK_INT(keel_costmap_set_enter(m, H(9, 9), 1), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_costmap_set_enter(m, H(0, 0), 0xfff5), KEEL_E_RANGE);
  CHECK_OK(keel_reach_new(m, H(3, 3), 0, 100, &r));       /* edge of the box: no overrun */
  CHECK_INT(keel_reach_count(r), 49);
  keel_reach_free(r);
  keel_costmap_free(m);
  CHECK_INT(keel_costmap_new(0, 0, 0, 5, &m), KEEL_E_RANGE);
}

TEST(reach_is_the_same_every_run_with_lower_hex_id_on_ties) {
  keel_costmap *m = open_sea(8);
  keel_reach *a, *b;
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 6, &a));
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 6, &b));
  CHECK_INT(keel_reach_count(a), keel_reach_count(b));
  for (size_t i = 0; i < keel_reach_count(a); i++) CHECK_INT(keel_reach_hex(a, i), keel_reach_hex(b, i));
  /* (2,-1) can be reached via (1,0) or (1,-1): the lower hex id is the predecessor */
  keel_hex path[8];
  size_t n;
  CHECK_OK(keel_reach_path(a, H(2, -1), path, 8, &n));
  CHECK_INT(n, 3);
  CHECK_INT(path[1], H(1, -1) < H(1, 0) ? H(1, -1) : H(1, 0));
  keel_reach_free(a);
  keel_reach_free(b);
  keel_costmap_free(m);
}

TEST(reach_27B5_two_coasts_left_only_on_the_coast_entered) {
  /* hex X = (0,0) has a west coast (sides 3,4,2: coast 1) and an east coast
   * (sides 0,1,5: coast 2), separated by land. Entered from the west, a group
   * cannot continue east through X; it must go round. */
  keel_costmap *m = open_sea(6);
  for (int d = 0; d < 6; d++)
    CHECK_OK(keel_costmap_set_coast(m, H(0, 0), d, (d == 0 || d == 1 || d == 5) ? 2 : 1));
  /* make the way round expensive: land north and south of X */
  CHECK_OK(keel_costmap_set_enter(m, H(0, -1), KEEL_COST_BLOCKED));
  CHECK_OK(keel_costmap_set_enter(m, H(0, 1), KEEL_COST_BLOCKED));
  CHECK_OK(keel_costmap_set_enter(m, H(1, -1), KEEL_COST_BLOCKED));
  CHECK_OK(keel_costmap_set_enter(m, H(-1, 1), KEEL_COST_BLOCKED));
  keel_reach *r;
  CHECK_OK(keel_reach_new(m, H(-1, 0), 0, 20, &r));
  uint32_t c;
  CHECK_OK(keel_reach_cost(r, H(0, 0), &c));
  CHECK_INT(c, 1);
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK(c > 2);                                   /* not straight through X */
  keel_hex path[32];
  size_t n;
  CHECK_OK(keel_reach_path(r, H(1, 0), path, 32, &n));
  for (size_t k = 0; k < n; k++) CHECK(path[k] != H(0, 0));
  keel_reach_free(r);
  /* starting in X on coast 0 (in port), either coast may be used */
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 20, &r));
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK_INT(c, 1);
  CHECK_OK(keel_reach_cost(r, H(-1, 0), &c));
  CHECK_INT(c, 1);
  keel_reach_free(r);
  /* starting in X on the west coast: the east is only round about */
  CHECK_OK(keel_reach_new(m, H(0, 0), 1, 20, &r));
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK(c > 2);
  keel_reach_free(r);
  keel_costmap_free(m);
}

int main(void) {
  RUN(reach_on_open_sea_is_a_disk);
  RUN(reach_respects_enter_and_cross_costs_and_blocks);
  RUN(reach_budget_and_errors);
  RUN(reach_is_the_same_every_run_with_lower_hex_id_on_ties);
  RUN(reach_27B5_two_coasts_left_only_on_the_coast_entered);
  return check_report();
}
