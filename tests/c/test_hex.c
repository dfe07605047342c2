/* test_hex.c — hex geometry: the Red Blob Games conformance vectors
 * (tests/conformance/redblob-hex.json) and keel's own cases. */
#include "check.h"
#include "json_min.h"
#include "keel.h"
#include <stdlib.h>

static json *vectors;

static keel_hex cube(const json *a) {
  keel_hex h;
  if (keel_hex_from_qrs((int64_t)json_num(json_at(a, 0)), (int64_t)json_num(json_at(a, 1)),
                        (int64_t)json_num(json_at(a, 2)), &h) != KEEL_OK) {
    check_fail(__FILE__, __LINE__, "bad cube in vectors");
    return 0;
  }
  return h;
}

static const json *cases(const char *name) {
  const json *c = json_get(vectors, name);
  if (!c) check_fail(__FILE__, __LINE__, name);
  return c;
}

#define EACH(name, var) \
  for (const json *var##_list = cases(name), *var = NULL; var##_list; var##_list = NULL) \
    for (size_t var##_i = 0; \
         var##_i < var##_list->n && ((var = &var##_list->items[var##_i]), 1); var##_i++)

TEST(redblob_hex_add_subtract) {
  EACH("hex_add", c) {
    keel_hex h;
    CHECK_OK(keel_hex_add(cube(json_get(c, "a")), cube(json_get(c, "b")), &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
  EACH("hex_subtract", c) {
    keel_hex h;
    CHECK_OK(keel_hex_subtract(cube(json_get(c, "a")), cube(json_get(c, "b")), &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
}

TEST(redblob_directions_and_neighbors) {
  const json *dirs = cases("hex_directions");
  for (int d = 0; dirs && d < 6; d++) {
    int dq, dr;
    keel_hex_direction_qr(d, &dq, &dr);
    keel_hex h;
    CHECK_OK(keel_hex_from_qr(dq, dr, &h));
    CHECK_INT(h, cube(json_at(dirs, (size_t)d)));
  }
  EACH("hex_neighbor", c) {
    keel_hex h;
    CHECK_OK(keel_hex_neighbor(cube(json_get(c, "hex")), (int)json_num(json_get(c, "direction")), &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
  const json *diags = cases("hex_diagonals");
  for (int d = 0; diags && d < 6; d++) {
    int dq, dr;
    keel_hex_diagonal_qr(d, &dq, &dr);
    keel_hex h;
    CHECK_OK(keel_hex_from_qr(dq, dr, &h));
    CHECK_INT(h, cube(json_at(diags, (size_t)d)));
  }
  EACH("hex_diagonal_neighbor", c) {
    keel_hex h;
    CHECK_OK(keel_hex_diagonal_neighbor(cube(json_get(c, "hex")), (int)json_num(json_get(c, "direction")), &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
}

TEST(redblob_distance_rotate) {
  EACH("hex_distance", c) {
    CHECK_INT(keel_hex_distance(cube(json_get(c, "a")), cube(json_get(c, "b"))), json_num(json_get(c, "expect")));
  }
  EACH("hex_rotate_right", c) {
    keel_hex h;
    CHECK_OK(keel_hex_rotate(cube(json_get(c, "hex")), 0, -1, &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
  EACH("hex_rotate_left", c) {
    keel_hex h;
    CHECK_OK(keel_hex_rotate(cube(json_get(c, "hex")), 0, 1, &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
}

TEST(redblob_round) {
  EACH("hex_round", c) {
    double q = 0, r = 0, s = 0;
    const json *lerp = json_get(c, "lerp");
    if (lerp) {
      const json *a = json_get(lerp, "a"), *b = json_get(lerp, "b");
      double t = json_num(json_get(lerp, "t"));
      q = json_num(json_at(a, 0)) * (1 - t) + json_num(json_at(b, 0)) * t;
      r = json_num(json_at(a, 1)) * (1 - t) + json_num(json_at(b, 1)) * t;
      s = json_num(json_at(a, 2)) * (1 - t) + json_num(json_at(b, 2)) * t;
    } else {
      const json *w = json_get(c, "weights");
      for (size_t k = 0; w && k < w->n; k++) {
        const json *pt = json_at(json_at(w, k), 0);
        double wt = json_num(json_at(json_at(w, k), 1));
        q += json_num(json_at(pt, 0)) * wt;
        r += json_num(json_at(pt, 1)) * wt;
        s += json_num(json_at(pt, 2)) * wt;
      }
    }
    keel_hex h;
    CHECK_OK(keel_hex_round(q, r, s, &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
}

TEST(redblob_linedraw) {
  EACH("hex_linedraw", c) {
    keel_hex a = cube(json_get(c, "a")), b = cube(json_get(c, "b")), out[64];
    const json *want = json_get(c, "expect");
    size_t n;
    CHECK_OK(keel_hex_line(a, b, out, 64, &n));
    CHECK_INT(n, want->n);
    for (size_t k = 0; k < n && k < want->n; k++) CHECK_INT(out[k], cube(json_at(want, k)));
  }
}

TEST(redblob_layout_roundtrip) {
  EACH("layout_roundtrip", c) {
    keel_layout l;
    l.pointy = !strcmp(json_get(c, "orientation")->str, "pointy");
    l.size_x = json_num(json_at(json_get(c, "size"), 0));
    l.size_y = json_num(json_at(json_get(c, "size"), 1));
    l.origin_x = json_num(json_at(json_get(c, "origin"), 0));
    l.origin_y = json_num(json_at(json_get(c, "origin"), 1));
    keel_hex h = cube(json_get(c, "hex")), back;
    double x, y, q, r, s;
    keel_hex_to_pixel(&l, h, &x, &y);
    keel_pixel_to_frac(&l, x, y, &q, &r, &s);
    CHECK_OK(keel_hex_round(q, r, s, &back));
    CHECK_INT(back, h);
  }
}

static keel_offset offset_conv(const char *name) {
  if (!strcmp(name, "odd-q")) return KEEL_ODD_Q;
  if (!strcmp(name, "even-q")) return KEEL_EVEN_Q;
  if (!strcmp(name, "odd-r")) return KEEL_ODD_R;
  return KEEL_EVEN_R;
}

TEST(redblob_offset_and_doubled) {
  const json *rt = cases("offset_roundtrip");
  const json *convs = json_get(rt, "conventions");
  for (size_t k = 0; convs && k < convs->n; k++) {
    keel_offset conv = offset_conv(json_at(convs, k)->str);
    keel_hex h = cube(json_get(rt, "cube")), back;
    int64_t col, row;
    keel_hex_to_offset(h, conv, &col, &row);
    CHECK_OK(keel_hex_from_offset(conv, col, row, &back));
    CHECK_INT(back, h);
    int64_t c0 = (int64_t)json_num(json_at(json_get(rt, "offset"), 0));
    int64_t r0 = (int64_t)json_num(json_at(json_get(rt, "offset"), 1));
    CHECK_OK(keel_hex_from_offset(conv, c0, r0, &back));
    keel_hex_to_offset(back, conv, &col, &row);
    CHECK_INT(col, c0);
    CHECK_INT(row, r0);
  }
  EACH("qoffset_from_cube", c) {
    keel_offset conv = !strcmp(json_get(c, "offset")->str, "even") ? KEEL_EVEN_Q : KEEL_ODD_Q;
    int64_t col, row;
    keel_hex_to_offset(cube(json_get(c, "cube")), conv, &col, &row);
    CHECK_INT(col, json_num(json_at(json_get(c, "expect"), 0)));
    CHECK_INT(row, json_num(json_at(json_get(c, "expect"), 1)));
  }
  EACH("qoffset_to_cube", c) {
    keel_offset conv = !strcmp(json_get(c, "offset")->str, "even") ? KEEL_EVEN_Q : KEEL_ODD_Q;
    keel_hex h;
    CHECK_OK(keel_hex_from_offset(conv, (int64_t)json_num(json_at(json_get(c, "col_row"), 0)),
                                (int64_t)json_num(json_at(json_get(c, "col_row"), 1)), &h));
    CHECK_INT(h, cube(json_get(c, "expect")));
  }
  const json *drt = cases("doubled_roundtrip");
  for (int conv = 0; drt && conv < 2; conv++) {
    keel_hex h = cube(json_get(drt, "cube")), back;
    int64_t col, row;
    keel_hex_to_doubled(h, (keel_doubled)conv, &col, &row);
    CHECK_OK(keel_hex_from_doubled((keel_doubled)conv, col, row, &back));
    CHECK_INT(back, h);
    int64_t c0 = (int64_t)json_num(json_at(json_get(drt, "doubled"), 0));
    int64_t r0 = (int64_t)json_num(json_at(json_get(drt, "doubled"), 1));
    CHECK_OK(keel_hex_from_doubled((keel_doubled)conv, c0, r0, &back));
    keel_hex_to_doubled(back, (keel_doubled)conv, &col, &row);
    CHECK_INT(col, c0);
    CHECK_INT(row, r0);
  }
  static const char *const from[] = { "qdoubled_from_cube", "rdoubled_from_cube" };
  static const char *const to[] = { "qdoubled_to_cube", "rdoubled_to_cube" };
  for (int conv = 0; conv < 2; conv++) {
    EACH(from[conv], c) {
      int64_t col, row;
      keel_hex_to_doubled(cube(json_get(c, "cube")), (keel_doubled)conv, &col, &row);
      CHECK_INT(col, json_num(json_at(json_get(c, "expect"), 0)));
      CHECK_INT(row, json_num(json_at(json_get(c, "expect"), 1)));
    }
    EACH(to[conv], c) {
      keel_hex h;
      CHECK_OK(keel_hex_from_doubled((keel_doubled)conv, (int64_t)json_num(json_at(json_get(c, "doubled"), 0)),
                                   (int64_t)json_num(json_at(json_get(c, "doubled"), 1)), &h));
      CHECK_INT(h, cube(json_get(c, "expect")));
    }
  }
}

/* ---- keel's own cases ----------------------------------------------------- */

static keel_hex H(int64_t q, int64_t r) { keel_hex h; keel_hex_from_qr(q, r, &h); return h; }

TEST(hex_packing_negative_and_limits) {
  keel_hex h;
  CHECK_OK(keel_hex_from_qr(-5, 7, &h));
  CHECK_INT(keel_hex_q(h), -5);
  CHECK_INT(keel_hex_r(h), 7);
  CHECK_INT(keel_hex_s(h), -2);
  CHECK_INT(keel_hex_from_qr(KEEL_HEX_COORD_MAX + 1, 0, &h), KEEL_E_RANGE);
  CHECK_INT(keel_hex_from_qrs(1, 1, 1, &h), KEEL_E_ARG);
  CHECK_INT(keel_hex_neighbor(H(KEEL_HEX_COORD_MAX, 0), 0, &h), KEEL_E_RANGE);
  CHECK_INT(keel_hex_neighbor(H(0, 0), 6, &h), KEEL_E_ARG);
  CHECK(!keel_hex_is_valid((keel_hex)0x7fffffffffffffffLL));
}

TEST(hex_direction_to_and_distance) {
  for (int d = 0; d < 6; d++) {
    keel_hex n;
    keel_hex_neighbor(H(2, -3), d, &n);
    CHECK_INT(keel_hex_direction_to(H(2, -3), n), d);
    CHECK_INT(keel_hex_distance(H(2, -3), n), 1);
  }
  CHECK_INT(keel_hex_direction_to(H(0, 0), H(2, 0)), -1);
  CHECK_INT(keel_hex_distance(H(-4, 9), H(5, -3)), 12);
}

TEST(hex_rotate_about_center) {
  keel_hex out;
  CHECK_OK(keel_hex_rotate(H(3, 1), H(2, 1), 1, &out));   /* (1,0) about center -> (0,1)... */
  int dq, dr;
  keel_hex_direction_qr(1, &dq, &dr);
  CHECK_INT(out, H(2 + dq, 1 + dr));
  CHECK_OK(keel_hex_rotate(H(3, 1), H(2, 1), 6, &out));
  CHECK_INT(out, H(3, 1));
  CHECK_OK(keel_hex_rotate(H(3, 1), H(2, 1), -7, &out));
  keel_hex_direction_qr(5, &dq, &dr);
  CHECK_INT(out, H(2 + dq, 1 + dr));
}

TEST(hex_ring_and_spiral_order) {
  keel_hex out[64];
  size_t n;
  CHECK_OK(keel_hex_ring(H(0, 0), 0, out, 64, &n));
  CHECK_INT(n, 1);
  CHECK_OK(keel_hex_ring(H(1, 1), 2, out, 64, &n));
  CHECK_INT(n, 12);
  CHECK_INT(out[0], H(1 - 2, 1 + 2));             /* starts at center + 2 * dir 4 */
  for (size_t k = 0; k < n; k++) CHECK_INT(keel_hex_distance(out[k], H(1, 1)), 2);
  for (size_t k = 0; k < n; k++) CHECK_INT(keel_hex_distance(out[k], out[(k + 1) % n]), 1);
  CHECK_INT(keel_hex_ring(H(0, 0), 3, out, 10, &n), KEEL_E_CAPACITY);
  CHECK_INT(n, 18);
  CHECK_OK(keel_hex_spiral(H(0, 0), 3, out, 64, &n));
  CHECK_INT(n, 37);
  CHECK_INT(out[0], H(0, 0));
  for (size_t k = 1; k < 7; k++) CHECK_INT(keel_hex_distance(out[k], H(0, 0)), 1);
  for (size_t k = 7; k < 19; k++) CHECK_INT(keel_hex_distance(out[k], H(0, 0)), 2);
  for (size_t a = 0; a < n; a++)
    for (size_t b = a + 1; b < n; b++) CHECK(out[a] != out[b]);
}

TEST(hex_line_is_deterministic_and_connected) {
  keel_hex out[32], again[32];
  size_t n, m;
  CHECK_OK(keel_hex_line(H(0, 0), H(4, -2), out, 32, &n));   /* passes between hexes */
  CHECK_OK(keel_hex_line(H(0, 0), H(4, -2), again, 32, &m));
  CHECK_INT(n, 5);
  CHECK(m == n && !memcmp(out, again, n * sizeof *out));
  for (size_t k = 0; k + 1 < n; k++) CHECK_INT(keel_hex_distance(out[k], out[k + 1]), 1);
  CHECK_OK(keel_hex_line(H(3, 3), H(3, 3), out, 32, &n));
  CHECK_INT(n, 1);
  CHECK_INT(keel_hex_line(H(0, 0), H(40, 0), out, 32, &n), KEEL_E_CAPACITY);
}

TEST(hexside_ids_from_either_hex) {
  keel_hex a = H(2, -1);
  for (int d = 0; d < 6; d++) {
    keel_hex b;
    keel_side s1, s2, s3;
    keel_hex_neighbor(a, d, &b);
    CHECK_OK(keel_side_between(a, b, &s1));
    CHECK_OK(keel_side_between(b, a, &s2));
    CHECK_OK(keel_side_of(a, d, &s3));
    CHECK_INT(s1, s2);
    CHECK_INT(s1, s3);
    CHECK(keel_side_is_valid(s1));
    keel_hex x, y;
    keel_side_hexes(s1, &x, &y);
    CHECK((x == a && y == b) || (x == b && y == a));
    CHECK(keel_side_direction(s1) <= 2);
    CHECK_INT(keel_hex_direction_to(x, y), keel_side_direction(s1));
  }
  keel_side six[6];
  for (int d = 0; d < 6; d++) keel_side_of(a, d, &six[d]);
  for (int i = 0; i < 6; i++)
    for (int j = i + 1; j < 6; j++) CHECK(six[i] != six[j]);
  keel_side s;
  CHECK_INT(keel_side_between(H(0, 0), H(2, 0), &s), KEEL_E_NOT_ADJACENT);
  CHECK_INT(keel_side_between(H(0, 0), H(0, 0), &s), KEEL_E_NOT_ADJACENT);
  CHECK_OK(keel_side_between(H(-3, -4), H(-4, -4), &s));   /* negative coordinates */
  keel_hex x, y;
  keel_side_hexes(s, &x, &y);
  CHECK_INT(x, H(-4, -4));
  CHECK_INT(y, H(-3, -4));
  CHECK(!keel_side_is_valid((keel_side)3));               /* direction 3 is never canonical */
}

TEST(offset_all_conventions_roundtrip) {
  for (int conv = 0; conv < 4; conv++)
    for (int64_t q = -6; q <= 6; q++)
      for (int64_t r = -6; r <= 6; r++) {
        int64_t col, row;
        keel_hex back;
        keel_hex_to_offset(H(q, r), (keel_offset)conv, &col, &row);
        CHECK_OK(keel_hex_from_offset((keel_offset)conv, col, row, &back));
        CHECK_INT(back, H(q, r));
      }
  keel_hex h;
  CHECK_INT(keel_hex_from_doubled(KEEL_DOUBLED_Q, 1, 2, &h), KEEL_E_ARG);   /* odd sum */
}

TEST(seabox_tiling_each_hex_in_exactly_one_box) {
  for (int64_t radius = 1; radius <= 3; radius++) {
    keel_boxgrid g = { radius, H(3, -2) };
    for (int64_t q = -15; q <= 15; q++)
      for (int64_t r = -15; r <= 15; r++) {
        keel_box b;
        keel_hex c;
        CHECK_OK(keel_box_of(&g, H(q, r), &b));
        CHECK_OK(keel_box_center(&g, b, &c));
        CHECK(keel_hex_distance(c, H(q, r)) <= radius);
      }
  }
}

TEST(seabox_default_radius_2_is_19_hexes_5_across) {
  keel_boxgrid g = { 2, H(0, 0) };
  keel_hex out[32];
  size_t n;
  keel_box b0, b1;
  CHECK_OK(keel_box_of(&g, H(0, 0), &b0));
  CHECK_INT(b0, H(0, 0));
  CHECK_OK(keel_box_hexes(&g, b0, out, 32, &n));
  CHECK_INT(n, 19);
  for (size_t k = 0; k < n; k++) {
    keel_box b;
    CHECK_OK(keel_box_of(&g, out[k], &b));
    CHECK_INT(b, b0);
  }
  /* the neighbouring box along +q starts 5 hexes away (2R+1) */
  CHECK_OK(keel_box_of(&g, H(5, -2), &b1));
  CHECK_INT(keel_box_distance(b0, b1), 1);
  keel_hex c1;
  CHECK_OK(keel_box_center(&g, b1, &c1));
  CHECK_INT(keel_hex_distance(H(0, 0), c1), 5);
  /* every neighbour box is one box away and its centre 5 hexes away */
  for (int d = 0; d < 6; d++) {
    keel_box nb;
    keel_hex c;
    keel_hex_neighbor(b0, d, &nb);
    CHECK_OK(keel_box_center(&g, nb, &c));
    CHECK_INT(keel_hex_distance(H(0, 0), c), 5);
  }
  keel_box far;
  CHECK_OK(keel_box_of(&g, H(25, -10), &far));
  CHECK_INT(keel_box_distance(b0, far), 5);
}

int main(void) {
  vectors = json_load_file("tests/conformance/redblob-hex.json");
  if (!vectors) { printf("cannot read tests/conformance/redblob-hex.json\n0 passed, 1 failed\n"); return 1; }
  RUN(redblob_hex_add_subtract);
  RUN(redblob_directions_and_neighbors);
  RUN(redblob_distance_rotate);
  RUN(redblob_round);
  RUN(redblob_linedraw);
  RUN(redblob_layout_roundtrip);
  RUN(redblob_offset_and_doubled);
  RUN(hex_packing_negative_and_limits);
  RUN(hex_direction_to_and_distance);
  RUN(hex_rotate_about_center);
  RUN(hex_ring_and_spiral_order);
  RUN(hex_line_is_deterministic_and_connected);
  RUN(hexside_ids_from_either_hex);
  RUN(offset_all_conventions_roundtrip);
  RUN(seabox_tiling_each_hex_in_exactly_one_box);
  RUN(seabox_default_radius_2_is_19_hexes_5_across);
  json_free(vectors);
  return check_report();
}
