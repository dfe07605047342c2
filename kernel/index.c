/*
 * index.c — the state's index of units and groups: the units at each
 * location (a hex, a port, a box, a zone, a carrier, off map, dead), of
 * each kind of location, of each side, and the groups each unit is in.
 * Kept up to date by the ops that change what it answers (unit.c's
 * OP_UNIT_NEW and the location and side fields, group.c's insert and
 * remove), in both directions, so that a rollback, an undo or a redo leaves
 * it as the state is. It is not part of the state: nothing in it is hashed,
 * journaled or saved. The lists hold ids in increasing order, so that an
 * answer is in id order, as a scan of every unit or group would give it.
 *
 * Memory: the prepare functions reserve what an op's forward direction
 * needs; a list's capacity never shrinks and a bucket is never dropped, so
 * the backward direction (rollback, undo) and a redo never allocate.
 */
#include "array.h"
#include "state_int.h"
#include <string.h>

/* bucket tags: the exact location (tag = kind), every location of a kind
 * (TAG_KIND + kind, where 0), a side (TAG_SIDE, where = the side's atom) */
enum { TAG_KIND = 16, TAG_SIDE = 32 };

static uint64_t slot_hash(uint8_t tag, int64_t where) {
  return keel__mix(((uint64_t)tag << 56) ^ (uint64_t)where ^ 0x9e3779b97f4a7c15ULL);
}

/* The bucket (tag, where), or NULL. */
static keel__ibucket *bucket_find(const keel_state *st, uint8_t tag, int64_t where) {
  if (!st->ix_cap) return NULL;
  size_t mask = st->ix_cap - 1;
  for (size_t i = (size_t)slot_hash(tag, where) & mask;; i = (i + 1) & mask) {
    keel__ibucket *b = &st->ix[i];
    if (!b->used) return NULL;
    if (b->tag == tag && b->where == where) return b;
  }
}

/* Room for one more bucket (the table at most half full). */
static int table_reserve(keel_state *st) {
  if ((st->ix_used + 1) * 2 <= st->ix_cap) return 1;
  size_t cap = st->ix_cap ? st->ix_cap * 2 : 64;
  keel__ibucket *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  for (size_t j = 0; j < st->ix_cap; j++) {
    keel__ibucket *b = &st->ix[j];
    if (!b->used) continue;
    size_t i = (size_t)slot_hash(b->tag, b->where) & (cap - 1);
    while (t[i].used) i = (i + 1) & (cap - 1);
    t[i] = *b;
  }
  free(st->ix);
  st->ix = t;
  st->ix_cap = cap;
  return 1;
}

/* The bucket (tag, where), made when absent, with room for one more id;
 * NULL when out of memory. */
static keel__ibucket *bucket_reserve(keel_state *st, uint8_t tag, int64_t where) {
  keel__ibucket *b = bucket_find(st, tag, where);
  if (!b) {
    if (!table_reserve(st)) return NULL;
    size_t mask = st->ix_cap - 1, i = (size_t)slot_hash(tag, where) & mask;
    while (st->ix[i].used) i = (i + 1) & mask;
    b = &st->ix[i];
    memset(b, 0, sizeof *b);
    b->used = 1; b->tag = tag; b->where = where;
    st->ix_used++;
  }
  size_t cap = b->cap;
  if (!KEEL_RESERVE(b->ids, cap, (size_t)b->n + 1)) return NULL;
  b->cap = cap;
  return b;
}

