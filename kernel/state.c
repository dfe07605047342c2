/*
 * state.c — the state of one game: interned strings, units, groups,
 * game-wide named values and hex ownership; the undo log (every change is
 * an op with old and new value, applied by keel__apply in either
 * direction), transactions, actions, undo/redo, and the Zobrist hash.
 *
 * Invariants (doc/state.md):
 *   - arrays never shrink their capacity, so applying an op backwards (and
 *     forwards again, for redo) never allocates and never fails;
 *   - the hash is the XOR of one 64-bit key per fact (unit 3 has 2 hits,
 *     group 1 has unit 7 right after unit 4, ...); string facts hash the
 *     text, never the atom id, so equal states hash equal whatever their
 *     history;
 *   - ops are recorded only while an action or a transaction is open;
 *     a change made outside both ends the undo history.
 */
#include "state_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hashing -------------------------------------------------------------- */

uint64_t keel_hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 0x100000001b3ULL; }
  return h;
}

static uint64_t mix(uint64_t x) {   /* splitmix64 finalizer */
  x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27; x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

enum fact_tag {
  T_NAME = 1, T_TYPE, T_SIDE, T_FACE, T_HITS, T_POINTS, T_LOC, T_VALUE, T_MARKER,
  T_GNAME, T_GVALUE, T_GLINK, T_GLOBAL, T_OWNER
};

static uint64_t fact(uint64_t tag, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = mix(tag * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL);
  h = mix(h ^ a);
  h = mix(h + b);
  h = mix(h ^ c);
  return h | 1;   /* never 0: a fact always changes the hash */
}

uint64_t keel__atom_hash(const keel_state *st, keel_atom a) {
  if (a <= 0 || (size_t)a >= st->natoms) return 0;
  return st->atoms[a].h;
}

static uint64_t vhash(const keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_BOOL: return mix(0x100 + (uint64_t)(v.u.i != 0));
  case KEEL_V_INT: return mix(0x200 ^ mix((uint64_t)v.u.i));
  case KEEL_V_FLOAT: {
    double f = v.u.f == 0 ? 0.0 : v.u.f;     /* -0 == 0 */
    uint64_t bits; memcpy(&bits, &f, sizeof bits);
    return mix(0x300 ^ mix(bits));
  }
  case KEEL_V_STR: return mix(0x400 ^ keel__atom_hash(st, v.u.s));
  default: return 0;
  }
}

/* XOR in or out one named-value fact (nothing for nil). */
static void hash_kv(keel_state *st, uint64_t tag, uint64_t id, keel_atom key, keel_value v) {
  if (v.kind == KEEL_V_NIL) return;
  st->hash ^= fact(tag, id, keel__atom_hash(st, key), vhash(st, v));
}

static uint64_t loc_hash(int lk, int64_t where) {
  return mix(((uint64_t)lk << 56) ^ mix((uint64_t)where));
}

/* ---- buffers and growth --------------------------------------------------- */

int keel__buf_reserve(buf *b, size_t extra) {
  if (b->cap - b->n > extra) return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->n <= extra) {
    if (cap > SIZE_MAX / 2) return 0;
    cap *= 2;
  }
  char *p = realloc(b->p, cap);
  if (!p) return 0;
  b->p = p;
  b->cap = cap;
  return 1;
}

/* Grow *arr (of elem-size items, *cap of them) to hold need. */
static int grow(void **arr, size_t elem, size_t *cap, size_t need) {
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : 8;
  while (c < need) {
    if (c > SIZE_MAX / 2 / elem) return 0;
    c *= 2;
  }
  void *p = realloc(*arr, c * elem);
  if (!p) return 0;
  *arr = p;
  *cap = c;
  return 1;
}

/* Small per-unit arrays start at 2 slots: most units hold a few values. */
static int grow16(void **arr, size_t elem, uint16_t *cap, size_t need) {
  if (need > 65535) return 0;
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : 1;
  while (c < need) c *= 2;
  void *p = realloc(*arr, c * elem);
  if (!p) return 0;
  *arr = p;
  *cap = (uint16_t)(c > 65535 ? 65535 : c);
  return 1;
}

/* ---- state ---------------------------------------------------------------- */

keel_status keel_state_new(keel_state **out) {
  if (!out) return KEEL_E_ARG;
  *out = NULL;
  keel_state *st = calloc(1, sizeof *st);
  if (!st) return KEEL_E_NOMEM;
  st->natoms = 1;          /* atom 0 is "none" */
  st->capatoms = 64;
  st->atoms = calloc(st->capatoms, sizeof *st->atoms);
  st->atab_cap = 128;
  st->atab = calloc(st->atab_cap, sizeof *st->atab);
  st->journal_on = 1;
  if (!st->atoms || !st->atab) { keel_state_free(st); return KEEL_E_NOMEM; }
  *out = st;
  return KEEL_OK;
}

void keel_state_free(keel_state *st) {
  if (!st) return;
  for (size_t i = 1; i < st->natoms; i++) free(st->atoms[i].s);
  free(st->atoms);
  free(st->atab);
  for (int32_t i = 0; i < st->initunits; i++) { free(st->units[i].val); free(st->units[i].mark); }
  free(st->units);
  for (int32_t i = 0; i < st->initgroups; i++) { free(st->groups[i].mem); free(st->groups[i].val); }
  free(st->groups);
  free(st->glob);
  free(st->own);
  free(st->rules);
  free(st->ops);
  free(st->actions);
  free(st->redo_ops);
  free(st->redo);
  free(st->journal.p);
  free(st);
}

size_t keel_state_unit_memory(const keel_state *st) {
  size_t m = (size_t)st->capunits * sizeof(unit);
  for (int32_t i = 0; i < st->initunits; i++)
    m += st->units[i].capval * sizeof(kv) + st->units[i].capmark * sizeof(km);
  return m;
}

size_t keel_state_memory(const keel_state *st) {
  size_t m = sizeof *st + keel_state_unit_memory(st);
  m += st->capatoms * sizeof(atom_rec) + st->atab_cap * sizeof(int32_t);
  for (size_t i = 1; i < st->natoms; i++) m += st->atoms[i].len + 1;
  m += (size_t)st->capgroups * sizeof(group);
  for (int32_t i = 0; i < st->initgroups; i++)
    m += st->groups[i].capmem * sizeof(int32_t) + st->groups[i].capval * sizeof(kv);
  m += st->capglob * sizeof(kv) + st->own_cap * sizeof(own_slot);
  m += st->capops * sizeof(op) + st->capredo_ops * sizeof(op);
  m += st->capactions * sizeof(action_rec) + st->capredo * sizeof(redo_rec);
  m += st->journal.cap;
  return m;
}

/* ---- atoms ---------------------------------------------------------------- */

static int atab_insert(int32_t *tab, size_t cap, uint64_t h, int32_t id) {
  size_t i = (size_t)mix(h) & (cap - 1);
  while (tab[i]) i = (i + 1) & (cap - 1);
  tab[i] = id;
  return 1;
}

