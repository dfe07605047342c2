/*
 * state_int.h — the inside of keel_state: its records, the op (one change)
 * and the event (one journal line), and the private functions the state's
 * files share. Used by the state's files (state.c, atom.c, hash.c,
 * value.c, undo.c, unit.c, cargo.c, group.c, global.c, keyed.c), by the
 * writers that read a state (journal.c, save.c) and by its binding
 * l_state.c. Not API: nothing here is in keel.h.
 *
 * Every change is an `op` holding the old and the new value. The file that
 * owns a kind of op prepares it (reserves memory, so applying never fails)
 * and applies it in either direction, updating the Zobrist hash (hash.c);
 * undo.c records it: in the undo log while a transaction or action is
 * open, and as an event for the journal (journal.c renders events; the
 * state never calls the journal).
 */
#ifndef KEEL_STATE_INT_H
#define KEEL_STATE_INT_H
#include "keel.h"

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
  uint32_t nmem;
  uint16_t nval, capval;
  size_t capmem;
  int32_t *mem;
  kv *val;
} group;

enum op_kind {
  OP_UNIT_NEW, OP_UNIT_FIELD, OP_UNIT_VALUE, OP_UNIT_MARKER,
  OP_GROUP_NEW, OP_GROUP_VALUE, OP_GROUP_INSERT, OP_GROUP_REMOVE,
  OP_GLOBAL, OP_OWNER, OP_KEYED
};

/* One change. For UNIT_NEW/GROUP_NEW key is the name (and for units a.s is
 * the type, b.s the side). For FIELD/LOC old/new are in a/b (loc kinds in
 * lka/lkb). For GROUP_INSERT/REMOVE a is the unit and pos the position.
 * For KEYED id is the map and key the encoded key. */
typedef struct op {
  uint8_t kind, field, lka, lkb;
  keel_atom rule;
  keel_atom key;
  int32_t pos;
  int64_t id;                  /* unit, group or hex */
  keel_value a, b;             /* old, new */
} op;

/* One journal line, as the state records it (journal.c renders it). Text
 * (names, orders, whole lines, action numbers) lives in the state's event
 * text, at byte offsets. */
enum ev_kind { EV_OP, EV_ACTION, EV_END, EV_UNDO, EV_REDO, EV_LINE, EV_ROLL };
typedef struct event {
  uint8_t kind;
  union {
    op o;                                                   /* EV_OP */
    struct { int64_t number; keel_atom rule, side; int has_order;
             size_t name, name_len, order, order_len; } action;   /* EV_ACTION (side 0: none) */
    struct { int64_t number; uint64_t hash; } end;               /* EV_END */
    struct { uint64_t hash; size_t numbers, n; } undo;           /* EV_UNDO/REDO: n int64 */
    struct { size_t at, len; } line;                             /* EV_LINE */
    /* EV_ROLL (journal.c): at `at` in the text the rule (unless rule_len is
     * ROLL_NO_TEXT: then the atom `rule`), the reason (none: ROLL_NO_TEXT),
     * the stream, the expression, then `count` faces as int64 */
    struct { size_t at; uint32_t rule_len, reason_len; keel_atom rule;
             uint8_t stream_len, expr_len, count, forced; int64_t modifier, total; uint64_t n; } roll;
  } u;
} event;

typedef struct action_rec {
  size_t op_start;             /* first op in ops[] */
  int64_t number;              /* action number in the journal */
  uint64_t hash_after;
} action_rec;

typedef struct redo_rec { size_t start, len; int64_t number; } redo_rec;

typedef struct own_slot { keel_hex hex; keel_atom side; uint8_t used; } own_slot;

/* A keyed map: its name and its entries, sorted by encoded key (keyed.c). */
typedef struct keyed_map { keel_atom name; kv *e; size_t n, cap; } keyed_map;

/* The index of units by location, kind of location and side, and of the
 * groups of each unit (index.c): not state, never hashed, journaled or saved. */
typedef struct keel__ibucket { uint8_t used, tag; uint32_t n; int64_t where; int32_t *ids; size_t cap; } keel__ibucket;
typedef struct keel__igroups { int32_t *ids; uint32_t n, cap; } keel__igroups;