/* First position in ids[0..n) holding an id >= x. */
static size_t lower(const int32_t *ids, size_t n, int32_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ids[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static void list_add(int32_t *ids, uint32_t *n, int32_t x) {
  size_t at = lower(ids, *n, x);
  if (at < *n && ids[at] == x) return;
  memmove(ids + at + 1, ids + at, (*n - at) * sizeof *ids);
  ids[at] = x;
  (*n)++;
}

static void list_remove(int32_t *ids, uint32_t *n, int32_t x) {
  size_t at = lower(ids, *n, x);
  if (at >= *n || ids[at] != x) return;
  memmove(ids + at, ids + at + 1, (*n - at - 1) * sizeof *ids);
  (*n)--;
}

/* Add (capacity reserved) or remove a unit in bucket (tag, where). */
static void bucket_put(keel_state *st, uint8_t tag, int64_t where, int32_t id, int add) {
  keel__ibucket *b = bucket_find(st, tag, where);
  if (!b) return;   /* cannot happen: prepared (add) or holding the unit (remove) */
  if (add) { if (b->n < b->cap) list_add(b->ids, &b->n, id); }
  else list_remove(b->ids, &b->n, id);
}

/* ---- called by unit.c and group.c ---------------------------------------- */

int keel__index_prepare_unit(keel_state *st, int32_t id, int lk, int64_t where, keel_atom side) {
  if (!bucket_reserve(st, (uint8_t)lk, where) || !bucket_reserve(st, (uint8_t)(TAG_KIND + lk), 0) ||
      !bucket_reserve(st, TAG_SIDE, side))
    return 0;
  return KEEL_RESERVE(st->ix_groups, st->ix_capgroups, (size_t)id);
}

void keel__index_unit(keel_state *st, int32_t id, int lk, int64_t where, keel_atom side, int add) {
  bucket_put(st, (uint8_t)lk, where, id, add);
  bucket_put(st, (uint8_t)(TAG_KIND + lk), 0, id, add);
  bucket_put(st, TAG_SIDE, side, id, add);
  if (add && (size_t)id > st->ix_ngroups) {   /* a fresh unit: in no group */
    for (size_t i = st->ix_ngroups; i < (size_t)id; i++) memset(&st->ix_groups[i], 0, sizeof *st->ix_groups);
    st->ix_ngroups = (size_t)id;
  }
}

int keel__index_prepare_loc(keel_state *st, int lk, int64_t where) {
  return bucket_reserve(st, (uint8_t)lk, where) && bucket_reserve(st, (uint8_t)(TAG_KIND + lk), 0);
}

void keel__index_loc(keel_state *st, int32_t id, int lkf, int64_t from, int lkt, int64_t to) {
  bucket_put(st, (uint8_t)lkf, from, id, 0);
  bucket_put(st, (uint8_t)lkt, to, id, 1);
  if (lkf != lkt) {
    bucket_put(st, (uint8_t)(TAG_KIND + lkf), 0, id, 0);
    bucket_put(st, (uint8_t)(TAG_KIND + lkt), 0, id, 1);
  }
}

int keel__index_prepare_side(keel_state *st, keel_atom side) { return bucket_reserve(st, TAG_SIDE, side) != NULL; }

void keel__index_side(keel_state *st, int32_t id, keel_atom from, keel_atom to) {
  bucket_put(st, TAG_SIDE, from, id, 0);
  bucket_put(st, TAG_SIDE, to, id, 1);
}

int keel__index_prepare_join(keel_state *st, int32_t uid) {
  keel__igroups *m = &st->ix_groups[uid - 1];
  size_t cap = m->cap;
  if (!KEEL_RESERVE_FROM(m->ids, cap, (size_t)m->n + 1, 2)) return 0;
  m->cap = (uint32_t)cap;
  return 1;
}

void keel__index_join(keel_state *st, int32_t gid, int32_t uid, int add) {
  keel__igroups *m = &st->ix_groups[uid - 1];
  if (add) { if (m->n < m->cap) list_add(m->ids, &m->n, gid); }
  else list_remove(m->ids, &m->n, gid);
}

void keel__index_free(keel_state *st) {
  for (size_t i = 0; i < st->ix_cap; i++) free(st->ix[i].ids);
  free(st->ix);
  for (size_t i = 0; i < st->ix_ngroups; i++) free(st->ix_groups[i].ids);
  free(st->ix_groups);
}

size_t keel__index_memory(const keel_state *st) {
  size_t m = st->ix_cap * sizeof *st->ix + st->ix_capgroups * sizeof *st->ix_groups;
  for (size_t i = 0; i < st->ix_cap; i++) m += st->ix[i].cap * sizeof(int32_t);
  for (size_t i = 0; i < st->ix_ngroups; i++) m += st->ix_groups[i].cap * sizeof(int32_t);
  return m;
}

/* ---- queries ------------------------------------------------------------- */

static const int32_t *bucket_ids(const keel_state *st, uint8_t tag, int64_t where, size_t *n) {
  const keel__ibucket *b = bucket_find(st, tag, where);
  *n = b ? b->n : 0;
  return b ? b->ids : NULL;
}

const int32_t *keel_state_units_at(const keel_state *st, keel_loc loc, size_t *n) {
  if ((unsigned)loc.kind >= KEEL_LOC_COUNT) { *n = 0; return NULL; }
  return bucket_ids(st, (uint8_t)loc.kind, loc.where, n);
}

const int32_t *keel_state_units_at_kind(const keel_state *st, keel_loc_kind kind, size_t *n) {
  if ((unsigned)kind >= KEEL_LOC_COUNT) { *n = 0; return NULL; }
  return bucket_ids(st, (uint8_t)(TAG_KIND + kind), 0, n);
}

const int32_t *keel_state_units_of_side(const keel_state *st, keel_atom side, size_t *n) {
  return bucket_ids(st, TAG_SIDE, side, n);
}

const int32_t *keel_state_groups_of(const keel_state *st, int32_t uid, size_t *n) {
  if (!UNIT_OK(st, uid) || (size_t)uid > st->ix_ngroups) { *n = 0; return NULL; }
  *n = st->ix_groups[uid - 1].n;
  return st->ix_groups[uid - 1].ids;
}

static int matches(const keel_state *st, const keel_unit_query *q, int32_t id) {
  const unit *u = &st->units[id - 1];
  if (q->by_loc && (u->lk != q->loc.kind || (q->by_where && u->where != q->loc.where))) return 0;
  if (q->side && u->side != q->side) return 0;
  if (q->type && u->type != q->type) return 0;
  return 1;
}

/* The smallest list holding every unit the query may match: 1, with the
 * list in *ids (n ids; maybe none), or 0: every unit is a candidate. */
static int candidates(const keel_state *st, const keel_unit_query *q, const int32_t **ids, size_t *n) {
  int have = 0;
  size_t k;
  const int32_t *l;
  if (q->by_loc) {
    l = q->by_where ? keel_state_units_at(st, q->loc, &k) : keel_state_units_at_kind(st, q->loc.kind, &k);
    *ids = l; *n = k; have = 1;
  }
  if (q->side) {
    l = keel_state_units_of_side(st, q->side, &k);
    if (!have || k < *n) { *ids = l; *n = k; have = 1; }
  }
  return have;
}

/* Call each(id) for every unit the query matches, in id order. */
#define EACH_MATCH(st, q, id, body) do { \
    const int32_t *ids_ = NULL; size_t n_ = (size_t)(st)->nunits; \
    int list_ = candidates((st), (q), &ids_, &n_); \
    for (size_t i_ = 0; i_ < n_; i_++) { \
      int32_t id = list_ ? ids_[i_] : (int32_t)i_ + 1; \
      if (matches((st), (q), id)) { body; } \
    } \
  } while (0)

keel_status keel_state_find_units(const keel_state *st, const keel_unit_query *q, int32_t *out, size_t cap, size_t *n) {
  if (!q || !n) return KEEL_E_ARG;
  size_t k = 0;
  EACH_MATCH(st, q, id, { if (out && k < cap) out[k] = id; k++; });
  *n = k;
  return k > cap && out ? KEEL_E_CAPACITY : KEEL_OK;
}

static int cmp_id(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

keel_status keel_state_find_groups(const keel_state *st, const keel_unit_query *q, int32_t *out, size_t cap, size_t *n) {
  if (!q || !n) return KEEL_E_ARG;
  size_t k = 0;
  EACH_MATCH(st, q, id, {
    size_t ng;
    const int32_t *gs = keel_state_groups_of(st, id, &ng);
    for (size_t j = 0; j < ng; j++) {
      if (out && k < cap) out[k] = gs[j];
      k++;
    }
  });
  if (!out || k > cap) { *n = k; return out ? KEEL_E_CAPACITY : KEEL_OK; }   /* at most k groups */
  qsort(out, k, sizeof *out, cmp_id);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) if (m == 0 || out[m - 1] != out[i]) out[m++] = out[i];
  *n = m;
  return KEEL_OK;
}