keel_atom keel_state_atom_find(const keel_state *st, const char *s, size_t len) {
  uint64_t h = keel_hash_bytes(s, len);
  size_t i = (size_t)mix(h) & (st->atab_cap - 1);
  while (st->atab[i]) {
    const atom_rec *a = &st->atoms[st->atab[i]];
    if (a->h == h && a->len == len && memcmp(a->s, s, len) == 0) return st->atab[i];
    i = (i + 1) & (st->atab_cap - 1);
  }
  return 0;
}

keel_status keel_state_intern(keel_state *st, const char *s, size_t len, keel_atom *out) {
  if (!s || len > 0xffffff) return KEEL_E_ARG;
  keel_atom found = keel_state_atom_find(st, s, len);
  if (found) { *out = found; return KEEL_OK; }
  if (st->natoms >= 0x7fffffff) return KEEL_E_RANGE;
  if ((st->natoms + 1) * 2 > st->atab_cap) {
    size_t cap = st->atab_cap * 2;
    int32_t *tab = calloc(cap, sizeof *tab);
    if (!tab) return KEEL_E_NOMEM;
    for (size_t i = 1; i < st->natoms; i++) atab_insert(tab, cap, st->atoms[i].h, (int32_t)i);
    free(st->atab);
    st->atab = tab;
    st->atab_cap = cap;
  }
  if (!grow((void **)&st->atoms, sizeof *st->atoms, &st->capatoms, st->natoms + 1)) return KEEL_E_NOMEM;
  char *copy = malloc(len + 1);
  if (!copy) return KEEL_E_NOMEM;
  memcpy(copy, s, len);
  copy[len] = '\0';
  keel_atom id = (keel_atom)st->natoms++;
  st->atoms[id] = (atom_rec){ copy, (uint32_t)len, keel_hash_bytes(s, len) };
  atab_insert(st->atab, st->atab_cap, st->atoms[id].h, id);
  *out = id;
  return KEEL_OK;
}

const char *keel_state_atom_str(const keel_state *st, keel_atom a, size_t *len) {
  if (a <= 0 || (size_t)a >= st->natoms) { if (len) *len = 0; return NULL; }
  if (len) *len = st->atoms[a].len;
  return st->atoms[a].s;
}

int keel__atom_cmp(const keel_state *st, keel_atom a, keel_atom b) {
  if (a == b) return 0;
  const atom_rec *x = &st->atoms[a], *y = &st->atoms[b];
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->s, y->s, n);
  if (c) return c;
  return x->len < y->len ? -1 : 1;
}

static int atom_ok(const keel_state *st, keel_atom a) { return a >= 0 && (size_t)a < st->natoms; }

/* ---- sorted named arrays -------------------------------------------------- */

/* Binary search by key text in n records of stride bytes that each begin
 * with their key (kv, km); returns 1 if found, *at the index (or the
 * insertion point). */
static int key_find(const keel_state *st, const void *arr, size_t stride, size_t n,
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
  int found = key_find(st, arr, stride, n, key, &at);
  if (remove) {
    if (found) { memmove(a + at * stride, a + (at + 1) * stride, (n - at - 1) * stride); n--; }
  } else {
    if (!found) { memmove(a + (at + 1) * stride, a + at * stride, (n - at) * stride); n++; }
    memcpy(a + at * stride, rec, stride);
  }
  return n;
}

static keel_value kv_get(const keel_state *st, const kv *arr, size_t n, keel_atom key) {
  size_t at;
  if (key && key_find(st, arr, sizeof *arr, n, key, &at)) return arr[at].v;
  return (keel_value){ KEEL_V_NIL, { 0 } };
}

/* Set (v non-nil) or remove; returns the new count. */
static size_t kv_put(const keel_state *st, kv *arr, size_t n, keel_atom key, keel_value v) {
  kv rec = { key, v };
  return key_put(st, arr, sizeof rec, n, &rec, v.kind == KEEL_V_NIL);
}

/* Set (c non-zero) or remove; returns the new count. */
static size_t km_put(const keel_state *st, km *arr, size_t n, keel_atom key, int64_t c) {
  km rec = { key, c };
  return key_put(st, arr, sizeof rec, n, &rec, c == 0);
}

static int value_eq(keel_value a, keel_value b) {
  if (a.kind != b.kind) return 0;
  switch (a.kind) {
  case KEEL_V_NIL: return 1;
  case KEEL_V_FLOAT: return a.u.f == b.u.f;
  case KEEL_V_STR: return a.u.s == b.u.s;
  default: return a.u.i == b.u.i;
  }
}

static keel_value vint(int64_t i) { keel_value v = { KEEL_V_INT, { 0 } }; v.u.i = i; return v; }
static keel_value vatom(keel_atom a) { keel_value v = { KEEL_V_STR, { 0 } }; v.u.s = a; return v; }

static int value_ok(const keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_NIL: return 1;
  case KEEL_V_BOOL: return v.u.i == 0 || v.u.i == 1;
  case KEEL_V_INT: return 1;
  case KEEL_V_FLOAT: return isfinite(v.u.f);
  case KEEL_V_STR: return v.u.s > 0 && (size_t)v.u.s < st->natoms;
  default: return 0;
  }
}

/* ---- named values of units, groups and the game --------------------------- */

#define UNIT_OK(st, id) ((id) >= 1 && (id) <= (st)->nunits)
#define GROUP_OK(st, id) ((id) >= 1 && (id) <= (st)->ngroups)

/* Where the named values of a unit (kind OP_UNIT_VALUE) or a group
 * (OP_GROUP_VALUE) are; val NULL if there is no such unit or group. */
typedef struct holder { kv **val; uint16_t *n, *cap; } holder;

static holder holder_of(const keel_state *st, int kind, int64_t id) {
  /* the units and groups are not const storage: a const caller only reads */
  if (kind == OP_UNIT_VALUE && UNIT_OK(st, id)) {
    unit *u = (unit *)&st->units[id - 1];
    return (holder){ &u->val, &u->nval, &u->capval };
  }
  if (kind == OP_GROUP_VALUE && GROUP_OK(st, id)) {
    group *g = (group *)&st->groups[id - 1];
    return (holder){ &g->val, &g->nval, &g->capval };
  }
  return (holder){ NULL, NULL, NULL };
}

/* Record the op (kind, id) that sets key to v among the n values arr. */
static keel_status kv_set(keel_state *st, int kind, int64_t id, const kv *arr, size_t n,
                          keel_atom key, keel_value v) {
  if (key <= 0 || !atom_ok(st, key) || !value_ok(st, v)) return KEEL_E_ARG;
  op o = { .kind = (uint8_t)kind, .id = id, .key = key };
  o.a = kv_get(st, arr, n, key);
  o.b = v;
  if (value_eq(o.a, o.b)) return KEEL_OK;
  return keel__state_push(st, &o);
}

static keel_status kv_at(const kv *arr, size_t n, size_t i, keel_atom *key, keel_value *v) {
  if (i >= n) return KEEL_E_RANGE;
  *key = arr[i].key;
  *v = arr[i].v;
  return KEEL_OK;
}