struct keel_state {
  /* atoms (atom.c) */
  atom_rec *atoms; size_t natoms, capatoms;     /* atoms[0] unused */
  int32_t *atab; size_t atab_cap;               /* open addressing, 0 = empty */
  /* units (unit.c), groups (group.c), globals and ownership (global.c) */
  unit *units; int32_t nunits, initunits; size_t capunits;
  group *groups; int32_t ngroups, initgroups; size_t capgroups;
  kv *glob; size_t nglob, capglob;
  own_slot *own; size_t own_cap, own_used, own_count;   /* the owners set: those that differ from base */
  struct keel_owner_base *own_base;             /* shared owners under them (global.c), or NULL */
  keel_atom *base_atoms;                        /* the state's atom of each of base's sides */
  uint64_t own_version;                         /* +1 on every owner change, either way */
  uint64_t version;                             /* +1 on every change of any kind, either way (undo.c) */
  keyed_map *maps; size_t nmaps, capmaps;       /* keyed.c, sorted by name */
  /* the index (index.c): buckets of unit ids (open addressing), and per unit its groups */
  keel__ibucket *ix; size_t ix_cap, ix_used;
  keel__igroups *ix_groups; size_t ix_ngroups, ix_capgroups;
  uint64_t hash;                                /* hash.c */
  /* rule stack, undo log, transactions, actions (undo.c) */
  keel_atom *rules; size_t nrules, caprules;
  op *ops; size_t nops, capops;
  int depth;                                    /* open transactions + action */
  int in_action;
  int action_depth;             /* depth when the open action began */
  int loose;                    /* ops recorded outside any action */
  int frozen;                   /* > 0: every change refused (keel_state_set_frozen) */
  action_rec *actions; size_t nactions, capactions;
  size_t afirst;                /* actions[afirst..nactions) are undoable; those before it
                                   are past the undo depth, dropped at depth 0 (undo.c) */
  size_t undo_depth;            /* at most this many actions undoable (keel_state_set_undo_depth) */
  op *redo_ops; size_t nredo_ops, capredo_ops;
  redo_rec *redo; size_t nredo, capredo;
  int64_t action_seq;
  /* events for the journal (undo.c records, journal.c renders) */
  int journal_on;
  event *events; size_t nevents, capevents;
  char *etext; size_t netext, capetext;
  size_t events_cut;            /* lowest nevents since journal.c last rendered */
  /* the rendered journal (journal.c only). Lines are numbered from 0 for
   * the whole game; a streamed journal (keel_state_journal_stream) drops
   * what it wrote, so the arrays hold a window of them. */
  char *jtext; size_t njtext, capjtext;         /* the lines held, from line lbase */
  size_t *jstart; size_t capjstart;             /* byte offset in jtext of line lbase + i */
  size_t jdone;                                 /* events rendered */
  size_t ebase;                                 /* the line of events[0] */
  size_t lbase;                                 /* the first line held in jtext */
  size_t bbase;                                 /* the journal byte of jtext[0] */
  size_t jwritten;                              /* lines written to the sink */
  size_t jkeep;                                 /* lines from jkeep on are held once written */
  keel_journal_sink sink; void *sink_ud;
};

#define UNIT_OK(st, id) ((id) >= 1 && (id) <= (st)->nunits)
#define GROUP_OK(st, id) ((id) >= 1 && (id) <= (st)->ngroups)

static inline keel_value keel__vint(int64_t i) { keel_value v = { KEEL_V_INT, { 0 } }; v.u.i = i; return v; }
static inline keel_value keel__vatom(keel_atom a) { keel_value v = { KEEL_V_STR, { 0 } }; v.u.s = a; return v; }
#define KEEL_NIL ((keel_value){ KEEL_V_NIL, { 0 } })

/* atom.c */
int keel__atom_ok(const keel_state *st, keel_atom a);            /* 0 (none) or interned */
int keel__atom_cmp(const keel_state *st, keel_atom a, keel_atom b);   /* by text */

/* hash.c: Zobrist facts. Each fact of the state is one 64-bit key; the
 * state hash is their XOR. String facts hash the text, never the atom id. */
enum fact_tag {
  T_NAME = 1, T_TYPE, T_SIDE, T_FACE, T_HITS, T_POINTS, T_LOC, T_VALUE, T_MARKER,
  T_GNAME, T_GVALUE, T_GLINK, T_GLOBAL, T_OWNER, T_KEYED
};
uint64_t keel__mix(uint64_t x);                                   /* splitmix64 finalizer */
uint64_t keel__atom_hash(const keel_state *st, keel_atom a);      /* of the text; 0 for none */
uint64_t keel__fact(uint64_t tag, uint64_t a, uint64_t b, uint64_t c);
uint64_t keel__loc_hash(int lk, int64_t where);
/* XOR in or out one named-value fact (nothing for nil). */
void keel__hash_kv(keel_state *st, uint64_t tag, uint64_t id, keel_atom key, keel_value v);
/* XOR in or out the fixed fields of unit id (not its values and markers). */
void keel__unit_facts(keel_state *st, int32_t id);
/* The fact "in group g, next follows prev" (0: the list's ends). */
uint64_t keel__glink(int32_t g, int32_t prev, int32_t next);

