/* test_board.c — unit tests of board.c: building, derived hexside classes
 * and coasts (27.B.5), ports, places, zones, tags, sea boxes,
 * riverine neighbours, strait passages, and every misuse status. */
#include "check.h"
#include "keel.h"

/* flat-top, even columns shifted down, 2 digits, first 1 1 (as the rule
 * examples imply) */
static const keel_numbering NUM = { 0, 1, 2, 1, 1 };

static keel_hex H(keel_board *b, const char *label) {
  keel_hex h = 0;
  size_t at;
  if (keel_grid_parse(keel_board_get_grid(b), label, &h, &at) != KEEL_OK) CHECK(!"label parses");
  return h;
}

static keel_side SD(keel_board *b, const char *label) {
  keel_side s = 0;
  size_t at;
  if (keel_grid_parse_side(keel_board_get_grid(b), label, &s, &at) != KEEL_OK) CHECK(!"side parses");
  return s;
}

/* a Crete-like board: sea, with coastal hexes 2208..2808 along row 08 */
static keel_board *crete(void) {
  keel_board *b;
  CHECK_OK(keel_board_new(&NUM, &b));
  CHECK_OK(keel_board_add_section(b, "15B", 0, 0, 30, 12));
  CHECK_OK(keel_board_set_default_terrain(b, KEEL_TERRAIN_SEA));
  const char *crete_hexes[] = { "15B:2208", "15B:2308", "15B:2408", "15B:2508", "15B:2608" };
  for (int i = 0; i < 5; i++) CHECK_OK(keel_board_set_terrain(b, H(b, crete_hexes[i]), KEEL_TERRAIN_COASTAL));
  const char *spine[] = { "15B:2208/2308", "15B:2308/2408", "15B:2408/2508", "15B:2508/2608" };
  for (int i = 0; i < 4; i++) CHECK_OK(keel_board_add_side(b, SD(b, spine[i]), KEEL_SIDE_ALL_LAND));
  keel_port p = { H(b, "15B:2508"), KEEL_PORT_MINOR, -1, 0 };
  CHECK_OK(keel_board_add_port(b, &p));
  CHECK_OK(keel_board_add_place(b, "Heraklion", H(b, "15B:2508")));
  return b;
}

TEST(board_terrain_and_labels) {
  keel_board *b = crete();
  CHECK_OK(keel_board_finish(b));
  keel_terrain t;
  CHECK_OK(keel_board_get_terrain(b, H(b, "15B:2508"), &t));
  CHECK_INT(t, KEEL_TERRAIN_COASTAL);
  CHECK_OK(keel_board_get_terrain(b, H(b, "15B:2407"), &t));
  CHECK_INT(t, KEEL_TERRAIN_SEA);
  CHECK_STR(keel_terrain_name(KEEL_TERRAIN_RESTRICTED), "restricted");
  CHECK_OK(keel_terrain_from_name("lake", &t));
  CHECK_INT(t, KEEL_TERRAIN_LAKE);
  CHECK_INT(keel_terrain_from_name("swamp", &t), KEEL_E_NOT_FOUND);
  keel_hex off;
  CHECK_OK(keel_hex_from_qr(500, 500, &off));
  CHECK_INT(keel_board_get_terrain(b, off, &t), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_board_count_hexes(b), 360);
  CHECK(keel_board_memory(b) / keel_board_count_hexes(b) <= 32);
  keel_board_free(b);
}

