/* test_index.c — the state's index of units and groups (kernel/index.c):
 * its answers against a scan of every unit and group, after moves, side
 * changes, new units, group changes, eliminations, rollbacks, undos and
 * redos; and the state hash it leaves alone. */
#include "keel.h"
#include "check.h"
#include <stdint.h>
#include <stdlib.h>

static keel_hex H(int64_t q, int64_t r) {
  keel_hex h = 0;
  CHECK_OK(keel_hex_from_qr(q, r, &h));
  return h;
}

static keel_atom A(keel_state *st, const char *s) {
  keel_atom a = 0;
  CHECK_OK(keel_state_intern(st, s, strlen(s), &a));
  return a;
}

/* xorshift64*: a fixed sequence of operations */
static uint64_t rng = 88172645463325252ULL;
static uint32_t next(uint32_t n) {
  rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
  return (uint32_t)((rng * 2685821657736338717ULL) >> 33) % n;
}

/* Does every answer of the index match a scan? (0: no; the first mismatch printed) */
static int consistent(keel_state *st, const keel_atom *sides, int nsides) {
  int32_t nu = keel_state_count_units(st), ng = keel_state_count_groups(st);
  int32_t *want = malloc(sizeof(int32_t) * (size_t)(nu + ng + 1));
  int ok = 1;
  for (int32_t id = 1; ok && id <= nu; id++) {
    keel_unit_info u;
    keel_state_get_unit(st, id, &u);
    /* the units at the same place as id */
    size_t k = 0, n;
    for (int32_t j = 1; j <= nu; j++) {
      keel_unit_info v;
      keel_state_get_unit(st, j, &v);
      if (v.loc.kind == u.loc.kind && v.loc.where == u.loc.where) want[k++] = j;
    }
    const int32_t *got = keel_state_units_at(st, u.loc, &n);
    if (n != k || (k && memcmp(got, want, k * sizeof *want))) { printf("  units_at of unit %d\n", id); ok = 0; }
    /* its groups */
    k = 0;
    for (int32_t g = 1; g <= ng; g++)
      for (size_t i = 0; i < keel_state_group_count_units(st, g); i++)
        if (keel_state_group_at_unit(st, g, i) == id) want[k++] = g;
    got = keel_state_groups_of(st, id, &n);
    if (n != k || (k && memcmp(got, want, k * sizeof *want))) { printf("  groups_of unit %d\n", id); ok = 0; }
  }
  for (int s = 0; ok && s < nsides; s++) {
    size_t k = 0, n;
    for (int32_t j = 1; j <= nu; j++) {
      keel_unit_info v;
      keel_state_get_unit(st, j, &v);
      if (v.side == sides[s] && v.loc.kind == KEEL_LOC_HEX) want[k++] = j;
    }
    keel_unit_query q = { .by_loc = 1, .loc = { KEEL_LOC_HEX, 0 }, .side = sides[s] };
    int32_t out[256];
    CHECK_OK(keel_state_find_units(st, &q, out, 256, &n));
    if (n != k || (k && memcmp(out, want, k * sizeof *want))) { printf("  units at sea of side %d\n", s); ok = 0; }
    /* the groups holding a unit of the side at sea */
    k = 0;
    for (int32_t g = 1; g <= ng; g++)
      for (size_t i = 0; i < keel_state_group_count_units(st, g); i++) {
        keel_unit_info v;
        keel_state_get_unit(st, keel_state_group_at_unit(st, g, i), &v);
        if (v.side == sides[s] && v.loc.kind == KEEL_LOC_HEX) { want[k++] = g; break; }
      }
    CHECK_OK(keel_state_find_groups(st, &q, out, 256, &n));
    if (n != k || (k && memcmp(out, want, k * sizeof *want))) { printf("  groups at sea of side %d\n", s); ok = 0; }
  }
  free(want);
  return ok;
}