/* value.c: named values (kv arrays sorted by key text) of units, groups
 * and the game; the ops OP_UNIT_VALUE, OP_GROUP_VALUE, OP_GLOBAL. */
int keel__value_ok(const keel_state *st, keel_value v);
int keel__value_eq(keel_value a, keel_value b);
int keel__key_find(const keel_state *st, const void *arr, size_t stride, size_t n, keel_atom key, size_t *at);
keel_value keel__kv_get(const keel_state *st, const kv *arr, size_t n, keel_atom key);
/* Set (v non-nil) or remove; capacity must allow one more; the new count. */
size_t keel__kv_put(const keel_state *st, kv *arr, size_t n, keel_atom key, keel_value v);
size_t keel__km_put(const keel_state *st, km *arr, size_t n, keel_atom key, int64_t c);
keel_status keel__value_get(const keel_state *st, int kind, int64_t id, keel_atom key, keel_value *out);
keel_status keel__value_set(keel_state *st, int kind, int64_t id, keel_atom key, keel_value v);
size_t keel__value_count(const keel_state *st, int kind, int64_t id);
keel_status keel__value_at(const keel_state *st, int kind, int64_t id, size_t i, keel_atom *key, keel_value *v);
int keel__value_prepare(keel_state *st, const op *o);
void keel__value_apply(keel_state *st, const op *o, int forward);

/* unit.c, group.c, global.c: their ops */
int keel__unit_prepare(keel_state *st, const op *o);
void keel__unit_apply(keel_state *st, const op *o, int forward);
int keel__group_prepare(keel_state *st, const op *o);
void keel__group_apply(keel_state *st, const op *o, int forward);
int keel__owner_prepare(keel_state *st, const op *o);
void keel__owner_apply(keel_state *st, const op *o, int forward);
int keel__keyed_prepare(keel_state *st, const op *o);
void keel__keyed_apply(keel_state *st, const op *o, int forward);

/* global.c: the hexes owned (every one, base's included), n = own_count
 * of them in out; the XOR of base's owner facts under the set owners. */
size_t keel__owned(const keel_state *st, own_slot *out);
uint64_t keel__owner_base_hash(const keel_state *st);

/* keyed.c: an encoded key's parts; string parts are unescaped into buf
 * (KEEL_KEY_BYTES) and point into it. */
#define KEEL_KEY_BYTES (KEEL_KEY_MAX * (2 * KEEL_KEY_STR_MAX + 3))
typedef struct keel__key_part { int is_str; int64_t i; const char *s; size_t len; } keel__key_part;
keel_status keel__keyed_decode(const keel_state *st, keel_atom key, keel__key_part *parts, int *n, char *buf);

/* index.c: the index, kept by the ops of unit.c (new, location, side) and
 * group.c (insert, remove); prepare reserves what the forward direction
 * needs (0: out of memory), the others never allocate. */
int keel__index_prepare_unit(keel_state *st, int32_t id, int lk, int64_t where, keel_atom side);
void keel__index_unit(keel_state *st, int32_t id, int lk, int64_t where, keel_atom side, int add);
int keel__index_prepare_loc(keel_state *st, int lk, int64_t where);
void keel__index_loc(keel_state *st, int32_t id, int lkf, int64_t from, int lkt, int64_t to);
int keel__index_prepare_side(keel_state *st, keel_atom side);
void keel__index_side(keel_state *st, int32_t id, keel_atom from, keel_atom to);
int keel__index_prepare_join(keel_state *st, int32_t uid);
void keel__index_join(keel_state *st, int32_t gid, int32_t uid, int add);
void keel__index_free(keel_state *st);
size_t keel__index_memory(const keel_state *st);

/* undo.c */
keel_status keel__state_push(keel_state *st, op *o);     /* prepare, record, apply forward */
void keel__apply(keel_state *st, const op *o, int forward);
/* Record an event (when the journal is on); text bytes go to the event text
 * first, their offset in *at. */
keel_status keel__event_add(keel_state *st, const event *e);
keel_status keel__event_text(keel_state *st, const void *p, size_t len, size_t *at);

/* save.c: the save text appended to b (l_state.c writes into its scratch buffer) */
struct keel__buf;
keel_status keel__state_save_buf(const keel_state *st, const char *const *mk, const char *const *mv,
                                 size_t nmeta, struct keel__buf *b);

/* journal.c: names of enum values as the journal and the binding print them */
const char *keel__loc_name(keel_loc_kind k);
const char *keel__field_name(keel_field f);
const char *keel__face_name(keel_face f);

#endif
