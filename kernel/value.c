/*
 * value.c — named values: the keel_value checks, and arrays of records
 * kept sorted by key text (the named values of units, groups and the game,
 * the markers of units). It owns the ops that set a named value
 * (OP_UNIT_VALUE, OP_GROUP_VALUE, OP_GLOBAL): recording, preparing and
 * applying them.
 */
#include "array.h"
#include "state_int.h"
#include <math.h>
#include <string.h>

int keel__value_ok(const keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_NIL: return 1;
  case KEEL_V_BOOL: return v.u.i == 0 || v.u.i == 1;
  case KEEL_V_INT: return 1;
  case KEEL_V_FLOAT: return isfinite(v.u.f);
  case KEEL_V_STR: return v.u.s > 0 && (size_t)v.u.s < st->natoms;
  default: return 0;
  }
}

int keel__value_eq(keel_value a, keel_value b) {
  if (a.kind != b.kind) return 0;
  switch (a.kind) {
  case KEEL_V_NIL: return 1;
  case KEEL_V_FLOAT: return a.u.f == b.u.f;
  case KEEL_V_STR: return a.u.s == b.u.s;
  default: return a.u.i == b.u.i;
  }
}

/* ---- sorted arrays of records that begin with their key ------------------ */

int keel__key_find(const keel_state *st, const void *arr, size_t stride, size_t n,
                   keel_atom key, size_t *at) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    keel_atom k;
    memcpy(&k, (const char *)arr + mid * stride, sizeof k);
    int c = keel__atom_cmp(st, k, key);
    if (c == 0) { *at = mid; return 1; }
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  *at = lo;
  return 0;
}

/* Put the record rec (stride bytes, beginning with its key) in its place in
 * a sorted array of n, replacing the one with its key; with remove, take
 * that one out instead. Capacity must already allow one more. Returns the
 * new count. */
static size_t key_put(const keel_state *st, void *arr, size_t stride, size_t n,
                      const void *rec, int remove) {
  char *a = arr;
  keel_atom key;
  memcpy(&key, rec, sizeof key);
  size_t at;
  int found = keel__key_find(st, arr, stride, n, key, &at);
  if (remove) {
    if (found) { memmove(a + at * stride, a + (at + 1) * stride, (n - at - 1) * stride); n--; }
  } else {
    if (!found) { memmove(a + (at + 1) * stride, a + at * stride, (n - at) * stride); n++; }
    memcpy(a + at * stride, rec, stride);
  }
  return n;
}

keel_value keel__kv_get(const keel_state *st, const kv *arr, size_t n, keel_atom key) {
  size_t at;
  if (key && keel__key_find(st, arr, sizeof *arr, n, key, &at)) return arr[at].v;
  return KEEL_NIL;
}

size_t keel__kv_put(const keel_state *st, kv *arr, size_t n, keel_atom key, keel_value v) {
  kv rec = { key, v };
  return key_put(st, arr, sizeof rec, n, &rec, v.kind == KEEL_V_NIL);
}

size_t keel__km_put(const keel_state *st, km *arr, size_t n, keel_atom key, int64_t c) {
  km rec = { key, c };
  return key_put(st, arr, sizeof rec, n, &rec, c == 0);
}

/* ---- the named values of a unit, a group or the game ------------------------ */

/* Where the named values of a unit (OP_UNIT_VALUE), a group (OP_GROUP_VALUE)
 * or the game (OP_GLOBAL, id 0) are; val NULL if there is no such holder. */
typedef struct holder { kv **val; size_t n, cap; uint16_t *n16, *cap16; size_t *nz, *capz; } holder;

static holder holder_of(const keel_state *st, int kind, int64_t id) {
  /* the records are not const storage: a const caller only reads */
  keel_state *w = (keel_state *)st;
  holder h = { 0 };
  if (kind == OP_UNIT_VALUE && UNIT_OK(st, id)) {
    unit *u = &w->units[id - 1];
    h.val = &u->val; h.n16 = &u->nval; h.cap16 = &u->capval;
  } else if (kind == OP_GROUP_VALUE && GROUP_OK(st, id)) {
    group *g = &w->groups[id - 1];
    h.val = &g->val; h.n16 = &g->nval; h.cap16 = &g->capval;
  } else if (kind == OP_GLOBAL) {
    h.val = &w->glob; h.nz = &w->nglob; h.capz = &w->capglob;
  }
  if (h.n16) { h.n = *h.n16; h.cap = *h.cap16; }
  else if (h.nz) { h.n = *h.nz; h.cap = *h.capz; }
  return h;
}

keel_status keel__value_get(const keel_state *st, int kind, int64_t id, keel_atom key, keel_value *out) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  *out = keel__kv_get(st, *h.val, h.n, key);
  return KEEL_OK;
}

keel_status keel__value_set(keel_state *st, int kind, int64_t id, keel_atom key, keel_value v) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  if (key <= 0 || !keel__atom_ok(st, key) || !keel__value_ok(st, v)) return KEEL_E_ARG;
  op o = { .kind = (uint8_t)kind, .id = id, .key = key };
  o.a = keel__kv_get(st, *h.val, h.n, key);
  o.b = v;
  if (keel__value_eq(o.a, o.b)) return KEEL_OK;
  return keel__state_push(st, &o);
}

size_t keel__value_count(const keel_state *st, int kind, int64_t id) {
  holder h = holder_of(st, kind, id);
  return h.val ? h.n : 0;
}

keel_status keel__value_at(const keel_state *st, int kind, int64_t id, size_t i, keel_atom *key, keel_value *v) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  if (i >= h.n) return KEEL_E_RANGE;
  *key = (*h.val)[i].key;
  *v = (*h.val)[i].v;
  return KEEL_OK;
}

/* Units and groups hold up to 65535 values, starting at one slot (most hold
 * a few); the game's start at 8. */
int keel__value_prepare(keel_state *st, const op *o) {
  holder h = holder_of(st, o->kind, o->id);
  if (o->b.kind == KEEL_V_NIL) return 1;
  if (h.capz) return KEEL_RESERVE(*h.val, *h.capz, h.n + 1);
  if (h.n + 1 > 65535) return 0;
  size_t cap = h.cap;
  if (!KEEL_RESERVE_FROM(*h.val, cap, h.n + 1, 1)) return 0;
  *h.cap16 = (uint16_t)(cap > 65535 ? 65535 : cap);
  return 1;
}

void keel__value_apply(keel_state *st, const op *o, int forward) {
  keel_value to = forward ? o->b : o->a, from = forward ? o->a : o->b;
  holder h = holder_of(st, o->kind, o->id);
  uint64_t tag = o->kind == OP_UNIT_VALUE ? T_VALUE : o->kind == OP_GROUP_VALUE ? T_GVALUE : T_GLOBAL;
  keel__hash_kv(st, tag, (uint64_t)o->id, o->key, from);
  keel__hash_kv(st, tag, (uint64_t)o->id, o->key, to);
  size_t n = keel__kv_put(st, *h.val, h.n, o->key, to);
  if (h.n16) *h.n16 = (uint16_t)n; else *h.nz = n;
}