static keel_status value_get(const keel_state *st, int kind, int64_t id, keel_atom key, keel_value *out) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  *out = kv_get(st, *h.val, *h.n, key);
  return KEEL_OK;
}

static keel_status value_set(keel_state *st, int kind, int64_t id, keel_atom key, keel_value v) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  return kv_set(st, kind, id, *h.val, *h.n, key, v);
}

static size_t value_count(const keel_state *st, int kind, int64_t id) {
  holder h = holder_of(st, kind, id);
  return h.val ? *h.n : 0;
}

static keel_status value_at(const keel_state *st, int kind, int64_t id, size_t i, keel_atom *key, keel_value *v) {
  holder h = holder_of(st, kind, id);
  if (!h.val) return KEEL_E_NOT_FOUND;
  return kv_at(*h.val, *h.n, i, key, v);
}

/* ---- ownership map -------------------------------------------------------- */

static own_slot *own_lookup(const keel_state *st, keel_hex h) {
  if (!st->own_cap) return NULL;
  size_t i = (size_t)mix((uint64_t)h) & (st->own_cap - 1);
  while (st->own[i].used) {
    if (st->own[i].hex == h) return &st->own[i];
    i = (i + 1) & (st->own_cap - 1);
  }
  return NULL;
}

static own_slot *own_insert_slot(keel_state *st, keel_hex h) {
  size_t i = (size_t)mix((uint64_t)h) & (st->own_cap - 1);
  while (st->own[i].used && st->own[i].hex != h) i = (i + 1) & (st->own_cap - 1);
  return &st->own[i];
}

static int own_reserve(keel_state *st) {
  if ((st->own_used + 1) * 4 <= st->own_cap * 3) return 1;
  size_t cap = st->own_cap ? st->own_cap * 2 : 1024;
  own_slot *old = st->own;
  size_t oldcap = st->own_cap;
  st->own = calloc(cap, sizeof *st->own);
  if (!st->own) { st->own = old; return 0; }
  st->own_cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].used) *own_insert_slot(st, old[i].hex) = old[i];
  free(old);
  return 1;
}

/* ---- applying ops --------------------------------------------------------- */

/* XOR in or out the fields of unit id (its values and markers not). */
static void unit_facts(keel_state *st, int32_t id) {
  const unit *u = &st->units[id - 1];
  st->hash ^= fact(T_NAME, (uint64_t)id, keel__atom_hash(st, u->name), 0);
  st->hash ^= fact(T_TYPE, (uint64_t)id, keel__atom_hash(st, u->type), 0);
  st->hash ^= fact(T_SIDE, (uint64_t)id, keel__atom_hash(st, u->side), 0);
  st->hash ^= fact(T_FACE, (uint64_t)id, u->face, 0);
  st->hash ^= fact(T_HITS, (uint64_t)id, (uint64_t)u->hits, 0);
  st->hash ^= fact(T_POINTS, (uint64_t)id, (uint64_t)u->points, 0);
  st->hash ^= fact(T_LOC, (uint64_t)id, loc_hash(u->lk, u->where), 0);
}

static uint64_t glink(int32_t g, int32_t prev, int32_t next) {
  return fact(T_GLINK, (uint64_t)g, (uint64_t)(uint32_t)prev, (uint64_t)(uint32_t)next);
}

static void group_insert(keel_state *st, int32_t g, int32_t u, size_t pos) {
  group *gr = &st->groups[g - 1];
  int32_t prev = pos > 0 ? gr->mem[pos - 1] : 0;
  int32_t next = pos < gr->nmem ? gr->mem[pos] : 0;
  st->hash ^= glink(g, prev, next) ^ glink(g, prev, u) ^ glink(g, u, next);
  memmove(gr->mem + pos + 1, gr->mem + pos, (gr->nmem - pos) * sizeof *gr->mem);
  gr->mem[pos] = u;
  gr->nmem++;
}

static void group_erase(keel_state *st, int32_t g, size_t pos) {
  group *gr = &st->groups[g - 1];
  int32_t u = gr->mem[pos];
  int32_t prev = pos > 0 ? gr->mem[pos - 1] : 0;
  int32_t next = pos + 1 < gr->nmem ? gr->mem[pos + 1] : 0;
  st->hash ^= glink(g, prev, next) ^ glink(g, prev, u) ^ glink(g, u, next);
  memmove(gr->mem + pos, gr->mem + pos + 1, (gr->nmem - pos - 1) * sizeof *gr->mem);
  gr->nmem--;
}

/* Room for record n + 1 of the units or groups (*cap of them, the first
 * *init zeroed once so that their arrays can be kept and freed). */
static int grow_records(void **arr, size_t elem, int32_t *cap, int32_t n, int32_t *init) {
  size_t c = (size_t)*cap;
  if (!grow(arr, elem, &c, (size_t)n + 1)) return 0;
  *cap = (int32_t)(c > 0x7fffffff ? 0x7fffffff : c);
  if (*init <= n) {
    memset((char *)*arr + (size_t)n * elem, 0, elem);
    *init = n + 1;
  }
  return 1;
}

/* Reserve whatever applying o forward needs; 0 on out of memory. */
static int prepare(keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_UNIT_NEW:
    return grow_records((void **)&st->units, sizeof *st->units, &st->capunits, st->nunits, &st->initunits);
  case OP_UNIT_VALUE: case OP_GROUP_VALUE: {
    holder h = holder_of(st, o->kind, o->id);
    return o->b.kind == KEEL_V_NIL || grow16((void **)h.val, sizeof **h.val, h.cap, (size_t)*h.n + 1);
  }
  case OP_UNIT_MARKER: {
    unit *u = &st->units[o->id - 1];
    return o->b.u.i == 0 || grow16((void **)&u->mark, sizeof *u->mark, &u->capmark, (size_t)u->nmark + 1);
  }
  case OP_GROUP_NEW:
    return grow_records((void **)&st->groups, sizeof *st->groups, &st->capgroups, st->ngroups, &st->initgroups);
  case OP_GROUP_INSERT: {
    group *g = &st->groups[o->id - 1];
    size_t cap = g->capmem;
    if (!grow((void **)&g->mem, sizeof *g->mem, &cap, (size_t)g->nmem + 1)) return 0;
    g->capmem = (uint32_t)(cap > 0xffffffffu ? 0xffffffffu : cap);
    return 1;
  }
  case OP_GLOBAL:
    return o->b.kind == KEEL_V_NIL || grow((void **)&st->glob, sizeof *st->glob, &st->capglob, st->nglob + 1);
  case OP_OWNER:
    return own_lookup(st, (keel_hex)o->id) != NULL || own_reserve(st);
  default:
    return 1;
  }
}

