/* test_state.c — the game state (kernel/state.c and its files), journal.c,
 * save.c and file.c from C. */
#include "keel.h"
#include "check.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static keel_atom A(keel_state *st, const char *s) {
  keel_atom a = 0;
  CHECK_OK(keel_state_intern(st, s, strlen(s), &a));
  return a;
}

static keel_value I(int64_t i) { keel_value v = { KEEL_V_INT, { 0 } }; v.u.i = i; return v; }
static keel_value S(keel_atom s) { keel_value v = { KEEL_V_STR, { 0 } }; v.u.s = s; return v; }
static keel_value F(double f) { keel_value v = { KEEL_V_FLOAT, { 0 } }; v.u.f = f; return v; }
static const keel_value NIL = { KEEL_V_NIL, { 0 } };

static int32_t ship(keel_state *st, const char *name, const char *type, int64_t strength) {
  int32_t id = 0;
  CHECK_OK(keel_state_unit_new(st, A(st, name), A(st, type), A(st, "Allied"), &id));
  CHECK_OK(keel_state_set_value(st, id, A(st, "strength"), I(strength)));
  return id;
}

static int journal_has(keel_state *st, const char *needle) {
  size_t n;
  const char *j;
  CHECK_OK(keel_state_journal(st, &j, &n));
  return strstr(j, needle) != NULL;
}

TEST(state_units_and_fields) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t bb = ship(st, "Warspite", "BB", 5);
  CHECK_INT(bb, 1);
  CHECK_INT(keel_state_count_units(st), 1);
  CHECK_OK(keel_state_add_hits(st, bb, 2));
  keel_unit_info u;
  CHECK_OK(keel_state_get_unit(st, bb, &u));
  CHECK_INT(u.hits, 2);
  CHECK_INT(u.face, KEEL_FACE_FULL);
  CHECK_INT(keel_state_add_hits(st, bb, -3), KEEL_E_ARG);
  CHECK_INT(keel_state_get_unit(st, 9, &u), KEEL_E_NOT_FOUND);
  /* values are kept sorted by name text */
  CHECK_OK(keel_state_set_value(st, bb, A(st, "speed"), I(9)));
  CHECK_OK(keel_state_set_value(st, bb, A(st, "aa"), F(1.5)));
  CHECK_INT(keel_state_count_values(st, bb), 3);
  keel_atom k; keel_value v;
  CHECK_OK(keel_state_at_value(st, bb, 0, &k, &v));
  CHECK_STR(keel_state_atom_str(st, k, NULL), "aa");
  CHECK_OK(keel_state_at_value(st, bb, 2, &k, &v));
  CHECK_STR(keel_state_atom_str(st, k, NULL), "strength");
  CHECK_OK(keel_state_set_value(st, bb, A(st, "speed"), NIL));
  CHECK_INT(keel_state_count_values(st, bb), 2);
  CHECK_INT(keel_state_set_value(st, bb, A(st, "x"), F(1.0 / 0.0)), KEEL_E_ARG);
  /* markers */
  CHECK_OK(keel_state_add_marker(st, bb, A(st, "DG"), 1));
  CHECK_OK(keel_state_add_marker(st, bb, A(st, "DG"), 1));
  CHECK_INT(keel_state_get_marker(st, bb, A(st, "DG")), 2);
  CHECK_OK(keel_state_set_marker(st, bb, A(st, "DG"), 0));
  CHECK_INT(keel_state_count_markers(st, bb), 0);
  CHECK_INT(keel_state_hash(st), keel_state_hash_full(st));
  CHECK(journal_has(st, "{\"ev\":\"set\",\"rule\":null,\"unit\":1,\"field\":\"hits\",\"old\":0,\"new\":2}"));
  CHECK(journal_has(st, "\"key\":\"aa\",\"old\":null,\"new\":1.5}"));
  keel_state_free(st);
}

TEST(state_hash_independent_of_history) {
  keel_state *a, *b;
  CHECK_OK(keel_state_new(&a));
  CHECK_OK(keel_state_new(&b));
  /* b interns strings in another order and takes a detour */
  A(b, "zzz"); A(b, "DG"); A(b, "Allied");
  int32_t x = ship(a, "Hood", "BC", 6), y = ship(b, "Hood", "BC", 6);
  CHECK_OK(keel_state_add_hits(a, x, 1));
  CHECK_OK(keel_state_add_hits(b, y, 3));
  CHECK_OK(keel_state_set_marker(b, y, A(b, "DG"), 4));
  CHECK_OK(keel_state_set(b, y, KEEL_F_HITS, 1));
  CHECK_OK(keel_state_set_marker(b, y, A(b, "DG"), 0));
  CHECK(keel_state_hash(a) == keel_state_hash(b));
  CHECK_OK(keel_state_set_global(a, A(a, "weather"), S(A(a, "storm"))));
  CHECK(keel_state_hash(a) != keel_state_hash(b));
  CHECK_OK(keel_state_set_global(b, A(b, "weather"), S(A(b, "storm"))));
  CHECK(keel_state_hash(a) == keel_state_hash(b));
  CHECK(keel_state_hash(a) == keel_state_hash_full(a));
  keel_state_free(a);
  keel_state_free(b);
}

TEST(state_transaction_rollback) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t bb = ship(st, "Nelson", "BB", 5);
  int32_t g;
  CHECK_OK(keel_state_group_new(st, A(st, "TF1"), &g));
  uint64_t h0 = keel_state_hash(st);
  size_t jn0; const char *jt; CHECK_OK(keel_state_journal(st, &jt, &jn0));
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_add_hits(st, bb, 4));
  CHECK_OK(keel_state_group_add(st, g, bb, -1));
  CHECK_OK(keel_state_set_owner(st, 77, A(st, "Axis")));
  int32_t extra;
  CHECK_OK(keel_state_unit_new(st, A(st, "LC"), A(st, "LC"), 0, &extra));
  CHECK_OK(keel_state_set_value(st, bb, A(st, "new"), I(1)));
  CHECK(keel_state_hash(st) != h0);
  CHECK_OK(keel_state_rollback(st, &m));
  CHECK(keel_state_hash(st) == h0);
  CHECK(keel_state_hash_full(st) == h0);
  CHECK_INT(keel_state_count_units(st), 1);
  CHECK_INT(keel_state_group_count_units(st, g), 0);
  CHECK_INT(keel_state_get_owner(st, 77), 0);
  size_t jn; CHECK_OK(keel_state_journal(st, &jt, &jn));
  CHECK_INT(jn, jn0);
  keel_state_free(st);
}

/* The journal is rendered from the events when asked for: asking midway, then
 * rolling back and changing again, gives the text of a journal asked for
 * only at the end (the same changes without the rolled-back ones). */
