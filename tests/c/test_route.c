/* test_route.c — reach sets and paths over MP costs (route.c). */
#include "check.h"
#include "keel.h"
#include "route_impl.h"   /* which query index a reach set built; borrowing (lender) */
#include <stdlib.h>
#include <string.h>

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

static int refuse_21(void *ud, keel_hex h) {
  int *asked = ud;
  (*asked)++;
  return h != H(2, 1);
}
static int abort_all(void *ud, keel_hex h) { (void)ud; (void)h; return -1; }

TEST(reach_options_blocked_stop_predicate) {
  keel_costmap *m = open_sea(10);
  keel_reach *r;
  uint32_t c;
  keel_hex blocked[1] = { H(1, 0) }, stop[1] = { H(0, 1) };
  keel_reach_opts o = { blocked, 1, stop, 1, NULL, NULL, NULL, NULL };
  CHECK_OK(keel_reach_new_ex(m, H(0, 0), 0, 4, &o, &r));
  CHECK_INT(keel_reach_cost(r, H(1, 0), &c), KEEL_E_NOT_FOUND);
  CHECK_OK(keel_reach_cost(r, H(0, 1), &c));
  CHECK_INT(c, 1);
  CHECK_OK(keel_reach_cost(r, H(0, 2), &c));
  CHECK_INT(c, 3);                                 /* round the stop hex: one more */
  keel_hex path[8];
  size_t n;
  CHECK_OK(keel_reach_path(r, H(0, 2), path, 8, &n));
  CHECK(path[1] != H(0, 1));
  keel_reach_free(r);
  /* the edges are restored */
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 4, &r));
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK_INT(c, 1);
  CHECK_INT(keel_reach_count(r), keel_max_disk_size(4));
  keel_reach_free(r);
  /* the predicate: asked once per candidate hex, may refuse */
  int asked = 0;
  keel_reach_opts p = { NULL, 0, NULL, 0, refuse_21, &asked, NULL, NULL };
  CHECK_OK(keel_reach_new_ex(m, H(0, 0), 0, 3, &p, &r));
  CHECK_INT(keel_reach_cost(r, H(2, 1), &c), KEEL_E_NOT_FOUND);
  CHECK_INT(asked, (int)keel_max_disk_size(3) - 1);
  keel_reach_free(r);
  keel_reach_opts a = { NULL, 0, NULL, 0, abort_all, NULL, NULL, NULL };
  CHECK_INT(keel_reach_new_ex(m, H(0, 0), 0, 3, &a, &r), KEEL_E_LIMIT);
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 3, &r));   /* workspace clean after the abort */
  CHECK_INT(keel_reach_count(r), keel_max_disk_size(3));
  keel_reach_free(r);
  /* one step */
  int coast;
  CHECK_OK(keel_costmap_step(m, H(0, 0), 0, H(1, 0), &c, &coast));
  CHECK_INT(c, 1);
  CHECK_INT(keel_costmap_step(m, H(0, 0), 0, H(2, 0), &c, &coast), KEEL_E_NOT_ADJACENT);
  CHECK_OK(keel_costmap_set_enter(m, H(1, 0), KEEL_COST_BLOCKED));
  CHECK_OK(keel_costmap_step(m, H(0, 0), 0, H(1, 0), &c, &coast));
  CHECK(c == UINT32_MAX);
  /* a large cost (enter + cross past 8 bits) is still exact */
  CHECK_OK(keel_costmap_set_enter(m, H(1, 0), 300));
  keel_side s;
  keel_side_between(H(0, 0), H(1, 0), &s);
  CHECK_OK(keel_costmap_set_cross(m, s, 1000));
  CHECK_OK(keel_costmap_step(m, H(0, 0), 0, H(1, 0), &c, &coast));
  CHECK_INT(c, 1300);
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 2000, &r));
  CHECK_OK(keel_reach_cost(r, H(1, 0), &c));
  CHECK_INT(c, 301);                               /* round about: 1 + 300 */
  keel_reach_free(r);
  keel_costmap_free(m);
}