void keel__apply(keel_state *st, const op *o, int forward) {
  keel_value to = forward ? o->b : o->a, from = forward ? o->a : o->b;
  switch (o->kind) {
  case OP_UNIT_NEW:
    if (forward) {
      unit *u = &st->units[st->nunits++];
      u->name = o->key; u->type = o->a.u.s; u->side = o->b.u.s;
      u->face = KEEL_FACE_FULL; u->lk = KEEL_LOC_OFF;
      u->hits = u->points = u->where = 0;
      u->nval = u->nmark = 0;
      unit_facts(st, st->nunits);
    } else {
      unit_facts(st, st->nunits);
      st->nunits--;
    }
    break;
  case OP_UNIT_FIELD: {
    unit *u = &st->units[o->id - 1];
    uint64_t id = (uint64_t)o->id;
    switch (o->field) {
    case KEEL_F_NAME: case KEEL_F_TYPE: case KEEL_F_SIDE: {
      int tag = o->field == KEEL_F_NAME ? T_NAME : o->field == KEEL_F_TYPE ? T_TYPE : T_SIDE;
      st->hash ^= fact((uint64_t)tag, id, keel__atom_hash(st, from.u.s), 0) ^
                  fact((uint64_t)tag, id, keel__atom_hash(st, to.u.s), 0);
      if (o->field == KEEL_F_NAME) u->name = to.u.s;
      else if (o->field == KEEL_F_TYPE) u->type = to.u.s;
      else u->side = to.u.s;
      break;
    }
    case KEEL_F_FACE:
      st->hash ^= fact(T_FACE, id, (uint64_t)from.u.i, 0) ^ fact(T_FACE, id, (uint64_t)to.u.i, 0);
      u->face = (uint8_t)to.u.i;
      break;
    case KEEL_F_HITS:
      st->hash ^= fact(T_HITS, id, (uint64_t)from.u.i, 0) ^ fact(T_HITS, id, (uint64_t)to.u.i, 0);
      u->hits = to.u.i;
      break;
    case KEEL_F_POINTS:
      st->hash ^= fact(T_POINTS, id, (uint64_t)from.u.i, 0) ^ fact(T_POINTS, id, (uint64_t)to.u.i, 0);
      u->points = to.u.i;
      break;
    case KEEL_F_LOC: {
      int lkf = forward ? o->lka : o->lkb, lkt = forward ? o->lkb : o->lka;
      st->hash ^= fact(T_LOC, id, loc_hash(lkf, from.u.i), 0) ^ fact(T_LOC, id, loc_hash(lkt, to.u.i), 0);
      u->lk = (uint8_t)lkt;
      u->where = to.u.i;
      break;
    }
    default: break;
    }
    break;
  }
  case OP_UNIT_VALUE: case OP_GROUP_VALUE: {
    holder h = holder_of(st, o->kind, o->id);
    uint64_t tag = o->kind == OP_UNIT_VALUE ? T_VALUE : T_GVALUE;
    hash_kv(st, tag, (uint64_t)o->id, o->key, from);
    hash_kv(st, tag, (uint64_t)o->id, o->key, to);
    *h.n = (uint16_t)kv_put(st, *h.val, *h.n, o->key, to);
    break;
  }
  case OP_UNIT_MARKER: {
    unit *u = &st->units[o->id - 1];
    uint64_t kh = keel__atom_hash(st, o->key);
    if (from.u.i) st->hash ^= fact(T_MARKER, (uint64_t)o->id, kh, (uint64_t)from.u.i);
    if (to.u.i) st->hash ^= fact(T_MARKER, (uint64_t)o->id, kh, (uint64_t)to.u.i);
    u->nmark = (uint16_t)km_put(st, u->mark, u->nmark, o->key, to.u.i);
    break;
  }
  case OP_GROUP_NEW: {   /* a fresh group: its name, and the link of its empty list */
    if (forward) {
      group *g = &st->groups[st->ngroups++];
      g->name = o->key; g->nmem = 0; g->nval = 0;
    }
    st->hash ^= fact(T_GNAME, (uint64_t)st->ngroups, keel__atom_hash(st, st->groups[st->ngroups - 1].name), 0) ^
                glink(st->ngroups, 0, 0);
    if (!forward) st->ngroups--;
    break;
  }
  case OP_GROUP_INSERT:
  case OP_GROUP_REMOVE: {
    int insert = (o->kind == OP_GROUP_INSERT) == (forward != 0);
    if (insert) group_insert(st, (int32_t)o->id, (int32_t)o->a.u.i, (size_t)o->pos);
    else group_erase(st, (int32_t)o->id, (size_t)o->pos);
    break;
  }
  case OP_GLOBAL: {
    hash_kv(st, T_GLOBAL, 0, o->key, from);
    hash_kv(st, T_GLOBAL, 0, o->key, to);
    st->nglob = kv_put(st, st->glob, st->nglob, o->key, to);
    break;
  }
  case OP_OWNER: {
    keel_hex h = (keel_hex)o->id;
    if (from.u.s) { st->hash ^= fact(T_OWNER, (uint64_t)h, keel__atom_hash(st, from.u.s), 0); st->own_count--; }
    if (to.u.s) { st->hash ^= fact(T_OWNER, (uint64_t)h, keel__atom_hash(st, to.u.s), 0); st->own_count++; }
    own_slot *s = own_lookup(st, h);
    if (!s) {
      s = own_insert_slot(st, h);
      s->used = 1; s->hex = h;
      st->own_used++;
    }
    s->side = to.u.s;
    st->own_version++;
    break;
  }
  default: break;
  }
}

/* Drop the undo history: a change outside any action cannot be undone, and
 * actions before it could not be undone past it. */
static void end_history(keel_state *st) {
  st->nops = 0;
  st->nactions = 0;
  st->nredo = 0;
  st->nredo_ops = 0;
}

keel_status keel__state_push(keel_state *st, op *o) {
  o->rule = keel_state_rule(st);
  if (st->depth > 0 &&
      !grow((void **)&st->ops, sizeof *st->ops, &st->capops, st->nops + 1)) return KEEL_E_NOMEM;
  if (!prepare(st, o)) return KEEL_E_NOMEM;
  size_t jmark = st->journal.n;
  if (st->journal_on) {
    keel_status s = keel__journal_op(st, o);
    if (s != KEEL_OK) { st->journal.n = jmark; return s; }
  }
  keel__apply(st, o, 1);
  if (st->depth > 0) {
    st->ops[st->nops++] = *o;
    if (!st->in_action) st->loose = 1;
  }
  else end_history(st);
  return KEEL_OK;
}

/* ---- rule stack ----------------------------------------------------------- */

keel_status keel_state_push_rule(keel_state *st, keel_atom rule) {
  if (!atom_ok(st, rule)) return KEEL_E_ARG;
  if (!grow((void **)&st->rules, sizeof *st->rules, &st->caprules, st->nrules + 1)) return KEEL_E_NOMEM;
  st->rules[st->nrules++] = rule;
  return KEEL_OK;
}
void keel_state_pop_rule(keel_state *st) { if (st->nrules) st->nrules--; }
keel_atom keel_state_rule(const keel_state *st) {
  for (size_t i = st->nrules; i > 0; i--)
    if (st->rules[i - 1]) return st->rules[i - 1];
  return 0;
}

/* ---- units ---------------------------------------------------------------- */