static void journal_script(keel_state *st, int peek, char **copy, size_t *copy_len) {
  const char *j; size_t n;
  int32_t bb = ship(st, "Hood", "BC", 4);
  CHECK_OK(keel_state_journal_append(st, "{\"ev\":\"note\"}", 13));
  if (peek) CHECK_OK(keel_state_journal(st, &j, &n));
  CHECK_OK(keel_state_action_begin(st, "fire", "{\"at\":1}"));
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_add_hits(st, bb, 3));
  CHECK_OK(keel_state_journal_append(st, "{\"ev\":\"gone\"}", 13));
  if (peek) { CHECK_OK(keel_state_journal(st, &j, &n)); CHECK(strstr(j, "gone") != NULL); }
  CHECK_OK(keel_state_rollback(st, &m));
  if (peek) { CHECK_OK(keel_state_journal(st, &j, &n)); CHECK(strstr(j, "gone") == NULL); }
  CHECK_OK(keel_state_add_hits(st, bb, 1));
  CHECK_OK(keel_state_action_end(st));
  CHECK_OK(keel_state_undo(st, 1));
  if (peek) CHECK_OK(keel_state_journal(st, &j, &n));
  CHECK_OK(keel_state_redo(st, 1));
  CHECK_OK(keel_state_journal(st, &j, &n));
  *copy = malloc(n + 1);
  memcpy(*copy, j, n);
  (*copy)[n] = '\0';
  *copy_len = n;
}

/* A roll's line is written from its fields (journal.c), numbers by the
 * JSON writer's own decimal form, and goes with a rollback like any line. */
TEST(journal_roll_line) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int64_t faces[3] = { 6, 1, 4 };
  keel_roll_line r = { .stream = "default", .stream_len = 7, .expr = "3d6-2", .expr_len = 5,
                       .faces = faces, .count = 3, .modifier = -2, .total = 9, .forced = 0, .n = 12 };
  CHECK_OK(keel_state_journal_roll(st, &r));             /* no rule in force: null */
  keel_atom rule;
  CHECK_OK(keel_state_intern(st, "27.A.3", 6, &rule));
  CHECK_OK(keel_state_push_rule(st, rule));
  r.reason = "a \"why\"\n"; r.reason_len = 8;
  CHECK_OK(keel_state_journal_roll(st, &r));             /* the rule in force */
  r.rule = "32.B"; r.rule_len = 4; r.forced = 1;
  r.modifier = INT64_MIN; r.total = INT64_MAX; r.n = UINT64_MAX; r.count = 0;
  CHECK_OK(keel_state_journal_roll(st, &r));
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_journal_roll(st, &r));
  CHECK_OK(keel_state_rollback(st, &m));
  keel_state_journal_enable(st, 0);
  CHECK_OK(keel_state_journal_roll(st, &r));
  keel_state_journal_enable(st, 1);
  r.stream = NULL;
  CHECK_INT(keel_state_journal_roll(st, &r), KEEL_E_ARG);
  const char *j; size_t n;
  CHECK_OK(keel_state_journal(st, &j, &n));
  const char *want =
    "{\"ev\":\"roll\",\"rule\":null,\"reason\":null,\"stream\":\"default\",\"expr\":\"3d6-2\","
    "\"faces\":[6,1,4],\"modifier\":-2,\"total\":9,\"forced\":false,\"n\":12}\n"
    "{\"ev\":\"roll\",\"rule\":\"27.A.3\",\"reason\":\"a \\\"why\\\"\\n\",\"stream\":\"default\",\"expr\":\"3d6-2\","
    "\"faces\":[6,1,4],\"modifier\":-2,\"total\":9,\"forced\":false,\"n\":12}\n"
    "{\"ev\":\"roll\",\"rule\":\"32.B\",\"reason\":\"a \\\"why\\\"\\n\",\"stream\":\"default\",\"expr\":\"3d6-2\","
    "\"faces\":[],\"modifier\":-9223372036854775808,\"total\":9223372036854775807,\"forced\":true,"
    "\"n\":18446744073709551615}\n";
  CHECK(strcmp(j, want) == 0);
  keel_state_free(st);
}

TEST(journal_rendered_when_asked) {
  keel_state *a, *b;
  CHECK_OK(keel_state_new(&a));
  CHECK_OK(keel_state_new(&b));
  char *ja, *jb; size_t na, nb;
  journal_script(a, 1, &ja, &na);
  journal_script(b, 0, &jb, &nb);
  CHECK_INT(na, nb);
  CHECK(strcmp(ja, jb) == 0);
  CHECK(strstr(ja, "gone") == NULL);
  CHECK(strstr(ja, "{\"ev\":\"action\",\"action\":1,\"name\":\"fire\",\"rule\":null,\"order\":{\"at\":1}}\n") != NULL);
  CHECK(strstr(ja, "{\"ev\":\"redo\",\"n\":1,\"actions\":[1],\"hash\":\"") != NULL);
  CHECK_INT(keel_state_journal_append(a, "two\nlines", 9), KEEL_E_ARG);
  CHECK_OK(keel_state_journal_clear(a));
  const char *j; size_t n;
  CHECK_OK(keel_state_journal(a, &j, &n));
  CHECK_INT(n, 0);
  free(ja);
  free(jb);
  keel_state_free(a);
  keel_state_free(b);
}

/* What is computed from the owners (a cost map) is kept while the owner
 * version stands: every owner change moves it, and so do a rollback, an
 * undo and a redo of one; nothing else does, and it never comes back. */
TEST(state_owner_version) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom axis = A(st, "Axis");
  uint64_t v0 = keel_state_get_owner_version(st);
  CHECK_OK(keel_state_set_owner(st, 77, axis));
  uint64_t v1 = keel_state_get_owner_version(st);
  CHECK(v1 != v0);
  CHECK_OK(keel_state_set_owner(st, 77, axis));            /* no change, same version */
  CHECK(keel_state_get_owner_version(st) == v1);
  CHECK_OK(keel_state_set_global(st, A(st, "turn"), I(2)));  /* not an owner */
  CHECK(keel_state_get_owner_version(st) == v1);
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_set_owner(st, 77, A(st, "Allied")));
  uint64_t v2 = keel_state_get_owner_version(st);
  CHECK_OK(keel_state_rollback(st, &m));
  uint64_t v3 = keel_state_get_owner_version(st);
  CHECK_INT(keel_state_get_owner(st, 77), axis);
  CHECK(v2 != v1 && v3 != v2 && v3 != v1);                 /* back to Axis, a new version */
  CHECK_OK(keel_state_action_begin(st, "take", NULL));
  CHECK_OK(keel_state_set_owner(st, 78, axis));
  CHECK_OK(keel_state_action_end(st));
  uint64_t v4 = keel_state_get_owner_version(st);
  CHECK_OK(keel_state_undo(st, 1));
  uint64_t v5 = keel_state_get_owner_version(st);
  CHECK_INT(keel_state_get_owner(st, 78), 0);
  CHECK_OK(keel_state_redo(st, 1));
  uint64_t v6 = keel_state_get_owner_version(st);
  CHECK_INT(keel_state_get_owner(st, 78), axis);
  CHECK(v4 != v3 && v5 != v4 && v6 != v5 && v6 != v4);
  keel_state_free(st);
}

/* What is worked out from the state is kept while its version stands: any
 * change moves it (owners too), and so do a rollback, an undo and a redo;
 * a read or a set to the same value does not, and it never comes back. */