TEST(graph_reach_same_search_over_keys) {
  keel_graph *g;
  CHECK_OK(keel_graph_new(&g));
  int64_t keys[5] = { 50, 10, 40, 30, 20 };
  for (int i = 0; i < 5; i++) CHECK_OK(keel_graph_add_node(g, keys[i]));
  /* a diamond 10 -> 20|30 -> 40, and 40 -> 50 costing 3 */
  CHECK_OK(keel_graph_add_edge(g, 10, 30, 1));
  CHECK_OK(keel_graph_add_edge(g, 10, 20, 1));
  CHECK_OK(keel_graph_add_edge(g, 30, 40, 1));
  CHECK_OK(keel_graph_add_edge(g, 20, 40, 1));
  CHECK_OK(keel_graph_add_edge(g, 40, 50, 5));
  CHECK_OK(keel_graph_add_edge(g, 40, 50, 3));   /* repeated: the cheaper kept */
  CHECK_OK(keel_graph_finish(g));
  CHECK_INT(keel_graph_count_nodes(g), 5);
  CHECK_INT(keel_graph_count_edges(g), 5);
  CHECK_INT(keel_graph_add_node(g, 60), KEEL_E_STATE);
  keel_reach *r;
  CHECK_OK(keel_graph_reach(g, 10, 10, NULL, &r));
  uint32_t c;
  CHECK_OK(keel_reach_cost(r, 50, &c));
  CHECK_INT(c, 5);
  int64_t path[8];
  size_t n;
  CHECK_OK(keel_reach_path(r, 50, path, 8, &n));
  CHECK_INT(n, 4);
  CHECK_INT(path[1], 20);                          /* tie: the lower key */
  CHECK_INT(keel_reach_hex(r, 0), 10);
  keel_reach_free(r);
  int64_t blocked[1] = { 20 }, stop[1] = { 40 };
  keel_reach_opts o = { blocked, 1, stop, 1, NULL, NULL, NULL, NULL };
  CHECK_OK(keel_graph_reach(g, 10, 10, &o, &r));
  CHECK_INT(keel_reach_cost(r, 20, &c), KEEL_E_NOT_FOUND);
  CHECK_OK(keel_reach_cost(r, 40, &c));
  CHECK_INT(c, 2);
  CHECK_INT(keel_reach_cost(r, 50, &c), KEEL_E_NOT_FOUND);   /* 40 is a stop */
  keel_reach_free(r);
  CHECK_INT(keel_graph_reach(g, 99, 10, NULL, &r), KEEL_E_NOT_FOUND);
  int64_t nb[4];
  uint16_t cost[4];
  CHECK_OK(keel_graph_neighbors(g, 40, nb, cost, 4, &n));
  CHECK_INT(n, 1);
  CHECK_INT(cost[0], 3);
  keel_graph_free(g);
  /* bad graphs */
  CHECK_OK(keel_graph_new(&g));
  CHECK_OK(keel_graph_add_node(g, 1));
  CHECK_OK(keel_graph_add_node(g, 1));
  CHECK_INT(keel_graph_finish(g), KEEL_E_DUPLICATE);
  keel_graph_free(g);
  CHECK_OK(keel_graph_new(&g));
  CHECK_OK(keel_graph_add_node(g, 1));
  CHECK_OK(keel_graph_add_edge(g, 1, 2, 1));
  CHECK_INT(keel_graph_finish(g), KEEL_E_NOT_FOUND);
  keel_graph_free(g);
}