keel_status keel_state_unit_new(keel_state *st, keel_atom name, keel_atom type, keel_atom side, int32_t *id) {
  if (!atom_ok(st, name) || !atom_ok(st, type) || !atom_ok(st, side)) return KEEL_E_ARG;
  if (st->nunits >= 0x7ffffffe) return KEEL_E_RANGE;
  op o = { .kind = OP_UNIT_NEW, .key = name, .id = st->nunits + 1 };
  o.a = vatom(type);
  o.b = vatom(side);
  keel_status s = keel__state_push(st, &o);
  if (s == KEEL_OK && id) *id = st->nunits;
  return s;
}

int32_t keel_state_unit_count(const keel_state *st) { return st->nunits; }

keel_status keel_state_unit_get(const keel_state *st, int32_t id, keel_unit_info *out) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  const unit *u = &st->units[id - 1];
  out->id = id;
  out->name = u->name; out->type = u->type; out->side = u->side;
  out->face = (keel_face)u->face;
  out->hits = u->hits; out->points = u->points;
  out->loc.kind = (keel_loc_kind)u->lk; out->loc.where = u->where;
  return KEEL_OK;
}

keel_status keel_state_unit_set(keel_state *st, int32_t id, keel_field f, int64_t v) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  unit *u = &st->units[id - 1];
  op o = { .kind = OP_UNIT_FIELD, .field = (uint8_t)f, .id = id };
  switch (f) {
  case KEEL_F_NAME: case KEEL_F_TYPE: case KEEL_F_SIDE:
    if (v < 0 || (size_t)v >= st->natoms || (f == KEEL_F_NAME && v == 0)) return KEEL_E_ARG;
    o.a = vatom(f == KEEL_F_NAME ? u->name : f == KEEL_F_TYPE ? u->type : u->side);
    o.b = vatom((keel_atom)v);
    break;
  case KEEL_F_FACE:
    if (v < 0 || v >= KEEL_FACE_COUNT) return KEEL_E_ARG;
    o.a = vint(u->face); o.b = vint(v);
    break;
  case KEEL_F_HITS: case KEEL_F_POINTS:
    if (v < 0) return KEEL_E_ARG;
    o.a = vint(f == KEEL_F_HITS ? u->hits : u->points); o.b = vint(v);
    break;
  default:
    return KEEL_E_ARG;
  }
  if (value_eq(o.a, o.b)) return KEEL_OK;
  return keel__state_push(st, &o);
}

keel_status keel_state_unit_move(keel_state *st, int32_t id, keel_loc loc) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  switch (loc.kind) {
  case KEEL_LOC_OFF: case KEEL_LOC_DEAD: loc.where = 0; break;
  case KEEL_LOC_HEX: case KEEL_LOC_PORT: if (!keel_hex_is_valid(loc.where)) return KEEL_E_ARG; break;
  case KEEL_LOC_BOX: break;
  case KEEL_LOC_ZONE: if (loc.where < 0) return KEEL_E_ARG; break;
  case KEEL_LOC_UNIT: {
    if (loc.where < 1 || loc.where > st->nunits) return KEEL_E_NOT_FOUND;
    /* refuse a loop: walk up the carriers of the new carrier */
    int64_t c = loc.where;
    for (int32_t steps = 0; steps <= st->nunits; steps++) {
      if (c == id) return KEEL_E_ARG;
      const unit *cu = &st->units[c - 1];
      if (cu->lk != KEEL_LOC_UNIT) break;
      c = cu->where;
    }
    break;
  }
  default: return KEEL_E_ARG;
  }
  unit *u = &st->units[id - 1];
  if (u->lk == loc.kind && u->where == loc.where) return KEEL_OK;
  op o = { .kind = OP_UNIT_FIELD, .field = KEEL_F_LOC, .id = id,
           .lka = u->lk, .lkb = (uint8_t)loc.kind };
  o.a = vint(u->where);
  o.b = vint(loc.where);
  return keel__state_push(st, &o);
}

keel_status keel_state_unit_value(const keel_state *st, int32_t id, keel_atom key, keel_value *out) {
  return value_get(st, OP_UNIT_VALUE, id, key, out);
}

keel_status keel_state_unit_set_value(keel_state *st, int32_t id, keel_atom key, keel_value v) {
  return value_set(st, OP_UNIT_VALUE, id, key, v);
}

size_t keel_state_unit_value_count(const keel_state *st, int32_t id) {
  return value_count(st, OP_UNIT_VALUE, id);
}

keel_status keel_state_unit_value_at(const keel_state *st, int32_t id, size_t i, keel_atom *key, keel_value *v) {
  return value_at(st, OP_UNIT_VALUE, id, i, key, v);
}

int64_t keel_state_unit_marker(const keel_state *st, int32_t id, keel_atom key) {
  if (!UNIT_OK(st, id) || key <= 0) return 0;
  const unit *u = &st->units[id - 1];
  size_t at;
  return key_find(st, u->mark, sizeof *u->mark, u->nmark, key, &at) ? u->mark[at].n : 0;
}

keel_status keel_state_unit_set_marker(keel_state *st, int32_t id, keel_atom key, int64_t count) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  if (key <= 0 || !atom_ok(st, key)) return KEEL_E_ARG;
  op o = { .kind = OP_UNIT_MARKER, .id = id, .key = key };
  o.a = vint(keel_state_unit_marker(st, id, key));
  o.b = vint(count);
  if (o.a.u.i == count) return KEEL_OK;
  return keel__state_push(st, &o);
}

size_t keel_state_unit_marker_count(const keel_state *st, int32_t id) {
  return UNIT_OK(st, id) ? st->units[id - 1].nmark : 0;
}

keel_status keel_state_unit_marker_at(const keel_state *st, int32_t id, size_t i, keel_atom *key, int64_t *count) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  const unit *u = &st->units[id - 1];
  if (i >= u->nmark) return KEEL_E_RANGE;
  *key = u->mark[i].key;
  *count = u->mark[i].n;
  return KEEL_OK;
}

/* ---- damage primitives ---------------------------------------------------- */

keel_status keel_state_add_hits(keel_state *st, int32_t id, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t h = st->units[id - 1].hits;
  if ((n > 0 && h > INT64_MAX - n) || h + n < 0) return KEEL_E_ARG;
  return keel_state_unit_set(st, id, KEEL_F_HITS, h + n);
}

keel_status keel_state_add_marker(keel_state *st, int32_t id, keel_atom key, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t c = keel_state_unit_marker(st, id, key);
  if ((n > 0 && c > INT64_MAX - n) || (n < 0 && c < INT64_MIN - n)) return KEEL_E_RANGE;
  return keel_state_unit_set_marker(st, id, key, c + n);
}

keel_status keel_state_reduce_points(keel_state *st, int32_t id, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t p = st->units[id - 1].points;
  if (n < 0 || n > p) return KEEL_E_ARG;
  return keel_state_unit_set(st, id, KEEL_F_POINTS, p - n);
}