TEST(index_answers_units_and_groups) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom axis = A(st, "Axis"), allied = A(st, "Allied"), tf = A(st, "TF");
  int32_t a = 0, b = 0, c = 0, g = 0;
  CHECK_OK(keel_state_unit_new(st, A(st, "Littorio"), tf, axis, &a));
  CHECK_OK(keel_state_unit_new(st, A(st, "Trento"), tf, axis, &b));
  CHECK_OK(keel_state_unit_new(st, A(st, "Orion"), tf, allied, &c));
  keel_hex h = H(3, 4), p = H(5, 6);
  CHECK_OK(keel_state_move(st, a, (keel_loc){ KEEL_LOC_HEX, h }));
  CHECK_OK(keel_state_move(st, b, (keel_loc){ KEEL_LOC_HEX, h }));
  CHECK_OK(keel_state_move(st, c, (keel_loc){ KEEL_LOC_PORT, p }));
  size_t n;
  const int32_t *ids = keel_state_units_at(st, (keel_loc){ KEEL_LOC_HEX, h }, &n);
  CHECK_INT(n, 2);
  CHECK_INT(ids[0], a);
  CHECK_INT(ids[1], b);
  keel_state_units_at(st, (keel_loc){ KEEL_LOC_HEX, p }, &n);
  CHECK_INT(n, 0);
  keel_state_units_at(st, (keel_loc){ KEEL_LOC_PORT, p }, &n);
  CHECK_INT(n, 1);
  keel_state_units_of_side(st, axis, &n);
  CHECK_INT(n, 2);
  keel_state_units_at_kind(st, KEEL_LOC_HEX, &n);
  CHECK_INT(n, 2);
  CHECK_OK(keel_state_group_new(st, A(st, "Regia"), &g));
  CHECK_OK(keel_state_group_add(st, g, b, -1));
  CHECK_OK(keel_state_group_add(st, g, a, -1));
  int32_t out[8];
  keel_unit_query q = { .by_loc = 1, .by_where = 1, .loc = { KEEL_LOC_HEX, h } };
  CHECK_OK(keel_state_find_groups(st, &q, out, 8, &n));
  CHECK_INT(n, 1);   /* one group, though two of its units are there */
  CHECK_INT(out[0], g);
  q.side = allied;
  CHECK_OK(keel_state_find_units(st, &q, out, 8, &n));
  CHECK_INT(n, 0);
  q = (keel_unit_query){ .type = tf };
  CHECK_INT(keel_state_find_units(st, &q, out, 2, &n), KEEL_E_CAPACITY);
  CHECK_INT(n, 3);
  /* cargo and elimination answer from it too */
  CHECK_OK(keel_state_move(st, c, (keel_loc){ KEEL_LOC_UNIT, a }));
  CHECK_OK(keel_state_cargo(st, a, out, 8, &n));
  CHECK_INT(n, 1);
  CHECK_OK(keel_state_eliminate(st, a));
  keel_state_units_at(st, (keel_loc){ KEEL_LOC_DEAD, 0 }, &n);
  CHECK_INT(n, 2);   /* a and its cargo */
  keel_state_groups_of(st, a, &n);
  CHECK_INT(n, 0);
  CHECK_INT(keel_state_group_count_units(st, g), 1);
  keel_atom sides[2] = { axis, allied };
  CHECK(consistent(st, sides, 2));
  keel_state_free(st);
}

TEST(index_kept_through_rollback_undo_redo) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom sides[3] = { A(st, "Axis"), A(st, "Allied"), A(st, "Neutral") };
  keel_atom types[2] = { A(st, "TF"), A(st, "PZ") };
  int32_t groups = 0;
  for (int i = 0; i < 6; i++) CHECK_OK(keel_state_group_new(st, A(st, i % 2 ? "odd" : "even"), &groups));
  int checks = 0, bad = 0;
  for (int round = 0; round < 300; round++) {
    int kind = (int)next(3);   /* 0: an action kept, 1: rolled back, 2: kept then undone (and maybe redone) */
    keel_mark m;
    if (kind == 1) CHECK_OK(keel_state_begin(st, &m));
    else CHECK_OK(keel_state_action_begin(st, "op", NULL));
    for (int step = 0, steps = 1 + (int)next(6); step < steps; step++) {
      int32_t nu = keel_state_count_units(st);
      uint32_t what = nu < 4 ? 0 : next(7);
      int32_t u = nu ? 1 + (int32_t)next((uint32_t)nu) : 0;
      keel_loc loc = { (keel_loc_kind)next(KEEL_LOC_COUNT), 0 };
      if (loc.kind == KEEL_LOC_HEX || loc.kind == KEEL_LOC_PORT) loc.where = H(next(4), next(4));
      if (loc.kind == KEEL_LOC_BOX || loc.kind == KEEL_LOC_ZONE) loc.where = next(3);
      if (loc.kind == KEEL_LOC_UNIT) loc.where = 1 + (int32_t)next((uint32_t)(nu ? nu : 1));
      switch (what) {
      case 0: { int32_t id; CHECK_OK(keel_state_unit_new(st, A(st, "u"), types[next(2)], sides[next(3)], &id)); break; }
      case 1: case 2: if (nu) (void)keel_state_move(st, u, loc); break;   /* a loop of cargo is refused */
      case 3: CHECK_OK(keel_state_set(st, u, KEEL_F_SIDE, sides[next(3)])); break;
      case 4: (void)keel_state_group_add(st, 1 + (int32_t)next((uint32_t)groups), u, -1); break;
      case 5: CHECK_OK(keel_state_group_remove(st, 1 + (int32_t)next((uint32_t)groups), u)); break;
      default: CHECK_OK(keel_state_eliminate(st, u)); break;
      }
    }
    if (kind == 1) CHECK_OK(keel_state_rollback(st, &m));
    else {
      CHECK_OK(keel_state_action_end(st));
      if (kind == 2) {
        CHECK_OK(keel_state_undo(st, 1));
        checks++; if (!consistent(st, sides, 3)) bad++;
        if (next(2)) CHECK_OK(keel_state_redo(st, 1));
      }
    }
    checks++;
    if (!consistent(st, sides, 3)) bad++;
    CHECK(keel_state_hash(st) == keel_state_hash_full(st));
  }
  CHECK_INT(bad, 0);
  CHECK(checks >= 300);
  CHECK(keel_state_count_units(st) > 20);
  keel_state_free(st);
}

int main(void) {
  RUN(index_answers_units_and_groups);
  RUN(index_kept_through_rollback_undo_redo);
  return check_report();
}
