/* test_grid.c — printed labels, map sections and hexside labels (grid.c). */
#include "check.h"
#include "keel.h"

static keel_grid *make(int pointy, int shift_even, int digits, int first) {
  keel_numbering n = { pointy, shift_even, digits, first, first };
  keel_grid *g = NULL;
  keel_grid_new(&n, &g);
  return g;
}

TEST(labels_roundtrip_every_orientation_and_shift) {
  for (int pointy = 0; pointy < 2; pointy++)
    for (int even = 0; even < 2; even++)
      for (int first = 0; first < 2; first++) {
        keel_grid *g = make(pointy, even, 2, first);
        CHECK_OK(keel_grid_add_section(g, "A", 0, 0, 30, 20));
        for (int c = first; c < first + 30; c++)
          for (int r = first; r < first + 20; r++) {
            char label[16], back[KEEL_LABEL_MAX];
            snprintf(label, sizeof label, "A:%02d%02d", c, r);
            keel_hex h;
            CHECK_OK(keel_grid_parse(g, label, &h, NULL));
            CHECK_OK(keel_grid_format(g, h, back, sizeof back));
            CHECK_STR(back, label);
          }
        keel_grid_free(g);
      }
}

TEST(labels_shift_decides_adjacency) {
  /* flat, even columns shifted down: 2407 touches 2508 (27.B.5 Crete example) */
  keel_grid *g = make(0, 1, 2, 1);
  CHECK_OK(keel_grid_add_section(g, "15B", 0, 0, 0, 0));
  keel_hex a, b;
  CHECK_OK(keel_grid_parse(g, "15B:2407", &a, NULL));
  CHECK_OK(keel_grid_parse(g, "15B:2508", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 1);
  CHECK_OK(keel_grid_parse(g, "15B:2506", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 2);
  keel_grid_free(g);
  /* odd columns shifted: 2407 touches 2506 and 2507 instead */
  g = make(0, 0, 2, 1);
  CHECK_OK(keel_grid_parse(g, "2407", &a, NULL));
  CHECK_OK(keel_grid_parse(g, "2506", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 1);
  CHECK_OK(keel_grid_parse(g, "2508", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 2);
  keel_grid_free(g);
  /* pointy, odd rows shifted right: 0707 touches 0808 and 0708 */
  g = make(1, 0, 2, 1);
  CHECK_OK(keel_grid_parse(g, "0707", &a, NULL));
  CHECK_OK(keel_grid_parse(g, "0808", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 1);
  keel_grid_free(g);
}

TEST(multi_section_board_one_global_grid) {
  keel_grid *g = make(0, 1, 2, 1);
  CHECK_OK(keel_grid_add_section(g, "15A", 0, 0, 34, 40));
  CHECK_OK(keel_grid_add_section(g, "15B", 34, 0, 34, 40));
  CHECK_OK(keel_grid_add_section(g, "16A", 0, 40, 34, 40));
  keel_hex a, b, c;
  CHECK_OK(keel_grid_parse(g, "15A:3410", &a, NULL));
  CHECK_OK(keel_grid_parse(g, "15B:0110", &b, NULL));
  CHECK_INT(keel_hex_distance(a, b), 1);                 /* across the seam */
  CHECK_OK(keel_grid_parse(g, "16A:0501", &c, NULL));
  CHECK_OK(keel_grid_parse(g, "15A:0540", &a, NULL));
  CHECK_INT(keel_hex_distance(a, c), 1);
  char buf[KEEL_LABEL_MAX];
  CHECK_OK(keel_grid_format(g, b, buf, sizeof buf));
  CHECK_STR(buf, "15B:0110");
  size_t i;
  CHECK_OK(keel_grid_section_of(g, c, &i));
  CHECK_STR(keel_grid_section_name(g, i), "16A");
  CHECK_OK(keel_grid_parse(g, "0101", &a, NULL));        /* no prefix: first section */
  CHECK_OK(keel_grid_format(g, a, buf, sizeof buf));
  CHECK_STR(buf, "15A:0101");
  keel_grid_free(g);
}

TEST(three_digit_numbering) {
  keel_grid *g = make(0, 0, 3, 0);
  keel_hex h;
  char buf[KEEL_LABEL_MAX];
  CHECK_OK(keel_grid_parse(g, "120045", &h, NULL));
  CHECK_OK(keel_grid_format(g, h, buf, sizeof buf));
  CHECK_STR(buf, "120045");
  size_t at;
  CHECK_INT(keel_grid_parse(g, "1245", &h, &at), KEEL_E_LABEL);
  CHECK_INT(at, 4);
  keel_grid_free(g);
}

TEST(hexside_labels) {
  keel_grid *g = make(0, 1, 2, 1);
  CHECK_OK(keel_grid_add_section(g, "33", 0, 0, 40, 40));
  CHECK_OK(keel_grid_add_section(g, "34", 40, 0, 40, 40));
  keel_side s, s2;
  CHECK_OK(keel_grid_parse_side(g, "33:1223/1224", &s, NULL));
  CHECK_OK(keel_grid_parse_side(g, "33:1224/1223", &s2, NULL));
  CHECK_INT(s, s2);
  CHECK_OK(keel_grid_parse_side(g, "33:1223/33:1224", &s2, NULL));
  CHECK_INT(s, s2);
  char buf[2 * KEEL_LABEL_MAX];
  CHECK_OK(keel_grid_format_side(g, s, buf, sizeof buf));
  CHECK_STR(buf, "33:1223/1224");
  CHECK_OK(keel_grid_parse_side(g, "33:4010/34:0110", &s, NULL));
  CHECK_OK(keel_grid_format_side(g, s, buf, sizeof buf));
  CHECK_STR(buf, "33:4010/34:0110");
  size_t at;
  CHECK_INT(keel_grid_parse_side(g, "33:1223/1225", &s, &at), KEEL_E_NOT_ADJACENT);
  CHECK_INT(keel_grid_parse_side(g, "33:1223-1224", &s, &at), KEEL_E_LABEL);
  CHECK_INT(at, 7);
  CHECK_INT(keel_grid_parse_side(g, "33:1223/", &s, &at), KEEL_E_LABEL);
  keel_grid_free(g);
}

TEST(malformed_labels_say_where) {
  keel_grid *g = make(0, 1, 2, 1);
  CHECK_OK(keel_grid_add_section(g, "15B", 0, 0, 34, 40));
  keel_hex h;
  size_t at;
  CHECK_INT(keel_grid_parse(g, "15B:24O7", &h, &at), KEEL_E_LABEL);
  CHECK_INT(at, 6);
  CHECK_INT(keel_grid_parse(g, "15C:2407", &h, &at), KEEL_E_SECTION);
  CHECK_INT(at, 0);
  CHECK_INT(keel_grid_parse(g, "15B:24077", &h, &at), KEEL_E_LABEL);
  CHECK_INT(at, 8);
  CHECK_INT(keel_grid_parse(g, "", &h, &at), KEEL_E_LABEL);
  CHECK_INT(keel_grid_parse(g, ":2407", &h, &at), KEEL_E_LABEL);
  CHECK_INT(keel_grid_parse(g, "15B:9907", &h, &at), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_grid_parse(g, "15B:0007", &h, &at), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_grid_parse(g, "15B:2441", &h, &at), KEEL_E_OFF_BOARD);
  CHECK_INT(keel_grid_parse(g, NULL, &h, &at), KEEL_E_ARG);
  keel_hex far;
  keel_hex_from_qr(500, 500, &far);
  char buf[KEEL_LABEL_MAX];
  CHECK_INT(keel_grid_format(g, far, buf, sizeof buf), KEEL_E_OFF_BOARD);
  keel_grid_free(g);
}

TEST(bad_sections_refused) {
  keel_grid *g = make(0, 1, 2, 1);
  CHECK_OK(keel_grid_add_section(g, "A", 0, 0, 10, 10));
  CHECK_INT(keel_grid_add_section(g, "A", 20, 0, 10, 10), KEEL_E_DUPLICATE);
  CHECK_INT(keel_grid_add_section(g, "B", 11, 0, 10, 10), KEEL_E_ARG);     /* odd col offset */
  CHECK_INT(keel_grid_add_section(g, "B c", 10, 0, 10, 10), KEEL_E_ARG);
  CHECK_INT(keel_grid_add_section(g, "", 10, 0, 10, 10), KEEL_E_ARG);
  CHECK_INT(keel_grid_add_section(g, "0123456789abcdef", 10, 0, 10, 10), KEEL_E_ARG);
  CHECK_INT(keel_grid_add_section(g, "B", 10, 0, 1000, 10), KEEL_E_RANGE);
  keel_grid_free(g);
  keel_numbering bad = { 0, 0, 5, 1, 1 };
  keel_grid *g2;
  CHECK_INT(keel_grid_new(&bad, &g2), KEEL_E_ARG);
}

/* printed numbers must fit in the digits: a section from 98 of 4 columns
 * would print 98..101 with two digits (it once built a smaller board) */
TEST(sections_fit_in_the_digits) {
  keel_numbering n = { 0, 0, 2, 98, 98 };
  keel_grid *g;
  CHECK_INT(keel_grid_new(&n, &g), KEEL_OK);
  CHECK_INT(keel_grid_add_section(g, "A", 0, 0, 4, 2), KEEL_E_RANGE);
  CHECK_INT(keel_grid_add_section(g, "A", 0, 0, 2, 4), KEEL_E_RANGE);
  CHECK_INT(keel_grid_add_section(g, "A", 0, 0, 2, 2), KEEL_OK);
  keel_grid_free(g);
  keel_numbering past = { 0, 0, 2, 100, 1 };
  CHECK_INT(keel_grid_new(&past, &g), KEEL_E_RANGE);
}

int main(void) {
  RUN(labels_roundtrip_every_orientation_and_shift);
  RUN(labels_shift_decides_adjacency);
  RUN(multi_section_board_one_global_grid);
  RUN(three_digit_numbering);
  RUN(hexside_labels);
  RUN(malformed_labels_say_where);
  RUN(bad_sections_refused);
  RUN(sections_fit_in_the_digits);
  return check_report();
}