keel_status keel_state_split(keel_state *st, int32_t id, int64_t points, int32_t *new_id) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  if (points <= 0 || points >= st->units[id - 1].points) return KEEL_E_ARG;
  keel_mark m;
  keel_status s = keel_state_begin(st, &m);
  if (s != KEEL_OK) return s;
  int32_t nid = 0;
  unit u = st->units[id - 1];     /* a copy: units[] may move */
  s = keel_state_unit_new(st, u.name, u.type, u.side, &nid);
  if (s == KEEL_OK) s = keel_state_unit_set(st, nid, KEEL_F_FACE, u.face);
  for (uint16_t i = 0; s == KEEL_OK && i < u.nval; i++) {
    keel_value v = st->units[id - 1].val[i].v;
    s = keel_state_unit_set_value(st, nid, st->units[id - 1].val[i].key, v);
  }
  if (s == KEEL_OK) s = keel_state_unit_set(st, nid, KEEL_F_POINTS, points);
  if (s == KEEL_OK) s = keel_state_unit_move(st, nid, (keel_loc){ (keel_loc_kind)u.lk, u.where });
  if (s == KEEL_OK) s = keel_state_unit_set(st, id, KEEL_F_POINTS, u.points - points);
  if (s != KEEL_OK) { keel_state_rollback(st, &m); return s; }
  if (new_id) *new_id = nid;
  return keel_state_commit(st, &m);
}

keel_status keel_state_combine(keel_state *st, int32_t a, int32_t b) {
  if (!UNIT_OK(st, a) || !UNIT_OK(st, b)) return KEEL_E_NOT_FOUND;
  if (a == b) return KEEL_E_ARG;
  int64_t pa = st->units[a - 1].points, pb = st->units[b - 1].points;
  if (pa > INT64_MAX - pb) return KEEL_E_RANGE;
  keel_mark m;
  keel_status s = keel_state_begin(st, &m);
  if (s != KEEL_OK) return s;
  s = keel_state_unit_set(st, a, KEEL_F_POINTS, pa + pb);
  if (s == KEEL_OK) s = keel_state_unit_set(st, b, KEEL_F_POINTS, 0);
  for (int32_t g = 1; s == KEEL_OK && g <= st->ngroups; g++) s = keel_state_group_remove(st, g, b);
  if (s == KEEL_OK) s = keel_state_unit_move(st, b, (keel_loc){ KEEL_LOC_OFF, 0 });
  if (s != KEEL_OK) { keel_state_rollback(st, &m); return s; }
  return keel_state_commit(st, &m);
}

static keel_status eliminate(keel_state *st, int32_t id, int depth) {
  if (depth > st->nunits) return KEEL_E_STATE;
  keel_status s = KEEL_OK;
  for (int32_t c = 1; s == KEEL_OK && c <= st->nunits; c++) {
    const unit *cu = &st->units[c - 1];
    if (cu->lk == KEEL_LOC_UNIT && cu->where == id) s = eliminate(st, c, depth + 1);
  }
  for (int32_t g = 1; s == KEEL_OK && g <= st->ngroups; g++) s = keel_state_group_remove(st, g, id);
  if (s == KEEL_OK) s = keel_state_unit_move(st, id, (keel_loc){ KEEL_LOC_DEAD, 0 });
  return s;
}

keel_status keel_state_eliminate(keel_state *st, int32_t id) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  keel_mark m;
  keel_status s = keel_state_begin(st, &m);
  if (s != KEEL_OK) return s;
  s = eliminate(st, id, 0);
  if (s != KEEL_OK) { keel_state_rollback(st, &m); return s; }
  return keel_state_commit(st, &m);
}

/* ---- cargo ---------------------------------------------------------------- */

keel_status keel_state_cargo(const keel_state *st, int32_t carrier, int32_t *out, size_t cap, size_t *n) {
  if (!UNIT_OK(st, carrier)) return KEEL_E_NOT_FOUND;
  size_t k = 0;
  for (int32_t c = 1; c <= st->nunits; c++) {
    const unit *cu = &st->units[c - 1];
    if (cu->lk == KEEL_LOC_UNIT && cu->where == carrier) {
      if (k < cap && out) out[k] = c;
      k++;
    }
  }
  *n = k;
  return k > cap && out ? KEEL_E_CAPACITY : KEEL_OK;
}

static int64_t int_value(const keel_state *st, int32_t id, keel_atom key) {
  if (!key) return 0;
  const unit *u = &st->units[id - 1];
  keel_value v = kv_get(st, u->val, u->nval, key);
  if (v.kind == KEEL_V_INT) return v.u.i;
  if (v.kind == KEEL_V_FLOAT) return (int64_t)v.u.f;
  return 0;
}

keel_status keel_state_cargo_check(const keel_state *st, const int32_t *carriers, size_t ncarriers,
                                   const char *measure, keel_cargo_report *rep,
                                   int32_t *excess, size_t cap) {
  if (!measure || !rep) return KEEL_E_ARG;
  char key[256];
  size_t ml = strlen(measure);
  if (ml == 0 || ml > 200) return KEEL_E_ARG;
  for (size_t i = 0; i < ncarriers; i++) if (!UNIT_OK(st, carriers[i])) return KEEL_E_NOT_FOUND;
  snprintf(key, sizeof key, "capacity.%s", measure);
  keel_atom kcap = keel_state_atom_find(st, key, strlen(key));
  snprintf(key, sizeof key, "size.%s", measure);
  keel_atom ksize = keel_state_atom_find(st, key, strlen(key));
  memset(rep, 0, sizeof *rep);
  for (size_t i = 0; i < ncarriers; i++) rep->capacity += int_value(st, carriers[i], kcap);
  /* used, walking the cargo in order; then take from the tail */
  for (size_t i = 0; i < ncarriers; i++)
    for (int32_t c = 1; c <= st->nunits; c++) {
      const unit *cu = &st->units[c - 1];
      if (cu->lk == KEEL_LOC_UNIT && cu->where == carriers[i]) rep->used += int_value(st, c, ksize);
    }
  rep->over = rep->used > rep->capacity ? rep->used - rep->capacity : 0;
  if (rep->over == 0) return KEEL_OK;
  int64_t dropped = 0;
  size_t k = 0;
  for (size_t i = ncarriers; i > 0 && dropped < rep->over; i--)
    for (int32_t c = st->nunits; c >= 1 && dropped < rep->over; c--) {
      const unit *cu = &st->units[c - 1];
      if (cu->lk != KEEL_LOC_UNIT || cu->where != carriers[i - 1]) continue;
      int64_t sz = int_value(st, c, ksize);
      if (sz <= 0) continue;
      dropped += sz;
      if (excess && k < cap) excess[k] = c;
      k++;
    }
  /* back to cargo order */
  if (excess) {
    size_t m = k < cap ? k : cap;
    for (size_t i = 0; i < m / 2; i++) { int32_t t = excess[i]; excess[i] = excess[m - 1 - i]; excess[m - 1 - i] = t; }
  }
  rep->excess_n = k;
  return excess && k > cap ? KEEL_E_CAPACITY : KEEL_OK;
}

/* ---- groups --------------------------------------------------------------- */