TEST(state_version) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  uint64_t v0 = keel_state_get_version(st);
  int32_t bb = ship(st, "Rodney", "BB", 5);
  uint64_t v1 = keel_state_get_version(st);
  CHECK(v1 != v0);
  CHECK_OK(keel_state_set_global(st, A(st, "turn"), I(2)));
  uint64_t v2 = keel_state_get_version(st);
  CHECK(v2 != v1);
  CHECK_OK(keel_state_set_global(st, A(st, "turn"), I(2)));   /* no change, same version */
  CHECK(keel_state_get_version(st) == v2);
  (void)keel_state_get_global(st, A(st, "turn"));               /* a read */
  CHECK(keel_state_get_version(st) == v2);
  CHECK_OK(keel_state_set_owner(st, 77, A(st, "Axis")));
  uint64_t v3 = keel_state_get_version(st);
  CHECK(v3 != v2);
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_add_hits(st, bb, 1));
  uint64_t v4 = keel_state_get_version(st);
  CHECK_OK(keel_state_rollback(st, &m));
  uint64_t v5 = keel_state_get_version(st);
  CHECK(v4 != v3 && v5 != v4 && v5 != v3);                 /* back as it was, a new version */
  CHECK_OK(keel_state_action_begin(st, "mark", NULL));
  CHECK_OK(keel_state_set_global(st, A(st, "turn"), I(3)));
  CHECK_OK(keel_state_action_end(st));
  uint64_t v6 = keel_state_get_version(st);
  CHECK_OK(keel_state_undo(st, 1));
  uint64_t v7 = keel_state_get_version(st);
  CHECK_OK(keel_state_redo(st, 1));
  uint64_t v8 = keel_state_get_version(st);
  CHECK(v6 != v5 && v7 != v6 && v8 != v7 && v8 != v6);
  keel_state_free(st);
}

TEST(state_undo_redo) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t bb = ship(st, "Rodney", "BB", 5);
  uint64_t h[4];
  h[0] = keel_state_hash(st);
  for (int i = 1; i <= 3; i++) {
    CHECK_OK(keel_state_action_begin(st, "hit", NULL));
    CHECK_OK(keel_state_add_hits(st, bb, 1));
    int32_t nu;
    CHECK_OK(keel_state_unit_new(st, A(st, "x"), 0, 0, &nu));
    CHECK_OK(keel_state_action_end(st));
    h[i] = keel_state_hash(st);
  }
  CHECK_INT(keel_state_count_actions(st), 3);
  CHECK_OK(keel_state_undo(st, 2));
  CHECK(keel_state_hash(st) == h[1]);
  CHECK_INT(keel_state_count_units(st), 2);
  CHECK_OK(keel_state_redo(st, 1));
  CHECK(keel_state_hash(st) == h[2]);
  CHECK(keel_state_hash_full(st) == h[2]);
  CHECK_OK(keel_state_undo(st, 2));
  CHECK(keel_state_hash(st) == h[0]);
  CHECK_INT(keel_state_undo(st, 1), KEEL_E_RANGE);
  CHECK_OK(keel_state_redo(st, 3));
  CHECK(keel_state_hash(st) == h[3]);
  CHECK(journal_has(st, "{\"ev\":\"undo\",\"n\":2,\"actions\":[3,2],"));
  /* a new action clears redo */
  CHECK_OK(keel_state_undo(st, 1));
  CHECK_OK(keel_state_action_begin(st, "other", "{\"x\":1}"));
  CHECK_INT(keel_state_undo(st, 1), KEEL_E_STATE);
  CHECK_OK(keel_state_action_end(st));
  CHECK_INT(keel_state_count_redos(st), 0);
  keel_state_free(st);
}

/* an action that changed nothing (a roll that missed) undoes and redoes too */
TEST(state_undo_empty_action) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  uint64_t h = keel_state_hash(st);
  CHECK_OK(keel_state_action_begin(st, "miss", NULL));
  CHECK_OK(keel_state_action_end(st));
  CHECK_OK(keel_state_undo(st, 1));
  CHECK(keel_state_hash(st) == h);
  CHECK_OK(keel_state_redo(st, 1));
  CHECK_INT(keel_state_count_actions(st), 1);
  keel_state_free(st);
}

/* serve-13: an action ended inside a transaction that is rolled back
 * leaves what could be redone as it was (keel serve takes back an order
 * whose response cannot be written) */
TEST(state_rollback_keeps_redo) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t bb = ship(st, "Rodney", "BB", 5);
  for (int i = 0; i < 2; i++) {
    CHECK_OK(keel_state_action_begin(st, "hit", NULL));
    CHECK_OK(keel_state_add_hits(st, bb, 1));
    CHECK_OK(keel_state_action_end(st));
  }
  CHECK_OK(keel_state_undo(st, 2));
  uint64_t h = keel_state_hash(st);
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  CHECK_OK(keel_state_action_begin(st, "flip", NULL));
  CHECK_OK(keel_state_add_hits(st, bb, 3));
  CHECK_OK(keel_state_action_end(st));
  CHECK_INT(keel_state_count_redos(st), 0);
  CHECK_OK(keel_state_rollback(st, &m));
  CHECK(keel_state_hash(st) == h);
  CHECK_INT(keel_state_count_actions(st), 0);
  CHECK_INT(keel_state_count_redos(st), 2);
  CHECK_OK(keel_state_redo(st, 2));
  keel_unit_info u;
  CHECK_OK(keel_state_get_unit(st, bb, &u));
  CHECK_INT(u.hits, 2);
  keel_state_free(st);
}

TEST(state_groups_order_hash) {
  keel_state *a, *b;
  CHECK_OK(keel_state_new(&a));
  CHECK_OK(keel_state_new(&b));
  int32_t ga, gb;
  for (int i = 0; i < 3; i++) { ship(a, "s", "DD", 1); ship(b, "s", "DD", 1); }
  CHECK_OK(keel_state_group_new(a, A(a, "TF"), &ga));
  CHECK_OK(keel_state_group_new(b, A(b, "TF"), &gb));
  CHECK_OK(keel_state_group_add(a, ga, 1, -1));
  CHECK_OK(keel_state_group_add(a, ga, 2, -1));
  CHECK_OK(keel_state_group_add(a, ga, 3, -1));
  CHECK_OK(keel_state_group_add(b, gb, 3, -1));
  CHECK_OK(keel_state_group_add(b, gb, 1, 0));
  CHECK_OK(keel_state_group_add(b, gb, 2, 1));
  CHECK(keel_state_hash(a) == keel_state_hash(b));
  CHECK_INT(keel_state_group_at_unit(b, gb, 1), 2);
  CHECK_INT(keel_state_group_add(b, gb, 2, -1), KEEL_E_DUPLICATE);
  CHECK_OK(keel_state_group_remove(b, gb, 2));
  CHECK_OK(keel_state_group_add(b, gb, 2, 2));   /* 1 3 2: another order */
  CHECK(keel_state_hash(a) != keel_state_hash(b));
  CHECK(keel_state_hash(b) == keel_state_hash_full(b));
  keel_state_free(a);
  keel_state_free(b);
}

TEST(state_cargo_and_eliminate) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t cv = ship(st, "Illustrious", "CV", 3);
  CHECK_OK(keel_state_set_value(st, cv, A(st, "capacity.planes"), I(2)));
  int32_t p1 = ship(st, "Swordfish", "air", 1);
  ship(st, "Fulmar", "air", 1);
  int32_t p3 = ship(st, "Martlet", "air", 1);
  for (int32_t p = p1; p <= p3; p++) {
    CHECK_OK(keel_state_set_value(st, p, A(st, "size.planes"), I(1)));
    CHECK_OK(keel_state_move(st, p, (keel_loc){ KEEL_LOC_UNIT, cv }));
  }
  CHECK_INT(keel_state_move(st, cv, (keel_loc){ KEEL_LOC_UNIT, p1 }), KEEL_E_ARG);   /* loop */
  keel_cargo_report rep;
  int32_t ex[4];
  CHECK_OK(keel_state_cargo_check(st, &cv, 1, "planes", &rep, ex, 4));
  CHECK_INT(rep.capacity, 2);
  CHECK_INT(rep.used, 3);
  CHECK_INT(rep.excess_n, 1);
  CHECK_INT(ex[0], p3);
  CHECK_OK(keel_state_eliminate(st, cv));
  keel_unit_info u;
  for (int32_t p = cv; p <= p3; p++) {
    CHECK_OK(keel_state_get_unit(st, p, &u));
    CHECK_INT(u.loc.kind, KEEL_LOC_DEAD);
  }
  keel_state_free(st);
}