TEST(board_costmap_from_profile_in_one_pass) {
  keel_numbering num = { 0, 1, 2, 1, 1 };
  keel_board *b;
  CHECK_OK(keel_board_new(&num, &b));
  CHECK_OK(keel_board_add_section(b, "A", 0, 0, 6, 6));
  CHECK_OK(keel_board_set_default_terrain(b, KEEL_TERRAIN_SEA));
  keel_hex land, coastal, sea;
  size_t at;
  keel_grid_parse(keel_board_get_grid(b), "0303", &land, &at);
  keel_grid_parse(keel_board_get_grid(b), "0304", &coastal, &at);
  keel_grid_parse(keel_board_get_grid(b), "0202", &sea, &at);
  CHECK_OK(keel_board_set_terrain(b, land, KEEL_TERRAIN_LAND));
  CHECK_OK(keel_board_set_terrain(b, coastal, KEEL_TERRAIN_COASTAL));
  CHECK_OK(keel_board_finish(b));
  keel_profile p;
  memset(&p, 0, sizeof p);
  for (int t = 0; t < KEEL_TERRAIN_COUNT; t++) p.enter[t] = KEEL_COST_BLOCKED;
  p.enter[KEEL_TERRAIN_SEA] = 1;
  p.enter[KEEL_TERRAIN_COASTAL] = 2;
  p.water[0] = p.water[3] = KEEL_COST_BLOCKED;
  p.prohibited = KEEL_COST_BLOCKED;
  p.water_route = 1;
  keel_costmap *m;
  CHECK_OK(keel_board_costmap(b, &p, NULL, &m));
  uint16_t e;
  CHECK_OK(keel_costmap_get_enter(m, land, &e));
  CHECK_INT(e, KEEL_COST_BLOCKED);
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, 2);
  CHECK_OK(keel_costmap_get_enter(m, sea, &e));
  CHECK_INT(e, 1);
  keel_reach *r;
  CHECK_OK(keel_reach_new(m, sea, 0, 100, &r));
  CHECK_INT(keel_reach_count(r), keel_board_count_hexes(b) - 1);   /* all but the land hex */
  uint32_t c;
  CHECK_OK(keel_reach_cost(r, coastal, &c));
  CHECK(c >= 2);
  keel_reach_free(r);
  keel_costmap_free(m);
  /* friendly_only: coastal hexes only when friendly; the owners are the
   * game state's, read as the map is built; nobody owns it yet */
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom allied, axis;
  CHECK_OK(keel_state_intern(st, "Allied", 6, &allied));
  CHECK_OK(keel_state_intern(st, "Axis", 4, &axis));
  keel_move_conditions cond;
  memset(&cond, 0, sizeof cond);
  cond.owners = st;
  cond.friendly[cond.nfriendly++] = allied;
  cond.friendly_only = 1u << KEEL_TERRAIN_COASTAL;
  CHECK_OK(keel_board_costmap(b, &p, &cond, &m));
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, KEEL_COST_BLOCKED);
  keel_costmap_free(m);
  CHECK_OK(keel_state_set_owner(st, coastal, axis));           /* an enemy hex */
  CHECK_OK(keel_board_costmap(b, &p, &cond, &m));
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, KEEL_COST_BLOCKED);
  keel_costmap_free(m);
  CHECK_OK(keel_state_set_owner(st, coastal, allied));
  CHECK_OK(keel_board_costmap(b, &p, &cond, &m));
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, 2);
  CHECK_OK(keel_costmap_get_enter(m, sea, &e));                /* all-sea is not restricted */
  CHECK_INT(e, 1);
  keel_costmap_free(m);
  /* a 0 among the friendly sides: hexes nobody owns count as friendly */
  CHECK_OK(keel_state_set_owner(st, coastal, 0));
  cond.friendly[0] = 0;
  CHECK_OK(keel_board_costmap(b, &p, &cond, &m));
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, 2);
  keel_costmap_free(m);
  /* no state: nobody owns anything; too many friendly sides is an error */
  cond.owners = NULL;
  cond.friendly[0] = allied;
  CHECK_OK(keel_board_costmap(b, &p, &cond, &m));
  CHECK_OK(keel_costmap_get_enter(m, coastal, &e));
  CHECK_INT(e, KEEL_COST_BLOCKED);
  keel_costmap_free(m);
  cond.nfriendly = KEEL_FRIENDLY_MAX + 1;
  CHECK_INT(keel_board_costmap(b, &p, &cond, &m), KEEL_E_ARG);
  CHECK(m == NULL);
  keel_state_free(st);
  keel_board_free(b);
}