keel_status keel_state_group_new(keel_state *st, keel_atom name, int32_t *id) {
  if (!atom_ok(st, name)) return KEEL_E_ARG;
  if (st->ngroups >= 0x7ffffffe) return KEEL_E_RANGE;
  op o = { .kind = OP_GROUP_NEW, .key = name, .id = st->ngroups + 1 };
  keel_status s = keel__state_push(st, &o);
  if (s == KEEL_OK && id) *id = st->ngroups;
  return s;
}

int32_t keel_state_group_count(const keel_state *st) { return st->ngroups; }

keel_atom keel_state_group_name(const keel_state *st, int32_t gid) {
  return GROUP_OK(st, gid) ? st->groups[gid - 1].name : 0;
}

static int group_pos(const keel_state *st, int32_t gid, int32_t u, size_t *pos) {
  const group *g = &st->groups[gid - 1];
  for (size_t i = 0; i < g->nmem; i++) if (g->mem[i] == u) { *pos = i; return 1; }
  return 0;
}

keel_status keel_state_group_add(keel_state *st, int32_t gid, int32_t u, int64_t pos) {
  if (!GROUP_OK(st, gid) || !UNIT_OK(st, u)) return KEEL_E_NOT_FOUND;
  size_t at;
  if (group_pos(st, gid, u, &at)) return KEEL_E_DUPLICATE;
  size_t n = st->groups[gid - 1].nmem;
  if (pos < 0) pos = (int64_t)n;
  if ((size_t)pos > n || n >= 0x7fffffff) return KEEL_E_RANGE;
  op o = { .kind = OP_GROUP_INSERT, .id = gid, .pos = (int32_t)pos };
  o.a = vint(u);
  return keel__state_push(st, &o);
}

keel_status keel_state_group_remove(keel_state *st, int32_t gid, int32_t u) {
  if (!GROUP_OK(st, gid)) return KEEL_E_NOT_FOUND;
  size_t at;
  if (!group_pos(st, gid, u, &at)) return KEEL_OK;
  op o = { .kind = OP_GROUP_REMOVE, .id = gid, .pos = (int32_t)at };
  o.a = vint(u);
  return keel__state_push(st, &o);
}

size_t keel_state_group_size(const keel_state *st, int32_t gid) {
  return GROUP_OK(st, gid) ? st->groups[gid - 1].nmem : 0;
}

int32_t keel_state_group_member(const keel_state *st, int32_t gid, size_t i) {
  if (!GROUP_OK(st, gid) || i >= st->groups[gid - 1].nmem) return 0;
  return st->groups[gid - 1].mem[i];
}

keel_status keel_state_group_value(const keel_state *st, int32_t gid, keel_atom key, keel_value *out) {
  return value_get(st, OP_GROUP_VALUE, gid, key, out);
}

keel_status keel_state_group_set_value(keel_state *st, int32_t gid, keel_atom key, keel_value v) {
  return value_set(st, OP_GROUP_VALUE, gid, key, v);
}

size_t keel_state_group_value_count(const keel_state *st, int32_t gid) {
  return value_count(st, OP_GROUP_VALUE, gid);
}

keel_status keel_state_group_value_at(const keel_state *st, int32_t gid, size_t i, keel_atom *key, keel_value *v) {
  return value_at(st, OP_GROUP_VALUE, gid, i, key, v);
}

/* ---- globals and ownership ------------------------------------------------ */

keel_value keel_state_global(const keel_state *st, keel_atom key) {
  return kv_get(st, st->glob, st->nglob, key);
}

keel_status keel_state_set_global(keel_state *st, keel_atom key, keel_value v) {
  return kv_set(st, OP_GLOBAL, 0, st->glob, st->nglob, key, v);
}

size_t keel_state_global_count(const keel_state *st) { return st->nglob; }

keel_status keel_state_global_at(const keel_state *st, size_t i, keel_atom *key, keel_value *v) {
  return kv_at(st->glob, st->nglob, i, key, v);
}

keel_atom keel_state_owner(const keel_state *st, keel_hex h) {
  const own_slot *s = own_lookup(st, h);
  return s ? s->side : 0;
}

keel_status keel_state_set_owner(keel_state *st, keel_hex h, keel_atom side) {
  if (!keel_hex_is_valid(h) || !atom_ok(st, side)) return KEEL_E_ARG;
  keel_atom cur = keel_state_owner(st, h);
  if (cur == side) return KEEL_OK;
  op o = { .kind = OP_OWNER, .id = h };
  o.a = vatom(cur);
  o.b = vatom(side);
  return keel__state_push(st, &o);
}

size_t keel_state_owned_count(const keel_state *st) { return st->own_count; }

uint64_t keel_state_get_owner_version(const keel_state *st) { return st->own_version; }

/* ---- hash ----------------------------------------------------------------- */

uint64_t keel_state_hash(const keel_state *st) { return st->hash; }

uint64_t keel_state_hash_full(const keel_state *st) {
  keel_state tmp = *st;     /* the helpers XOR into tmp.hash only */
  tmp.hash = 0;
  keel_state *t = &tmp;
  for (int32_t id = 1; id <= st->nunits; id++) {
    const unit *u = &st->units[id - 1];
    unit_facts(t, id);
    for (uint16_t i = 0; i < u->nval; i++) hash_kv(t, T_VALUE, (uint64_t)id, u->val[i].key, u->val[i].v);
    for (uint16_t i = 0; i < u->nmark; i++)
      t->hash ^= fact(T_MARKER, (uint64_t)id, keel__atom_hash(st, u->mark[i].key), (uint64_t)u->mark[i].n);
  }
  for (int32_t g = 1; g <= st->ngroups; g++) {
    const group *gr = &st->groups[g - 1];
    t->hash ^= fact(T_GNAME, (uint64_t)g, keel__atom_hash(st, gr->name), 0);
    for (size_t i = 0; i <= gr->nmem; i++)
      t->hash ^= glink(g, i > 0 ? gr->mem[i - 1] : 0, i < gr->nmem ? gr->mem[i] : 0);
    for (uint16_t i = 0; i < gr->nval; i++) hash_kv(t, T_GVALUE, (uint64_t)g, gr->val[i].key, gr->val[i].v);
  }
  for (size_t i = 0; i < st->nglob; i++) hash_kv(t, T_GLOBAL, 0, st->glob[i].key, st->glob[i].v);
  for (size_t i = 0; i < st->own_cap; i++)
    if (st->own[i].used && st->own[i].side)
      t->hash ^= fact(T_OWNER, (uint64_t)st->own[i].hex, keel__atom_hash(st, st->own[i].side), 0);
  return tmp.hash;
}

/* ---- transactions, actions, undo ------------------------------------------ */

keel_status keel_state_begin(keel_state *st, keel_mark *m) {
  if (st->depth >= 1000000) return KEEL_E_LIMIT;
  m->ops = st->nops;
  m->journal = st->journal.n;
  m->actions = st->nactions;
  m->action_seq = st->action_seq;
  m->depth = st->depth;
  m->in_action = st->in_action;
  m->rules = st->nrules;
  m->loose = st->loose;
  st->depth++;
  return KEEL_OK;
}

keel_status keel_state_commit(keel_state *st, const keel_mark *m) {
  if (st->depth != m->depth + 1) return KEEL_E_STATE;
  st->depth = m->depth;
  if (st->depth == 0 && st->loose) { end_history(st); st->loose = 0; }
  return KEEL_OK;
}