TEST(state_split_combine) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t lc = ship(st, "LC", "LC", 1);
  CHECK_OK(keel_state_set(st, lc, KEEL_F_POINTS, 5));
  CHECK_OK(keel_state_move(st, lc, (keel_loc){ KEEL_LOC_HEX, 42 }));
  int32_t part;
  CHECK_OK(keel_state_split(st, lc, 2, &part));
  keel_unit_info u;
  CHECK_OK(keel_state_get_unit(st, part, &u));
  CHECK_INT(u.points, 2);
  CHECK_INT(u.loc.kind, KEEL_LOC_HEX);
  CHECK_INT(u.loc.where, 42);
  CHECK_OK(keel_state_get_unit(st, lc, &u));
  CHECK_INT(u.points, 3);
  CHECK_INT(keel_state_split(st, lc, 3, &part), KEEL_E_ARG);
  CHECK_OK(keel_state_combine(st, lc, part));
  CHECK_OK(keel_state_get_unit(st, lc, &u));
  CHECK_INT(u.points, 5);
  CHECK_OK(keel_state_reduce_points(st, lc, 1));
  CHECK_INT(keel_state_reduce_points(st, lc, 9), KEEL_E_ARG);
  keel_state_free(st);
}

static keel_state *sample(void) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  int32_t bb = ship(st, "Warspite \"old lady\"\n", "BB", 5);
  int32_t nt = ship(st, "NT", "NT", 1);
  CHECK_OK(keel_state_set_value(st, nt, A(st, "capacity.RE"), I(1)));
  int32_t inf = ship(st, "5 Mtn", "inf", 1);
  CHECK_OK(keel_state_move(st, inf, (keel_loc){ KEEL_LOC_UNIT, nt }));
  CHECK_OK(keel_state_move(st, nt, (keel_loc){ KEEL_LOC_UNIT, bb }));   /* nested */
  CHECK_OK(keel_state_set_value(st, bb, A(st, "ratio"), F(0.1)));
  CHECK_OK(keel_state_set_value(st, bb, A(st, "slow"), (keel_value){ KEEL_V_BOOL, { 1 } }));
  CHECK_OK(keel_state_set(st, bb, KEEL_F_FACE, KEEL_FACE_DAMAGED));
  CHECK_OK(keel_state_add_marker(st, bb, A(st, "-1 Step"), 2));
  CHECK_OK(keel_state_move(st, bb, (keel_loc){ KEEL_LOC_PORT, 1234 }));
  int32_t g;
  CHECK_OK(keel_state_group_new(st, A(st, "TF \u00e9"), &g));
  CHECK_OK(keel_state_group_add(st, g, bb, -1));
  CHECK_OK(keel_state_group_add(st, g, nt, 0));
  CHECK_OK(keel_state_group_set_value(st, g, A(st, "mp"), I(20)));
  CHECK_OK(keel_state_set_global(st, A(st, "turn"), I(3)));
  CHECK_OK(keel_state_set_global(st, A(st, "suez"), S(A(st, "closed"))));
  for (int i = 0; i < 50; i++) CHECK_OK(keel_state_set_owner(st, i * 4099, A(st, i % 2 ? "Axis" : "Allied")));
  return st;
}

static keel_status load(const char *text, size_t len, keel_state **out, char **err) {
  char **meta; size_t nmeta;
  keel_status s = keel_state_load_text(text, len, out, &meta, &nmeta, err);
  keel_save_meta_free(meta, nmeta);
  return s;
}

TEST(save_round_trip) {
  keel_state *st = sample();
  const char *mk[] = { "seed", "dice" }, *mv[] = { "42", "x=1\ny=2" };
  char *text; size_t len;
  CHECK_OK(keel_state_save_text(st, mk, mv, 2, &text, &len));
  keel_state *back; char **meta; size_t nmeta; char *err;
  CHECK_OK(keel_state_load_text(text, len, &back, &meta, &nmeta, &err));
  CHECK(err == NULL);
  CHECK_INT(nmeta, 2);
  CHECK_STR(meta[3], "x=1\ny=2");
  CHECK(keel_state_hash(back) == keel_state_hash(st));
  CHECK(keel_state_hash_full(back) == keel_state_hash(st));
  char *text2; size_t len2;
  CHECK_OK(keel_state_save_text(back, mk, mv, 2, &text2, &len2));
  CHECK_INT(len2, len);
  CHECK(memcmp(text, text2, len) == 0);
  keel_save_meta_free(meta, nmeta);
  free(text2);
  keel_state_free(back);
  free(text);
  keel_state_free(st);
}

TEST(save_damaged_refused) {
  keel_state *st = sample();
  char *text; size_t len;
  CHECK_OK(keel_state_save_text(st, NULL, NULL, 0, &text, &len));
  int refused = 0, tried = 0;
  char *copy = malloc(len + 1);
  /* every truncation point */
  for (size_t cut = 0; cut < len; cut++) {
    keel_state *out; char *err;
    keel_status s = load(text, cut, &out, &err);
    tried++;
    if (s != KEEL_OK && err && out == NULL) refused++;
    free(err);
    if (s == KEEL_OK) keel_state_free(out);
  }
  /* a flipped bit in every byte */
  for (size_t i = 0; i < len; i++) {
    memcpy(copy, text, len);
    copy[i] ^= (char)(1 << (i % 8));
    keel_state *out; char *err;
    keel_status s = load(copy, len, &out, &err);
    tried++;
    if (s != KEEL_OK && err && out == NULL) refused++;
    free(err);
    if (s == KEEL_OK) keel_state_free(out);
  }
  CHECK_INT(refused, tried);
  /* wrong version */
  memcpy(copy, text, len);
  copy[10] = '7';
  keel_state *out; char *err;
  CHECK_INT(load(copy, len, &out, &err), KEEL_E_VERSION);
  CHECK(err && strstr(err, "version 7 is not supported"));
  free(err);
  free(copy);
  free(text);
  keel_state_free(st);
}

/* ---- keyed values ---- */

static keel_key K1(keel_value a) { keel_key k = { 1, { a } }; return k; }
static keel_key K2(keel_value a, keel_value b) { keel_key k = { 2, { a, b } }; return k; }
static keel_key K3(keel_value a, keel_value b, keel_value c) { keel_key k = { 3, { a, b, c } }; return k; }

static keel_value SB(keel_state *st, const char *s, size_t len) {   /* a string with any bytes */
  keel_atom a = 0;
  CHECK_OK(keel_state_intern(st, s, len, &a));
  return S(a);
}