TEST(board_derived_sides_and_coasts_27_B_5) {
  keel_board *b = crete();
  CHECK_OK(keel_board_finish(b));
  unsigned f;
  CHECK_OK(keel_board_get_features(b, SD(b, "15B:2407/2508"), &f));
  CHECK_INT(f & KEEL_SIDE_WATER_MASK, KEEL_SIDE_ALL_WATER);
  CHECK_OK(keel_board_get_features(b, SD(b, "15B:2408/2508"), &f));
  CHECK_INT(f & KEEL_SIDE_WATER_MASK, KEEL_SIDE_ALL_LAND);
  /* 2508 (odd column): N, NE, NW face north; S faces south; SE, SW are Crete */
  int c[6];
  for (int d = 0; d < 6; d++) CHECK_OK(keel_board_get_coast(b, H(b, "15B:2508"), d, &c[d]));
  CHECK(c[1] != 0 && c[1] == c[2] && c[2] == c[3]);   /* NE, N, NW */
  CHECK(c[5] != 0 && c[5] != c[2]);                   /* S: the other coast */
  CHECK_INT(c[0], 0);
  CHECK_INT(c[4], 0);
  /* entering 2508 from 2407, onward only on the north coast */
  keel_water_step st[6];
  size_t n, k;
  CHECK_OK(keel_board_water_neighbors(b, H(b, "15B:2407"), 0, st, &n));
  int coast = -1;
  for (k = 0; k < n; k++) if (st[k].to == H(b, "15B:2508")) coast = st[k].coast;
  CHECK_INT(coast, c[2]);
  CHECK_OK(keel_board_water_neighbors(b, H(b, "15B:2508"), coast, st, &n));
  CHECK_INT(n, 3);
  for (k = 0; k < n; k++) CHECK(st[k].to != H(b, "15B:2509"));
  CHECK_OK(keel_board_water_neighbors(b, H(b, "15B:2508"), c[5], st, &n));
  CHECK_INT(n, 1);
  CHECK(st[0].to == H(b, "15B:2509"));
  CHECK_INT(keel_board_water_neighbors(b, H(b, "15B:2508"), 16, st, &n), KEEL_E_ARG);
  keel_board_free(b);
}

TEST(board_ports_places_cd) {
  keel_board *b = crete();
  CHECK_OK(keel_board_set_cd(b, H(b, "15B:2508"), 2));
  CHECK_OK(keel_board_finish(b));
  keel_port p;
  CHECK_OK(keel_board_get_port(b, H(b, "15B:2508"), &p));
  CHECK_INT(p.size, KEEL_PORT_MINOR);
  CHECK_INT(p.capacity, -1);
  CHECK_INT(keel_board_get_port(b, H(b, "15B:2407"), &p), KEEL_E_NOT_FOUND);
  keel_hex h;
  CHECK_OK(keel_board_find_place(b, "Heraklion", &h));
  CHECK(h == H(b, "15B:2508"));
  const char *name;
  CHECK_OK(keel_board_place_name(b, h, &name));
  CHECK_STR(name, "Heraklion");
  CHECK_INT(keel_board_find_place(b, "Atlantis", &h), KEEL_E_NOT_FOUND);
  CHECK_INT(keel_board_set_cd(b, H(b, "15B:2508"), 3), KEEL_E_STATE);   /* finished: never changes */
  int lv;
  CHECK_OK(keel_board_get_cd(b, H(b, "15B:2508"), &lv));
  CHECK_INT(lv, 2);
  /* the list of coast defences, in cell order: the one set, with its level */
  CHECK_INT(keel_board_count_cds(b), 1);
  CHECK_OK(keel_board_at_cd(b, 0, &h, &lv));
  CHECK(h == H(b, "15B:2508"));
  CHECK_INT(lv, 2);
  CHECK_INT(keel_board_at_cd(b, 1, &h, &lv), KEEL_E_NOT_FOUND);
  keel_board_free(b);
}

