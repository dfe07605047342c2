/*
 * state_int.h — the inside of keel_state, shared by state.c, journal.c,
 * save.c and the binding l_state.c. Not API: nothing here is in keel.h.
 *
 * Every change is an `op` holding the old and the new value. apply() moves
 * the state along an op in either direction and updates the Zobrist hash;
 * the undo log is the array of ops applied since the outermost open
 * transaction or action began, plus the ops of the undoable actions.
 */
#ifndef KEEL_STATE_INT_H
#define KEEL_STATE_INT_H
#include "keel.h"
#include <stdio.h>

typedef struct kv { keel_atom key; keel_value v; } kv;          /* named value */
typedef struct km { keel_atom key; int64_t n; } km;             /* marker */

typedef struct atom_rec { char *s; uint32_t len; uint64_t h; } atom_rec;

typedef struct unit {
  keel_atom name, type, side;
  uint8_t face, lk;            /* keel_face, keel_loc_kind */
  uint16_t nval, capval, nmark, capmark;
  int64_t hits, points, where;
  kv *val;                     /* sorted by key text */
  km *mark;                    /* sorted by key text */
} unit;

typedef struct group {
  keel_atom name;
  uint32_t nmem, capmem;
  uint16_t nval, capval;
  int32_t *mem;
  kv *val;
} group;

enum op_kind {
  OP_UNIT_NEW, OP_UNIT_FIELD, OP_UNIT_VALUE, OP_UNIT_MARKER,
  OP_GROUP_NEW, OP_GROUP_VALUE, OP_GROUP_INSERT, OP_GROUP_REMOVE,
  OP_GLOBAL, OP_OWNER
};

/* One change. For UNIT_NEW/GROUP_NEW key is the name (and for units a.s is
 * the type, b.s the side). For FIELD/LOC old/new are in a/b (loc kinds in
 * lka/lkb). For GROUP_INSERT/REMOVE arg is the unit and pos the position. */
typedef struct op {
  uint8_t kind, field, lka, lkb;
  keel_atom rule;
  keel_atom key;
  int32_t pos;
  int64_t id;                  /* unit, group or hex */
  keel_value a, b;             /* old, new */
} op;

typedef struct action_rec {
  size_t op_start;             /* first op in ops[] */
  int64_t number;              /* action number in the journal */
  uint64_t hash_after;
} action_rec;

typedef struct redo_rec { size_t start, len; int64_t number; } redo_rec;

typedef struct own_slot { keel_hex hex; keel_atom side; uint8_t used; } own_slot;

typedef struct buf { char *p; size_t n, cap; } buf;

struct keel_state {
  /* strings */
  atom_rec *atoms; size_t natoms, capatoms;     /* atoms[0] unused */
  int32_t *atab; size_t atab_cap;               /* open addressing, 0 = empty */
  /* units, groups, globals, ownership */
  unit *units; int32_t nunits, capunits, initunits;
  group *groups; int32_t ngroups, capgroups, initgroups;
  kv *glob; size_t nglob, capglob;
  own_slot *own; size_t own_cap, own_used, own_count;
  uint64_t own_version;                         /* +1 on every owner change, either way */
  uint64_t hash;
  /* rule stack */
  keel_atom *rules; size_t nrules, caprules;
  /* undo log */
  op *ops; size_t nops, capops;
  int depth;                                    /* open transactions + action */
  int in_action;
  int action_depth;             /* depth when the open action began */
  int loose;                    /* ops recorded outside any action */
  action_rec *actions; size_t nactions, capactions;
  op *redo_ops; size_t nredo_ops, capredo_ops;
  redo_rec *redo; size_t nredo, capredo;
  int64_t action_seq;
  /* journal */
  int journal_on;
  buf journal;
};

/* state.c */
int keel__buf_reserve(buf *b, size_t extra);
keel_status keel__state_push(keel_state *st, op *o);     /* apply forward + record */
void keel__apply(keel_state *st, const op *o, int forward);
int keel__atom_cmp(const keel_state *st, keel_atom a, keel_atom b);
uint64_t keel__atom_hash(const keel_state *st, keel_atom a);

/* journal.c: JSON helpers (deterministic) */
int keel__json_str(buf *b, const char *s, size_t len);
int keel__json_atom(buf *b, const keel_state *st, keel_atom a);
int keel__json_int(buf *b, int64_t i);
int keel__json_float(buf *b, double f);
int keel__json_value(buf *b, const keel_state *st, keel_value v);
int keel__json_raw(buf *b, const char *s, size_t len);
int keel__json_hash(buf *b, uint64_t h);
const char *keel__loc_name(keel_loc_kind k);
const char *keel__field_name(keel_field f);
const char *keel__face_name(keel_face f);
/* Render one op as a journal line (appended to st->journal). */
keel_status keel__journal_op(keel_state *st, const op *o);

#endif