/* Print entry i of map as "k1|k2=value" (ints as numbers, strings quoted). */
static void keyed_text(keel_state *st, keel_atom map, size_t i, char *out, size_t cap) {
  keel_key k; keel_value v;
  size_t at = 0;
  out[0] = '\0';
  CHECK_OK(keel_state_at_keyed(st, map, i, &k, &v));
  for (int j = 0; j < k.n; j++) {
    if (k.part[j].kind == KEEL_V_INT)
      at += (size_t)snprintf(out + at, cap - at, "%s%lld", j ? "|" : "", (long long)k.part[j].u.i);
    else
      at += (size_t)snprintf(out + at, cap - at, "%s'%s'", j ? "|" : "", keel_state_atom_str(st, k.part[j].u.s, NULL));
  }
  snprintf(out + at, cap - at, "=%lld", (long long)v.u.i);
}

TEST(keyed_values_order_and_errors) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom m = A(st, "zoc");
  keel_value allied = S(A(st, "Allied")), axis = S(A(st, "Axis")), a1 = S(A(st, "A1"));
  keel_key k;
  k = K2(axis, a1); CHECK_OK(keel_state_set_keyed(st, m, &k, I(1)));
  k = K2(allied, a1); CHECK_OK(keel_state_set_keyed(st, m, &k, I(2)));
  k = K1(allied); CHECK_OK(keel_state_set_keyed(st, m, &k, I(3)));
  k = K1(I(-5)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(4)));
  k = K1(I(7)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(5)));
  k = K2(I(7), I(-1)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(6)));
  k = K1(SB(st, "Allied\0x", 8)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(7)));
  k = K3(allied, a1, I(2)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(8)));
  k = K1(S(A(st, "All"))); CHECK_OK(keel_state_set_keyed(st, m, &k, I(9)));
  /* key order: integers (by value) before strings (by bytes, a prefix
   * first), a shorter key before a longer one it begins */
  static const char *const want[] = {
    "-5=4", "7=5", "7|-1=6", "'All'=9", "'Allied'=3", "'Allied'|'A1'=2", "'Allied'|'A1'|2=8",
    "'Allied'=7" /* "Allied\0x" prints as Allied */, "'Axis'|'A1'=1",
  };
  CHECK_INT(keel_state_count_keyed(st, m), 9);
  for (size_t i = 0; i < 9; i++) {
    char got[128];
    keyed_text(st, m, i, got, sizeof got);
    CHECK_STR(got, want[i]);
  }
  keel_value v;
  k = K2(allied, a1); CHECK_OK(keel_state_get_keyed(st, m, &k, &v));
  CHECK_INT(v.u.i, 2);
  k = K2(a1, allied); CHECK_OK(keel_state_get_keyed(st, m, &k, &v));
  CHECK_INT(v.kind, KEEL_V_NIL);
  k = K1(I(7)); CHECK_OK(keel_state_get_keyed(st, A(st, "other"), &k, &v));
  CHECK_INT(v.kind, KEEL_V_NIL);
  CHECK_INT(keel_state_count_keyed(st, A(st, "other")), 0);
  /* a nil value removes the key; removing a key never set changes nothing */
  uint64_t h = keel_state_hash(st);
  k = K1(I(-5)); CHECK_OK(keel_state_set_keyed(st, m, &k, NIL));
  CHECK_INT(keel_state_count_keyed(st, m), 8);
  CHECK(keel_state_hash(st) != h);
  h = keel_state_hash(st);
  k = K1(I(12345)); CHECK_OK(keel_state_set_keyed(st, m, &k, NIL));
  CHECK(keel_state_hash(st) == h);
  /* bad keys and maps */
  keel_key none = { 0, { NIL } }, four = { 4, { I(1), I(2), I(3) } };
  CHECK_INT(keel_state_set_keyed(st, m, &none, I(1)), KEEL_E_ARG);
  CHECK_INT(keel_state_set_keyed(st, m, &four, I(1)), KEEL_E_ARG);
  k = K1(F(1.5)); CHECK_INT(keel_state_set_keyed(st, m, &k, I(1)), KEEL_E_ARG);
  k = K1(NIL); CHECK_INT(keel_state_set_keyed(st, m, &k, I(1)), KEEL_E_ARG);
  char longs[300]; memset(longs, 'x', sizeof longs);
  k = K1(SB(st, longs, 256)); CHECK_INT(keel_state_set_keyed(st, m, &k, I(1)), KEEL_E_ARG);
  k = K1(SB(st, longs, 255)); CHECK_OK(keel_state_set_keyed(st, m, &k, I(1)));
  k = K1(I(1)); CHECK_INT(keel_state_set_keyed(st, 0, &k, I(1)), KEEL_E_ARG);
  CHECK_INT(keel_state_set_keyed(st, m, &k, F(0.0 / 0.0)), KEEL_E_ARG);
  CHECK_INT(keel_state_at_keyed(st, m, 99, &k, &v), KEEL_E_RANGE);
  CHECK(keel_state_hash_full(st) == keel_state_hash(st));
  CHECK(journal_has(st, "{\"ev\":\"keyed\",\"rule\":null,\"map\":\"zoc\",\"key\":[\"Allied\",\"A1\",2],\"old\":null,\"new\":8}"));
  CHECK(journal_has(st, "\"key\":[\"Allied\\u0000x\"]"));
  CHECK(journal_has(st, "\"key\":[-5],\"old\":4,\"new\":null}"));
  keel_state_free(st);
}