/* every hex of the box (and one ring outside it): cost as a plain distance
 * on open sea within budget from `from`, else not found */
static void check_disk(const keel_reach *r, int64_t size, keel_hex from, uint32_t budget) {
  for (int64_t q = -size - 1; q <= size + 1; q++)
    for (int64_t rr = -size - 1; rr <= size + 1; rr++) {
      uint32_t c, d = (uint32_t)keel_hex_distance(H(q, rr), from);
      int inside = q >= -size && q <= size && rr >= -size && rr <= size && d <= budget;
      keel_status st = keel_reach_cost(r, H(q, rr), &c);
      CHECK_INT(st, inside ? KEEL_OK : KEEL_E_NOT_FOUND);
      if (inside) CHECK_INT(c, d);
    }
}

TEST(reach_query_index_dense_hashed_or_borrowed) {
  keel_costmap *m = open_sea(12);
  keel_reach *r, *r2;
  uint32_t c;
  /* a compact set: a dense array over its box */
  CHECK_OK(keel_reach_new(m, H(2, -3), 0, 5, &r));
  check_disk(r, 12, H(2, -3), 5);
  CHECK(r->dense != NULL && r->slot == NULL);
  CHECK_INT(keel_reach_cost(r, H(1000, 0), &c), KEEL_E_NOT_FOUND);
  keel_reach_free(r);
  /* a sprawling set (one diagonal line: its box is n x n): open addressing */
  keel_costmap_fill(m, KEEL_COST_BLOCKED, 0);
  for (int64_t k = -12; k <= 12; k++) CHECK_OK(keel_costmap_set_enter(m, H(k, -k), 1));
  CHECK_OK(keel_reach_new(m, H(0, 0), 0, 100, &r));
  CHECK_INT(keel_reach_count(r), 25);
  for (int64_t k = -12; k <= 12; k++) {
    CHECK_OK(keel_reach_cost(r, H(k, -k), &c));
    CHECK_INT(c, k < 0 ? -k : k);
  }
  CHECK_INT(keel_reach_cost(r, H(1, 0), &c), KEEL_E_NOT_FOUND);
  CHECK(r->dense == NULL && r->slot != NULL);
  keel_reach_free(r);
  /* borrowed: lookups read the cost map's array until its next search */
  keel_costmap_fill(m, 1, 0);
  keel_costmap *lent = m;
  CHECK_OK(keel_reach_new(m, H(-6, 0), 0, 4, &r));
  r->lender = &lent;
  check_disk(r, 12, H(-6, 0), 4);
  CHECK(!keel__reach_indexed(r));
  keel_hex path[8];
  size_t n;
  CHECK_OK(keel_reach_path(r, H(-2, 0), path, 8, &n));
  CHECK_INT(n, 5);
  CHECK_OK(keel_reach_new(m, H(6, 0), 0, 3, &r2));   /* a later search: r builds its own */
  r2->lender = &lent;
  check_disk(r2, 12, H(6, 0), 3);   /* r's cells, stale in the map's array, are misses */
  CHECK(!keel__reach_indexed(r2));
  check_disk(r, 12, H(-6, 0), 4);
  CHECK(keel__reach_indexed(r));
  lent = NULL;                      /* the cost map is gone: r2 builds its own too */
  check_disk(r2, 12, H(6, 0), 3);
  CHECK(keel__reach_indexed(r2));
  keel_reach_free(r);
  keel_reach_free(r2);
  keel_costmap_free(m);
}

int main(void) {
  RUN(reach_on_open_sea_is_a_disk);
  RUN(reach_respects_enter_and_cross_costs_and_blocks);
  RUN(reach_budget_and_errors);
  RUN(reach_is_the_same_every_run_with_lower_hex_id_on_ties);
  RUN(reach_27B5_two_coasts_left_only_on_the_coast_entered);
  RUN(reach_options_blocked_stop_predicate);
  RUN(graph_reach_same_search_over_keys);
  RUN(board_costmap_from_profile_in_one_pass);
  RUN(reach_query_index_dense_hashed_or_borrowed);
  return check_report();
}