TEST(board_zones_tags_boxes) {
  keel_board *b = crete();
  size_t med, aeg, z;
  CHECK_OK(keel_board_add_zone(b, "Mediterranean", &med));
  CHECK_OK(keel_board_add_zone(b, "Aegean", &aeg));
  CHECK_OK(keel_board_set_zone(b, H(b, "15B:2509"), med));
  CHECK_OK(keel_board_set_zone(b, H(b, "15B:2510"), med));
  CHECK_OK(keel_board_set_zone(b, H(b, "15B:2511"), aeg));
  CHECK_INT(keel_board_set_zone(b, H(b, "15B:2509"), aeg), KEEL_E_DUPLICATE);
  int crete_tag, again;
  CHECK_OK(keel_board_tag_id(b, "crete", &crete_tag));
  CHECK_OK(keel_board_tag_id(b, "crete", &again));
  CHECK_INT(again, crete_tag);
  CHECK_OK(keel_board_add_tag(b, H(b, "15B:2508"), crete_tag));
  CHECK_OK(keel_board_add_tag(b, H(b, "15B:2408"), crete_tag));
  CHECK_OK(keel_board_add_tag(b, H(b, "15B:2508"), crete_tag));   /* twice: kept once */
  keel_boxgrid g = { 2, H(b, "15B:2407") };
  CHECK_OK(keel_board_set_seaboxes(b, &g));
  CHECK_INT(keel_board_set_seaboxes(b, &g), KEEL_E_DUPLICATE);
  CHECK_OK(keel_board_finish(b));
  CHECK_OK(keel_board_get_zone(b, H(b, "15B:2510"), &z));
  CHECK_INT(z, med);
  CHECK_INT(keel_board_get_zone(b, H(b, "15B:2407"), &z), KEEL_E_NOT_FOUND);
  CHECK(keel_area_adjacent(keel_board_get_areas(b), med, aeg));
  CHECK(keel_board_has_tag(b, H(b, "15B:2508"), crete_tag));
  CHECK(!keel_board_has_tag(b, H(b, "15B:2407"), crete_tag));
  keel_hex hs[4];
  size_t n;
  CHECK_OK(keel_board_tagged(b, crete_tag, hs, 4, &n));
  CHECK_INT(n, 2);
  int ids[4];
  CHECK_OK(keel_board_tags(b, H(b, "15B:2508"), ids, 4, &n));
  CHECK_INT(n, 1);
  CHECK_STR(keel_board_tag_name(b, ids[0]), "crete");
  keel_box b1, b2;
  CHECK_OK(keel_board_box_of(b, H(b, "15B:2407"), &b1));
  CHECK_OK(keel_board_box_of(b, H(b, "15B:2509"), &b2));
  CHECK(b1 == b2);
  keel_board_free(b);
}

TEST(board_riverine_and_straits) {
  keel_board *b;
  CHECK_OK(keel_board_new(&NUM, &b));
  CHECK_OK(keel_board_add_section(b, "23A", 0, 0, 40, 30));
  int gq;
  CHECK_OK(keel_board_side_name_id(b, "Guadalquivir", &gq));
  unsigned river = KEEL_SIDE_MAJOR_RIVER | ((unsigned)gq << KEEL_SIDE_NAME_SHIFT);
  const char *route[] = { "23A:3227/3327", "23A:3327/3226", "23A:3226/3326", "23A:3326/3225",
                          "23A:3225/3325", "23A:3224/3225" };
  for (int i = 0; i < 6; i++) CHECK_OK(keel_board_add_side(b, SD(b, route[i]), river));
  CHECK_INT(keel_board_add_side(b, SD(b, route[0]), KEEL_SIDE_CANAL), KEEL_E_DUPLICATE);
  CHECK_OK(keel_board_add_side(b, SD(b, "23A:1223/1224"), KEEL_SIDE_NARROW_STRAIT));
  CHECK_OK(keel_board_add_strait_passage(b, SD(b, "23A:1224/1324"), SD(b, "23A:1223/1224")));
  CHECK_INT(keel_board_add_strait_passage(b, SD(b, "23A:1225/1224"), SD(b, "23A:0101/0102")),
            KEEL_E_NOT_FOUND);
  CHECK_OK(keel_board_finish(b));
  for (int i = 0; i + 1 < 6; i++) {
    keel_side out[4];
    size_t n, k;
    int found = 0;
    CHECK_OK(keel_board_riverine_neighbors(b, SD(b, route[i]), out, &n));
    for (k = 0; k < n; k++) found |= out[k] == SD(b, route[i + 1]);
    CHECK(found);
  }
  unsigned f;
  CHECK_OK(keel_board_get_features(b, SD(b, route[0]), &f));
  CHECK_STR(keel_board_side_name(b, (int)(f >> KEEL_SIDE_NAME_SHIFT)), "Guadalquivir");
  keel_side s;
  CHECK_OK(keel_board_strait_passage(b, SD(b, "23A:1224/1324"), &s));
  CHECK(s == SD(b, "23A:1223/1224"));
  CHECK_OK(keel_board_strait_passage(b, SD(b, "23A:1223/1224"), &s));
  CHECK_INT(keel_board_strait_passage(b, SD(b, "23A:1224/1225"), &s), KEEL_E_NOT_FOUND);
  keel_board_free(b);
}