TEST(keyed_values_undo_hash_save) {
  keel_state *a, *b;
  CHECK_OK(keel_state_new(&a));
  CHECK_OK(keel_state_new(&b));
  /* the same keyed values set in another order, with atoms interned in
   * another order and a detour, hash the same */
  A(b, "A1"); A(b, "seen"); A(b, "Axis");
  keel_key k;
  k = K2(S(A(a, "Axis")), S(A(a, "A1"))); CHECK_OK(keel_state_set_keyed(a, A(a, "zoc"), &k, I(1)));
  k = K1(I(3)); CHECK_OK(keel_state_set_keyed(a, A(a, "seen"), &k, S(A(a, "yes"))));
  k = K1(I(3)); CHECK_OK(keel_state_set_keyed(b, A(b, "seen"), &k, F(2.5)));
  k = K1(I(3)); CHECK_OK(keel_state_set_keyed(b, A(b, "seen"), &k, S(A(b, "yes"))));
  k = K2(S(A(b, "Axis")), S(A(b, "A1"))); CHECK_OK(keel_state_set_keyed(b, A(b, "zoc"), &k, I(1)));
  CHECK(keel_state_hash(a) == keel_state_hash(b));
  CHECK(keel_state_hash_full(b) == keel_state_hash(b));
  /* a different key, map or value is a different hash */
  k = K1(I(3)); CHECK_OK(keel_state_set_keyed(b, A(b, "zoc"), &k, I(1)));
  CHECK(keel_state_hash(a) != keel_state_hash(b));
  /* rollback and undo put keyed values back; redo again */
  uint64_t h0 = keel_state_hash(a);
  keel_mark mk;
  CHECK_OK(keel_state_begin(a, &mk));
  k = K1(I(3)); CHECK_OK(keel_state_set_keyed(a, A(a, "seen"), &k, NIL));
  k = K1(I(9)); CHECK_OK(keel_state_set_keyed(a, A(a, "new map"), &k, I(9)));
  CHECK_OK(keel_state_rollback(a, &mk));
  CHECK(keel_state_hash(a) == h0);
  CHECK_INT(keel_state_count_keyed(a, A(a, "seen")), 1);
  CHECK_INT(keel_state_count_keyed(a, A(a, "new map")), 0);
  CHECK_OK(keel_state_action_begin(a, "zoc", NULL));
  k = K2(S(A(a, "Axis")), S(A(a, "A1"))); CHECK_OK(keel_state_set_keyed(a, A(a, "zoc"), &k, I(2)));
  k = K2(S(A(a, "Axis")), S(A(a, "B2"))); CHECK_OK(keel_state_set_keyed(a, A(a, "zoc"), &k, I(1)));
  CHECK_OK(keel_state_action_end(a));
  uint64_t h1 = keel_state_hash(a);
  CHECK_OK(keel_state_undo(a, 1));
  CHECK(keel_state_hash(a) == h0);
  CHECK_INT(keel_state_count_keyed(a, A(a, "zoc")), 1);
  CHECK_OK(keel_state_redo(a, 1));
  CHECK(keel_state_hash(a) == h1);
  CHECK(keel_state_hash_full(a) == h1);
  /* saved and loaded exactly, sorted by map then key */
  char *text; size_t len;
  CHECK_OK(keel_state_save_text(a, NULL, NULL, 0, &text, &len));
  CHECK(strstr(text, "keel-save 2\n") == text);
  CHECK(strstr(text, "K \"seen\" [3] \"yes\"\nK \"zoc\" [\"Axis\",\"A1\"] 2\nK \"zoc\" [\"Axis\",\"B2\"] 1\n") != NULL);
  CHECK(strstr(text, "\nend 0 0 0 0 3\n") != NULL);
  keel_state *back; char **meta; size_t nmeta; char *err;
  CHECK_OK(keel_state_load_text(text, len, &back, &meta, &nmeta, &err));
  CHECK(keel_state_hash(back) == h1);
  CHECK(keel_state_hash_full(back) == h1);
  char *text2; size_t len2;
  CHECK_OK(keel_state_save_text(back, NULL, NULL, 0, &text2, &len2));
  CHECK(len2 == len && memcmp(text, text2, len) == 0);
  free(text2);
  keel_save_meta_free(meta, nmeta);
  keel_state_free(back);
  free(text);
  keel_state_free(a);
  keel_state_free(b);
}

/* A version 1 save (no keyed values, four counts on the end line) loads. */
TEST(save_version_1_loads) {
  const char *body = "keel-save 1\nW \"turn\" 3\nend 0 0 1 0\n";
  char text[128];
  snprintf(text, sizeof text, "%schecksum %016llx\n", body,
           (unsigned long long)keel_hash_bytes(body, strlen(body)));
  keel_state *back; char **meta; size_t nmeta; char *err;
  CHECK_OK(keel_state_load_text(text, strlen(text), &back, &meta, &nmeta, &err));
  CHECK_INT(keel_state_count_globals(back), 1);
  keel_save_meta_free(meta, nmeta);
  keel_state_free(back);
  /* a K line is version 2 only */
  const char *body2 = "keel-save 1\nK \"m\" [1] 1\nend 0 0 0 0\n";
  snprintf(text, sizeof text, "%schecksum %016llx\n", body2,
           (unsigned long long)keel_hash_bytes(body2, strlen(body2)));
  CHECK_INT(keel_state_load_text(text, strlen(text), &back, &meta, &nmeta, &err), KEEL_E_PARSE);
  CHECK(err && strstr(err, "line 2: unknown line"));
  free(err);
}

TEST(file_atomic_write_and_read) {
  char dir[] = "/tmp/keel-state-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/a.save", dir);
  CHECK_OK(keel_file_write_atomic(path, "one\n", 4));
  CHECK_OK(keel_file_write_atomic(path, "two!\n", 5));
  char *data; size_t len;
  CHECK_OK(keel_file_read(path, 100, &data, &len));
  CHECK_INT(len, 5);
  CHECK(memcmp(data, "two!\n", 5) == 0);
  free(data);
  CHECK_INT(keel_file_read(path, 3, &data, &len), KEEL_E_CAPACITY);
  CHECK_INT(keel_file_read("/nonexistent/x", 3, &data, &len), KEEL_E_NOT_FOUND);
  /* a failure keeps errno: the reason a caller shows */
  char bad[300];
  snprintf(bad, sizeof bad, "%s/a.save/x", dir);
  errno = 0;
  CHECK_INT(keel_file_write_atomic(bad, "x", 1), KEEL_E_IO);
  CHECK_INT(errno, ENOTDIR);
  CHECK(strcmp(keel_file_reason(KEEL_E_IO, ENOTDIR), strerror(ENOTDIR)) == 0);
  CHECK(strcmp(keel_file_reason(KEEL_E_CAPACITY, ENOTDIR), keel_status_str(KEEL_E_CAPACITY)) == 0);
  errno = 0;
  CHECK_INT(keel_file_read(dir, 100, &data, &len), KEEL_E_IO);
  CHECK_INT(errno, EISDIR);
  unlink(path);
  rmdir(dir);
}

TEST(file_atomic_write_no_symlink_keeps_mode) {
  char dir[] = "/tmp/keel-state-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], tmp[280], target[256];
  snprintf(path, sizeof path, "%s/a.save", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  snprintf(target, sizeof target, "%s/precious", dir);
  CHECK_OK(keel_file_write_atomic(target, "keep\n", 5));
  CHECK(symlink(target, tmp) == 0);   /* planted where the temporary file goes */
  CHECK_OK(keel_file_write_atomic(path, "new\n", 4));
  char *data; size_t len;
  CHECK_OK(keel_file_read(target, 100, &data, &len));
  CHECK(len == 5 && memcmp(data, "keep\n", 5) == 0);
  free(data);
  struct stat sb;
  CHECK(lstat(path, &sb) == 0 && S_ISREG(sb.st_mode));
  CHECK(lstat(tmp, &sb) != 0);        /* no temporary file left */
  CHECK(chmod(path, 0600) == 0);
  CHECK_OK(keel_file_write_atomic(path, "again\n", 6));
  CHECK(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0600);
  unlink(path);
  unlink(target);
  rmdir(dir);
}

TEST(state_set_action_number) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  CHECK_INT(keel_state_set_action_number(st, -1), KEEL_E_ARG);
  CHECK_OK(keel_state_set_action_number(st, 26));
  CHECK_OK(keel_state_action_begin(st, "x", NULL));
  CHECK_OK(keel_state_action_end(st));
  CHECK_INT(keel_state_action_number(st), 27);   /* never reused */
  CHECK_INT(keel_state_set_action_number(st, 3), KEEL_E_STATE);
  keel_state_free(st);
}

/* An action a side gave names it in the journal; a frozen state refuses
 * every change and every action, nests, and thaws back to taking them. */
