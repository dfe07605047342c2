/* test_area.c — named areas (sea zones) as hex sets and as a graph (area.c). */
#include "check.h"
#include "keel.h"

static keel_hex H(int64_t q, int64_t r) { keel_hex h; keel_hex_from_qr(q, r, &h); return h; }

TEST(areas_hold_hexes_in_id_order) {
  keel_areas *a;
  CHECK_OK(keel_areas_new(&a));
  size_t atl, med;
  CHECK_OK(keel_area_add(a, "Atlantic Ocean", &atl));
  CHECK_OK(keel_area_add(a, "Mediterranean Sea", &med));
  CHECK_INT(keel_area_add(a, "Atlantic Ocean", NULL), KEEL_E_DUPLICATE);
  for (int q = 5; q >= 0; q--) CHECK_OK(keel_area_add_hex(a, atl, H(q, 0)));
  CHECK_OK(keel_area_add_hex(a, atl, H(3, 0)));                 /* again: fine */
  CHECK_INT(keel_area_add_hex(a, med, H(3, 0)), KEEL_E_DUPLICATE);
  CHECK_INT(keel_area_count_hexes(a, atl), 6);
  keel_hex out[8];
  size_t n;
  CHECK_OK(keel_area_hexes(a, atl, out, 8, &n));
  CHECK_INT(n, 6);
  for (size_t k = 1; k < n; k++) CHECK(out[k - 1] < out[k]);
  size_t i;
  CHECK_OK(keel_area_of(a, H(2, 0), &i));
  CHECK_INT(i, atl);
  CHECK_INT(keel_area_of(a, H(9, 9), &i), KEEL_E_NOT_FOUND);
  CHECK_INT(keel_area_find(a, "Red Sea", &i), KEEL_E_NOT_FOUND);
  keel_areas_free(a);
}

TEST(areas_many_hexes_survive_rehash) {
  keel_areas *a;
  keel_areas_new(&a);
  size_t z;
  keel_area_add(a, "big", &z);
  for (int q = 0; q < 200; q++)
    for (int r = 0; r < 50; r++) CHECK_OK(keel_area_add_hex(a, z, H(q, r)));
  size_t i;
  CHECK_OK(keel_area_of(a, H(199, 49), &i));
  CHECK_INT(keel_area_count_hexes(a, z), 10000);
  keel_areas_free(a);
}

TEST(area_graph_adjacency_and_distance) {
  /* 27.B.1: three sea zones; Atlantic - Mediterranean - Red Sea (via Suez) */
  keel_areas *a;
  keel_areas_new(&a);
  size_t atl, med, red, lake;
  keel_area_add(a, "Atlantic Ocean", &atl);
  keel_area_add(a, "Mediterranean Sea", &med);
  keel_area_add(a, "Red Sea", &red);
  keel_area_add(a, "Lake", &lake);
  CHECK_OK(keel_area_connect(a, atl, med));
  CHECK_OK(keel_area_connect(a, med, red));
  CHECK_OK(keel_area_connect(a, med, red));                     /* idempotent */
  CHECK_INT(keel_area_connect(a, med, med), KEEL_E_ARG);
  CHECK(keel_area_adjacent(a, med, atl));
  CHECK(!keel_area_adjacent(a, atl, red));
  CHECK_INT(keel_area_count_neighbors(a, med), 2);
  CHECK_INT(keel_area_neighbor(a, med, 0), atl);
  CHECK_INT(keel_area_neighbor(a, med, 1), red);
  CHECK_INT(keel_area_distance(a, atl, red), 2);
  CHECK_INT(keel_area_distance(a, red, red), 0);
  CHECK_INT(keel_area_distance(a, atl, lake), -1);
  keel_areas_free(a);
}

TEST(area_connect_by_hexes) {
  keel_areas *a;
  keel_areas_new(&a);
  size_t west, east, far;
  keel_area_add(a, "west", &west);
  keel_area_add(a, "east", &east);
  keel_area_add(a, "far", &far);
  for (int r = 0; r < 4; r++) {
    keel_area_add_hex(a, west, H(0, r));
    keel_area_add_hex(a, east, H(1, r));
    keel_area_add_hex(a, far, H(9, r));
  }
  CHECK_OK(keel_area_connect_by_hexes(a));
  CHECK(keel_area_adjacent(a, west, east));
  CHECK(!keel_area_adjacent(a, west, far));
  CHECK(!keel_area_adjacent(a, east, far));
  keel_areas_free(a);
}

int main(void) {
  RUN(areas_hold_hexes_in_id_order);
  RUN(areas_many_hexes_survive_rehash);
  RUN(area_graph_adjacency_and_distance);
  RUN(area_connect_by_hexes);
  return check_report();
}