TEST(board_misuse) {
  keel_board *b;
  CHECK_OK(keel_board_new(&NUM, &b));
  keel_terrain t;
  CHECK_INT(keel_board_finish(b), KEEL_E_STATE);                        /* no section */
  CHECK_INT(keel_board_add_section(b, "A", 0, 0, 0, 5), KEEL_E_ARG);    /* empty */
  CHECK_OK(keel_board_add_section(b, "A", 0, 0, 4, 4));
  CHECK_INT(keel_board_add_section(b, "A", 0, 10, 4, 4), KEEL_E_DUPLICATE);
  keel_hex h = H(b, "A:0101"), far;
  CHECK_INT(keel_board_get_terrain(b, h, &t), KEEL_E_STATE);                 /* not finished */
  CHECK_OK(keel_board_set_terrain(b, h, KEEL_TERRAIN_SEA));
  CHECK_INT(keel_board_set_terrain(b, h, KEEL_TERRAIN_SEA), KEEL_E_DUPLICATE);
  CHECK_INT(keel_board_set_terrain(b, h, KEEL_TERRAIN_NONE), KEEL_E_ARG);
  CHECK_INT(keel_board_add_section(b, "B", 0, 10, 4, 4), KEEL_E_STATE);  /* after data */
  CHECK_OK(keel_hex_from_qr(100, 100, &far));
  CHECK_INT(keel_board_set_terrain(b, far, KEEL_TERRAIN_SEA), KEEL_E_OFF_BOARD);
  keel_side s;
  CHECK_OK(keel_side_of(h, 3, &s));                                      /* to column 00 */
  CHECK_INT(keel_board_add_side(b, s, KEEL_SIDE_RIVER), KEEL_E_OFF_BOARD);
  int bad[6] = { 0, 0, 16, 0, 0, 0 };
  CHECK_INT(keel_board_set_coasts(b, h, bad), KEEL_E_ARG);
  keel_port p = { h, 7, -1, 0 };
  CHECK_INT(keel_board_add_port(b, &p), KEEL_E_ARG);
  CHECK_INT(keel_board_add_tag(b, h, 3), KEEL_E_ARG);
  CHECK_INT(keel_board_set_cd(b, h, 300), KEEL_E_ARG);
  CHECK_OK(keel_board_finish(b));
  CHECK_INT(keel_board_finish(b), KEEL_E_STATE);
  CHECK_INT(keel_board_set_terrain(b, H(b, "A:0202"), KEEL_TERRAIN_SEA), KEEL_E_STATE);
  CHECK_OK(keel_board_get_terrain(b, H(b, "A:0202"), &t));
  CHECK_INT(t, KEEL_TERRAIN_LAND);                                       /* default */
  keel_box box;
  CHECK_INT(keel_board_box_of(b, h, &box), KEEL_E_NOT_FOUND);               /* no sea boxes */
  keel_board_free(b);
  keel_board_free(NULL);
}