TEST(state_action_side_and_frozen) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  keel_atom axis, k;
  CHECK_OK(keel_state_intern(st, "Axis", 4, &axis));
  CHECK_OK(keel_state_intern(st, "k", 1, &k));
  CHECK_OK(keel_state_action_begin_by(st, "move", "{\"group\":1}", axis));
  CHECK_OK(keel_state_action_end(st));
  const char *j; size_t n;
  CHECK_OK(keel_state_journal(st, &j, &n));
  CHECK(strstr(j, "{\"ev\":\"action\",\"action\":1,\"name\":\"move\",\"rule\":null,\"side\":\"Axis\","
                  "\"order\":{\"group\":1}}\n") != NULL);
  uint64_t h = keel_state_hash(st);
  CHECK_OK(keel_state_set_frozen(st, 1));
  CHECK_OK(keel_state_set_frozen(st, 1));
  CHECK(keel_state_is_frozen(st));
  CHECK_INT(keel_state_set_global(st, k, I(3)), KEEL_E_FROZEN);
  CHECK_INT(keel_state_action_begin(st, "x", NULL), KEEL_E_FROZEN);
  CHECK_OK(keel_state_set_frozen(st, 0));
  CHECK_INT(keel_state_set_global(st, k, I(3)), KEEL_E_FROZEN);   /* still frozen once */
  CHECK_OK(keel_state_set_frozen(st, 0));
  CHECK(!keel_state_is_frozen(st));
  CHECK_INT(keel_state_set_frozen(st, 0), KEEL_E_STATE);
  CHECK(keel_state_hash(st) == h);
  CHECK_OK(keel_state_set_global(st, k, I(3)));
  keel_state_free(st);
}


/* one action setting a global to v */
static void act_set(keel_state *st, keel_atom k, int64_t v) {
  CHECK_OK(keel_state_action_begin(st, "set", NULL));
  CHECK_OK(keel_state_set_global(st, k, I(v)));
  CHECK_OK(keel_state_action_end(st));
}

static int64_t global_int(keel_state *st, keel_atom k) {
  keel_value v = keel_state_get_global(st, k);
  return v.kind == KEEL_V_INT ? v.u.i : -1;
}

/* undo-depth-1: at most the depth's actions stay undoable, the oldest
 * dropped (and the arrays moved down many times over); an undo past the
 * depth is refused and changes nothing; undo within it is exact */
TEST(state_undo_depth) {
  keel_state *st;
  CHECK_OK(keel_state_new(&st));
  CHECK_INT(keel_state_get_undo_depth(st), KEEL_UNDO_DEPTH);
  keel_atom k = A(st, "n");
  CHECK_OK(keel_state_set_undo_depth(st, 10));
  for (int i = 1; i <= 1000; i++) act_set(st, k, i);
  CHECK_INT(keel_state_count_actions(st), 10);
  uint64_t h = keel_state_hash(st);
  CHECK_INT(keel_state_undo(st, 11), KEEL_E_RANGE);
  CHECK_INT(keel_state_hash(st), h);
  CHECK_INT(global_int(st, k), 1000);
  CHECK_OK(keel_state_undo(st, 10));
  CHECK_INT(global_int(st, k), 990);
  CHECK_INT(keel_state_count_actions(st), 0);
  CHECK_OK(keel_state_redo(st, 10));
  CHECK_INT(global_int(st, k), 1000);
  CHECK_INT(keel_state_hash(st), h);
  CHECK_INT(keel_state_hash_full(st), h);
  /* inside a transaction nothing is dropped (its mark holds positions) */
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  for (int i = 1; i <= 30; i++) act_set(st, k, 2000 + i);
  CHECK_INT(keel_state_count_actions(st), 40);
  CHECK_INT(keel_state_set_undo_depth(st, 5), KEEL_E_STATE);
  CHECK_OK(keel_state_rollback(st, &m));
  CHECK_INT(global_int(st, k), 1000);
  CHECK_INT(keel_state_count_actions(st), 10);
  CHECK_OK(keel_state_begin(st, &m));
  for (int i = 1; i <= 30; i++) act_set(st, k, 3000 + i);
  CHECK_OK(keel_state_commit(st, &m));
  CHECK_INT(keel_state_count_actions(st), 10);   /* dropped once none is open */
  CHECK_OK(keel_state_undo(st, 10));
  CHECK_INT(global_int(st, k), 3020);
  /* a smaller depth drops at once; 0: nothing undoable */
  CHECK_OK(keel_state_redo(st, 10));
  CHECK_OK(keel_state_set_undo_depth(st, 3));
  CHECK_INT(keel_state_count_actions(st), 3);
  CHECK_OK(keel_state_set_undo_depth(st, 0));
  CHECK_INT(keel_state_count_actions(st), 0);
  act_set(st, k, 7);
  CHECK_INT(keel_state_count_actions(st), 0);
  CHECK_INT(keel_state_undo(st, 1), KEEL_E_RANGE);
  CHECK_INT(global_int(st, k), 7);
  keel_state_free(st);
}

typedef struct sink_buf { char *p; size_t n, cap; int fail; } sink_buf;
static keel_status sink_to(void *ud, const char *text, size_t len) {
  sink_buf *b = ud;
  if (b->fail) return KEEL_E_IO;
  if (b->n + len + 1 > b->cap) {
    size_t cap = (b->n + len + 1) * 2;
    char *p = realloc(b->p, cap);
    if (!p) return KEEL_E_NOMEM;
    b->p = p; b->cap = cap;
  }
  memcpy(b->p + b->n, text, len);
  b->n += len;
  b->p[b->n] = '\0';
  return KEEL_OK;
}

/* journal-stream-1: a streamed journal writes every line once, in order,
 * the same bytes as one held whole; it drops what it wrote (lines before
 * are KEEL_E_RANGE), keeps what a reader has yet to read, writes nothing
 * inside a transaction, and a failing sink loses nothing */
TEST(journal_streamed) {
  keel_state *st, *ref;
  CHECK_OK(keel_state_new(&st));
  CHECK_OK(keel_state_new(&ref));
  keel_atom k = A(st, "n"), kr = A(ref, "n");
  sink_buf b = { 0 };
  keel_state_journal_stream(st, sink_to, &b);
  for (int i = 1; i <= 20000; i++) {
    act_set(st, k, i);
    act_set(ref, kr, i);
    CHECK_OK(keel_state_journal_flush(st, 0));
  }
  size_t lines, bytes;
  CHECK_OK(keel_state_journal_count(st, &lines, &bytes));
  CHECK_INT(lines, 60000);
  CHECK(b.n > 0 && b.n < bytes);            /* written by the threshold, not all */
  const char *t;
  size_t n;
  CHECK_INT(keel_state_journal(st, &t, &n), KEEL_E_RANGE);
  CHECK_INT(keel_state_journal_since(st, 0, &t, &n), KEEL_E_RANGE);
  CHECK_INT(keel_state_journal_since(st, lines + 1, &t, &n), KEEL_E_RANGE);
  CHECK_OK(keel_state_journal_since(st, lines - 1, &t, &n));
  CHECK(n > 0 && strncmp(t, "{\"ev\":\"end\",\"action\":20000,", 27) == 0);
  /* a rollback after a flush takes back only its own lines */
  keel_mark m;
  CHECK_OK(keel_state_begin(st, &m));
  act_set(st, k, -1);
  size_t before = b.n;
  CHECK_OK(keel_state_journal_flush(st, 1));   /* inside a transaction: nothing */
  CHECK_INT(b.n, before);
  CHECK_OK(keel_state_rollback(st, &m));
  /* a failing sink: KEEL_E_IO, the lines still held, written later */
  b.fail = 1;
  CHECK_INT(keel_state_journal_flush(st, 1), KEEL_E_IO);
  CHECK_OK(keel_state_journal_since(st, lines - 1, &t, &n));
  b.fail = 0;
  CHECK_OK(keel_state_journal_flush(st, 1));
  const char *rt;
  size_t rn;
  CHECK_OK(keel_state_journal(ref, &rt, &rn));
  CHECK_INT(b.n, rn);
  CHECK(b.n == rn && memcmp(b.p, rt, rn) == 0);
  CHECK_OK(keel_state_journal_count(st, &lines, &bytes));
  CHECK_INT(bytes, rn);
  /* a reader's line stays held once written */
  keel_state_journal_keep(st, lines);
  act_set(st, k, 5);
  CHECK_OK(keel_state_journal_flush(st, 1));
  CHECK_OK(keel_state_journal_since(st, lines, &t, &n));
  CHECK(strncmp(t, "{\"ev\":\"action\",\"action\":20001,", 29) == 0);
  CHECK_INT(keel_state_journal_since(st, lines - 1, &t, &n), KEEL_E_RANGE);
  keel_state_journal_stream(st, NULL, NULL);
  CHECK_INT(keel_state_journal_flush(st, 1), KEEL_E_STATE);
  free(b.p);
  keel_state_free(st);
  keel_state_free(ref);
}