keel_status keel_state_rollback(keel_state *st, const keel_mark *m) {
  if (st->depth <= m->depth || st->nops < m->ops) return KEEL_E_STATE;
  while (st->nops > m->ops) keel__apply(st, &st->ops[--st->nops], 0);
  if (st->journal.n > m->journal) st->journal.n = m->journal;
  st->nactions = m->actions;
  st->action_seq = m->action_seq;
  st->depth = m->depth;
  st->in_action = m->in_action;
  st->loose = m->loose;
  if (st->nrules > m->rules) st->nrules = m->rules;
  return KEEL_OK;
}

#define RAWB(s) keel__json_raw(&b, s, sizeof(s) - 1)

static keel_status journal_line(keel_state *st, buf *line) {
  if (!st->journal_on) return KEEL_OK;
  if (!keel__buf_reserve(&st->journal, line->n + 1)) return KEEL_E_NOMEM;
  memcpy(st->journal.p + st->journal.n, line->p, line->n);
  st->journal.n += line->n;
  st->journal.p[st->journal.n++] = '\n';
  return KEEL_OK;
}

keel_status keel_state_action_begin(keel_state *st, const char *name, const char *order_json) {
  if (st->in_action) return KEEL_E_STATE;
  if (!name) return KEEL_E_ARG;
  if (!grow((void **)&st->actions, sizeof *st->actions, &st->capactions, st->nactions + 1)) return KEEL_E_NOMEM;
  buf b = { 0 };
  int ok = RAWB("{\"ev\":\"action\",\"action\":") &&
           keel__json_int(&b, st->action_seq + 1) &&
           RAWB(",\"name\":") && keel__json_str(&b, name, strlen(name)) &&
           RAWB(",\"rule\":") && keel__json_atom(&b, st, keel_state_rule(st)) &&
           RAWB(",\"order\":") &&
           (order_json ? keel__json_raw(&b, order_json, strlen(order_json)) : RAWB("null")) &&
           RAWB("}");
  keel_status s = ok ? journal_line(st, &b) : KEEL_E_NOMEM;
  free(b.p);
  if (s != KEEL_OK) return s;
  st->action_seq++;
  st->actions[st->nactions++] = (action_rec){ st->nops, st->action_seq, 0 };
  st->in_action = 1;
  st->action_depth = st->depth;
  st->depth++;
  return KEEL_OK;
}

keel_status keel_state_action_end(keel_state *st) {
  if (!st->in_action || st->depth != st->action_depth + 1) return KEEL_E_STATE;
  buf b = { 0 };
  int ok = RAWB("{\"ev\":\"end\",\"action\":") && keel__json_int(&b, st->action_seq) &&
           RAWB(",\"hash\":") && keel__json_hash(&b, st->hash) &&
           RAWB("}");
  keel_status s = ok ? journal_line(st, &b) : KEEL_E_NOMEM;
  free(b.p);
  if (s != KEEL_OK) return s;
  st->actions[st->nactions - 1].hash_after = st->hash;
  st->in_action = 0;
  st->depth--;
  st->nredo = 0;
  st->nredo_ops = 0;
  return KEEL_OK;
}

size_t keel_state_action_count(const keel_state *st) { return st->nactions; }
size_t keel_state_redo_count(const keel_state *st) { return st->nredo; }
int64_t keel_state_action_number(const keel_state *st) { return st->action_seq; }

static keel_status undo_redo_line(keel_state *st, const char *ev, size_t n, const int64_t *numbers) {
  buf b = { 0 };
  int ok = RAWB("{\"ev\":\"") && keel__json_raw(&b, ev, strlen(ev)) &&
           RAWB("\",\"n\":") && keel__json_int(&b, (int64_t)n) &&
           RAWB(",\"actions\":[");
  for (size_t i = 0; ok && i < n; i++)
    ok = (i == 0 || RAWB(",")) && keel__json_int(&b, numbers[i]);
  ok = ok && RAWB("],\"hash\":") && keel__json_hash(&b, st->hash) && RAWB("}");
  keel_status s = ok ? journal_line(st, &b) : KEEL_E_NOMEM;
  free(b.p);
  return s;
}

keel_status keel_state_undo(keel_state *st, size_t n) {
  if (st->depth != 0 || st->in_action) return KEEL_E_STATE;
  if (n > st->nactions) return KEEL_E_RANGE;
  if (n == 0) return KEEL_OK;
  size_t first = st->actions[st->nactions - n].op_start;
  size_t nops = st->nops - first;
  if (!grow((void **)&st->redo_ops, sizeof *st->redo_ops, &st->capredo_ops, st->nredo_ops + nops) ||
      !grow((void **)&st->redo, sizeof *st->redo, &st->capredo, st->nredo + n)) return KEEL_E_NOMEM;
  int64_t *numbers = malloc(n * sizeof *numbers);
  if (!numbers) return KEEL_E_NOMEM;
  for (size_t k = 0; k < n; k++) {
    action_rec a = st->actions[--st->nactions];
    size_t len = st->nops - a.op_start;
    for (size_t i = st->nops; i > a.op_start; i--) keel__apply(st, &st->ops[i - 1], 0);
    if (len) memcpy(st->redo_ops + st->nredo_ops, st->ops + a.op_start, len * sizeof(op));
    st->redo[st->nredo++] = (redo_rec){ st->nredo_ops, len, a.number };
    st->nredo_ops += len;
    st->nops = a.op_start;
    numbers[k] = a.number;
  }
  keel_status s = undo_redo_line(st, "undo", n, numbers);
  free(numbers);
  return s;
}

keel_status keel_state_redo(keel_state *st, size_t n) {
  if (st->depth != 0 || st->in_action) return KEEL_E_STATE;
  if (n > st->nredo) return KEEL_E_RANGE;
  if (n == 0) return KEEL_OK;
  size_t nops = 0;
  for (size_t k = 0; k < n; k++) nops += st->redo[st->nredo - 1 - k].len;
  if (!grow((void **)&st->ops, sizeof *st->ops, &st->capops, st->nops + nops) ||
      !grow((void **)&st->actions, sizeof *st->actions, &st->capactions, st->nactions + n)) return KEEL_E_NOMEM;
  int64_t *numbers = malloc(n * sizeof *numbers);
  if (!numbers) return KEEL_E_NOMEM;
  for (size_t k = 0; k < n; k++) {
    redo_rec r = st->redo[--st->nredo];
    size_t start = st->nops;
    for (size_t i = 0; i < r.len; i++) {
      const op *o = &st->redo_ops[r.start + i];
      prepare(st, o);     /* capacities never shrink: this cannot fail */
      keel__apply(st, o, 1);
      st->ops[st->nops++] = *o;
    }
    st->nredo_ops = r.start;
    st->actions[st->nactions++] = (action_rec){ start, r.number, st->hash };
    numbers[k] = r.number;
  }
  keel_status s = undo_redo_line(st, "redo", n, numbers);
  free(numbers);
  return s;
}