TEST(board_bulk_fill) {
  keel_board *b;
  CHECK_OK(keel_board_new(&NUM, &b));
  CHECK_OK(keel_board_add_section(b, "A", 0, 0, 6, 4));
  int rect, tag;
  size_t zone;
  CHECK_OK(keel_board_tag_id(b, "rect", &rect));
  CHECK_OK(keel_board_tag_id(b, "t", &tag));
  CHECK_OK(keel_board_add_zone(b, "Z", &zone));
  keel_hex at = 0;
  /* rectangle 0203..0304 = 4 hexes, row by row */
  CHECK_OK(keel_board_fill(b, KEEL_LAYER_TAG, H(b, "A:0203"), H(b, "A:0304"), rect, &at));
  CHECK_OK(keel_board_fill(b, KEEL_LAYER_TAG, H(b, "A:0101"), H(b, "A:0201"), tag, &at));
  CHECK_OK(keel_board_fill(b, KEEL_LAYER_ZONE, H(b, "A:0102"), H(b, "A:0602"), (int)zone, &at));
  /* a second zone over 0502..0503 stops at 0502, the first hex already zoned */
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_ZONE, H(b, "A:0502"), H(b, "A:0503"), (int)zone, &at),
            KEEL_E_DUPLICATE);
  CHECK(at == H(b, "A:0502"));
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_TAG, H(b, "A:0304"), H(b, "A:0203"), tag, &at), KEEL_E_ARG);
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_COUNT, H(b, "A:0101"), H(b, "A:0101"), 1, &at), KEEL_E_ARG);
  /* off the board: the rectangle runs past column 06 */
  keel_hex c0701, c0602;
  CHECK_OK(keel_hex_from_offset(KEEL_EVEN_Q, 7, 1, &c0701));   /* printed 0701: off the board */
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_TAG, H(b, "A:0501"), c0701, rect, &at), KEEL_E_OFF_BOARD);
  CHECK(at == c0701);
  CHECK_OK(keel_hex_from_offset(KEEL_EVEN_Q, 6, 2, &c0602));
  /* a row: terrain from 0101, -1 leaves a hex; then a duplicate in the second row call */
  int row[6] = { KEEL_TERRAIN_SEA, -1, KEEL_TERRAIN_COASTAL, KEEL_TERRAIN_LAND, KEEL_TERRAIN_LAKE, KEEL_TERRAIN_SEA };
  size_t i = 99;
  CHECK_OK(keel_board_fill_row(b, KEEL_LAYER_TERRAIN, H(b, "A:0101"), row, 6, &i));
  int again[2] = { KEEL_TERRAIN_SEA, KEEL_TERRAIN_SEA };
  CHECK_OK(keel_board_fill_row(b, KEEL_LAYER_TERRAIN, H(b, "A:0201"), again, 1, &i));
  CHECK_INT(keel_board_fill_row(b, KEEL_LAYER_TERRAIN, H(b, "A:0201"), again, 2, &i), KEEL_E_DUPLICATE);
  CHECK_INT(i, 0);
  CHECK_INT(keel_board_fill_row(b, KEEL_LAYER_TERRAIN, H(b, "A:0304"), row, 6, &i), KEEL_E_OFF_BOARD);
  CHECK_INT(i, 4);                                   /* 0304, (0404 left), 0504, 0604, then 0704 */
  CHECK_OK(keel_board_finish(b));
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_TAG, H(b, "A:0101"), H(b, "A:0101"), tag, &at), KEEL_E_STATE);
  CHECK_INT(keel_board_fill(b, KEEL_LAYER_ZONE, H(b, "A:0101"), H(b, "A:0101"), 0, &at), KEEL_E_STATE);
  /* each hex as the one-hex calls set it */
  keel_terrain t;
  CHECK(keel_board_has_tag(b, H(b, "A:0304"), rect));
  CHECK(keel_board_has_tag(b, H(b, "A:0203"), rect));
  CHECK(keel_board_has_tag(b, H(b, "A:0601"), rect));        /* set before 0701 stopped it */
  CHECK(!keel_board_has_tag(b, H(b, "A:0103"), rect));
  CHECK(keel_board_has_tag(b, H(b, "A:0201"), tag));
  CHECK(!keel_board_has_tag(b, H(b, "A:0301"), tag));
  CHECK_OK(keel_board_get_zone(b, c0602, &zone));
  CHECK_INT(zone, 0);
  CHECK_OK(keel_board_get_terrain(b, H(b, "A:0301"), &t));
  CHECK_INT(t, KEEL_TERRAIN_COASTAL);
  CHECK_OK(keel_board_get_terrain(b, H(b, "A:0504"), &t));
  CHECK_INT(t, KEEL_TERRAIN_COASTAL);
  CHECK_OK(keel_board_get_terrain(b, H(b, "A:0404"), &t));
  CHECK_INT(t, KEEL_TERRAIN_LAND);                           /* left: the default */
  keel_board_free(b);
}

int main(void) {
  RUN(board_terrain_and_labels);
  RUN(board_derived_sides_and_coasts_27_B_5);
  RUN(board_ports_places_cd);
  RUN(board_zones_tags_boxes);
  RUN(board_riverine_and_straits);
  RUN(board_misuse);
  RUN(board_bulk_fill);
  return check_report();
}