static keel_hex hex_make(int64_t q, int64_t r) {
  keel_hex h = 0;
  CHECK_OK(keel_hex_from_qr(q, r, &h));
  return h;
}

/* owner-base-1: owners from a shared base are the owners set one by one:
 * the same get_owner, count, hash (incremental and recomputed) and save
 * text; a change on top, its rollback and undo as without a base; a state
 * that already has owners refuses a base */
TEST(state_owner_base) {
  enum { N = 3000 };
  keel_hex hexes[N];
  uint8_t sides[N];
  const char *names[] = { "Axis", "Allied" };
  for (int i = 0; i < N; i++) {
    hexes[i] = hex_make(i % 60, i / 60 - 20);
    sides[i] = (uint8_t)((i / 7) % 2);
  }
  hexes[N - 1] = hexes[5];   /* a hex given again: the later side wins */
  sides[N - 1] = (uint8_t)!sides[5];
  keel_owner_base *b;
  const char *missing[] = { "Axis", "Allied", NULL };
  CHECK_INT(keel_owner_base_new(hexes, sides, N, missing, 3, &b), KEEL_E_ARG);   /* a name missing */
  sides[0] = 2;
  CHECK_INT(keel_owner_base_new(hexes, sides, N, names, 2, &b), KEEL_E_ARG);     /* a side past the names */
  sides[0] = 0;
  CHECK_OK(keel_owner_base_new(hexes, sides, N, names, 2, &b));
  CHECK_INT(keel_owner_base_count(b), N - 1);
  keel_state *st, *ref;
  CHECK_OK(keel_state_new(&st));
  CHECK_OK(keel_state_new(&ref));
  keel_atom side_ref[2] = { A(ref, "Axis"), A(ref, "Allied") };
  for (int i = 0; i < N; i++) CHECK_OK(keel_state_set_owner(ref, hexes[i], side_ref[sides[i]]));
  CHECK_OK(keel_state_set_owner_base(st, b));
  keel_owner_base_release(b);                /* the state holds its own reference */
  CHECK_INT(keel_state_count_owned(st), keel_state_count_owned(ref));
  CHECK_INT(keel_state_hash(st), keel_state_hash(ref));
  CHECK_INT(keel_state_hash_full(st), keel_state_hash(ref));
  size_t len;
  const char *name = keel_state_atom_str(st, keel_state_get_owner(st, hexes[5]), &len);
  CHECK(name && strcmp(name, names[!sides[5] ? 1 : 0]) == 0);
  CHECK_INT(keel_state_get_owner(st, hex_make(500, 500)), 0);
  char *sa, *sb;
  size_t na, nb;
  CHECK_OK(keel_state_save_text(st, NULL, NULL, 0, &sa, &na));
  CHECK_OK(keel_state_save_text(ref, NULL, NULL, 0, &sb, &nb));
  CHECK(na == nb && memcmp(sa, sb, na) == 0);
  free(sa);
  free(sb);
  /* changes on top: a base hex to nobody, to the other side, a new hex */
  keel_atom ax = A(st, "Axis");
  uint64_t h0 = keel_state_hash(st);
  CHECK_OK(keel_state_action_begin(st, "take", NULL));
  CHECK_OK(keel_state_set_owner(st, hexes[10], 0));
  CHECK_OK(keel_state_set_owner(st, hexes[20], ax));
  CHECK_OK(keel_state_set_owner(st, hex_make(500, 500), ax));
  CHECK_OK(keel_state_action_end(st));
  CHECK_OK(keel_state_action_begin(ref, "take", NULL));
  CHECK_OK(keel_state_set_owner(ref, hexes[10], 0));
  CHECK_OK(keel_state_set_owner(ref, hexes[20], side_ref[0]));
  CHECK_OK(keel_state_set_owner(ref, hex_make(500, 500), side_ref[0]));
  CHECK_OK(keel_state_action_end(ref));
  CHECK_INT(keel_state_hash(st), keel_state_hash(ref));
  CHECK_INT(keel_state_hash_full(st), keel_state_hash(ref));
  CHECK_INT(keel_state_count_owned(st), keel_state_count_owned(ref));
  CHECK_OK(keel_state_save_text(st, NULL, NULL, 0, &sa, &na));
  CHECK_OK(keel_state_save_text(ref, NULL, NULL, 0, &sb, &nb));
  CHECK(na == nb && memcmp(sa, sb, na) == 0);
  free(sa);
  free(sb);
  CHECK_OK(keel_state_undo(st, 1));
  CHECK_INT(keel_state_hash(st), h0);
  CHECK_INT(keel_state_hash_full(st), h0);
  CHECK_INT(keel_state_count_owned(st), N - 1);
  CHECK(keel_state_get_owner(st, hexes[10]) != 0);
  /* a base only on a state with no owners yet */
  CHECK_OK(keel_owner_base_new(hexes, sides, N, names, 2, &b));
  CHECK_INT(keel_state_set_owner_base(st, b), KEEL_E_STATE);
  CHECK_INT(keel_state_set_owner_base(ref, b), KEEL_E_STATE);
  keel_owner_base_release(b);
  keel_state_free(st);
  keel_state_free(ref);
}

int main(void) {
  RUN(state_units_and_fields);
  RUN(state_hash_independent_of_history);
  RUN(state_transaction_rollback);
  RUN(state_owner_version);
  RUN(state_version);
  RUN(state_undo_redo);
  RUN(state_undo_empty_action);
  RUN(state_rollback_keeps_redo);
  RUN(journal_rendered_when_asked);
  RUN(journal_roll_line);
  RUN(state_groups_order_hash);
  RUN(state_cargo_and_eliminate);
  RUN(state_split_combine);
  RUN(save_round_trip);
  RUN(save_damaged_refused);
  RUN(keyed_values_order_and_errors);
  RUN(keyed_values_undo_hash_save);
  RUN(save_version_1_loads);
  RUN(file_atomic_write_and_read);
  RUN(file_atomic_write_no_symlink_keeps_mode);
  RUN(state_set_action_number);
  RUN(state_action_side_and_frozen);
  RUN(state_undo_depth);
  RUN(journal_streamed);
  RUN(state_owner_base);
  return check_report();
}
