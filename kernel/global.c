/*
 * global.c — what belongs to the game as a whole: game-wide named values
 * (turn, phase, weather, VPs ...; stored and changed by value.c) and hex
 * ownership (hex -> side, an open-addressing map that never shrinks, over
 * an optional base shared by many games: the owners a board declares, so
 * a new game on a big board sets none of them one by one). Owns the op
 * OP_OWNER.
 */
#include "state_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- globals ----------------------------------------------------------------- */

keel_value keel_state_get_global(const keel_state *st, keel_atom key) {
  return keel__kv_get(st, st->glob, st->nglob, key);
}

keel_status keel_state_set_global(keel_state *st, keel_atom key, keel_value v) {
  return keel__value_set(st, OP_GLOBAL, 0, key, v);
}

size_t keel_state_count_globals(const keel_state *st) { return st->nglob; }

keel_status keel_state_at_global(const keel_state *st, size_t i, keel_atom *key, keel_value *v) {
  return keel__value_at(st, OP_GLOBAL, 0, i, key, v);
}

/* ---- ownership --------------------------------------------------------------- */

static own_slot *own_lookup(const keel_state *st, keel_hex h) {
  if (!st->own_cap) return NULL;
  size_t i = (size_t)keel__mix((uint64_t)h) & (st->own_cap - 1);
  while (st->own[i].used) {
    if (st->own[i].hex == h) return &st->own[i];
    i = (i + 1) & (st->own_cap - 1);
  }
  return NULL;
}

static own_slot *own_insert_slot(keel_state *st, keel_hex h) {
  size_t i = (size_t)keel__mix((uint64_t)h) & (st->own_cap - 1);
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

int keel__owner_prepare(keel_state *st, const op *o) {
  return own_lookup(st, (keel_hex)o->id) != NULL || own_reserve(st);
}

void keel__owner_apply(keel_state *st, const op *o, int forward) {
  keel_value to = forward ? o->b : o->a, from = forward ? o->a : o->b;
  keel_hex h = (keel_hex)o->id;
  if (from.u.s) { st->hash ^= keel__fact(T_OWNER, (uint64_t)h, keel__atom_hash(st, from.u.s), 0); st->own_count--; }
  if (to.u.s) { st->hash ^= keel__fact(T_OWNER, (uint64_t)h, keel__atom_hash(st, to.u.s), 0); st->own_count++; }
  own_slot *s = own_lookup(st, h);
  if (!s) {
    s = own_insert_slot(st, h);
    s->used = 1; s->hex = h;
    st->own_used++;
  }
  s->side = to.u.s;
  st->own_version++;
}

/* ---- shared owners (a base): open addressing, side index + 1 (0: empty) --- */

struct keel_owner_base {
  size_t refs, n, cap;          /* cap: a power of 2, at least twice n */
  keel_hex *hex;
  uint8_t *side;                /* index + 1 of the side in names; 0: an empty slot */
  char **names; size_t nnames;
  uint64_t *name_hash;          /* keel_hash_bytes of each name: its atom's hash in any state */
  uint64_t hash;                /* the XOR of its owner facts */
};

static size_t base_find(const keel_owner_base *b, keel_hex h) {
  size_t i = (size_t)keel__mix((uint64_t)h) & (b->cap - 1);
  while (b->side[i] && b->hex[i] != h) i = (i + 1) & (b->cap - 1);
  return i;
}

void keel_owner_base_release(keel_owner_base *b) {
  if (!b || --b->refs) return;
  for (size_t i = 0; i < b->nnames; i++) free(b->names[i]);
  free(b->names);
  free(b->name_hash);
  free(b->hex);
  free(b->side);
  free(b);
}

keel_status keel_owner_base_new(const keel_hex *hexes, const uint8_t *sides, size_t n,
                                const char *const *names, size_t nnames, keel_owner_base **out) {
  if (!out || (n && (!hexes || !sides)) || nnames > 255 || (nnames && !names) || n > SIZE_MAX / 4) return KEEL_E_ARG;
  *out = NULL;
  for (size_t i = 0; i < n; i++)
    if (sides[i] >= nnames || !keel_hex_is_valid(hexes[i])) return KEEL_E_ARG;
  for (size_t i = 0; i < nnames; i++)
    if (!names[i]) return KEEL_E_ARG;
  keel_owner_base *b = calloc(1, sizeof *b);
  if (!b) return KEEL_E_NOMEM;
  b->refs = 1;
  b->cap = 16;
  while (b->cap < 2 * n) b->cap *= 2;
  b->hex = malloc(b->cap * sizeof *b->hex);
  b->side = calloc(b->cap, 1);
  b->names = calloc(nnames ? nnames : 1, sizeof *b->names);
  b->name_hash = calloc(nnames ? nnames : 1, sizeof *b->name_hash);
  if (!b->hex || !b->side || !b->names || !b->name_hash) { keel_owner_base_release(b); return KEEL_E_NOMEM; }
  for (size_t i = 0; i < nnames; i++) {
    size_t len = strlen(names[i]);
    b->names[i] = malloc(len + 1);
    if (!b->names[i]) { keel_owner_base_release(b); return KEEL_E_NOMEM; }
    memcpy(b->names[i], names[i], len + 1);
    b->nnames = i + 1;
    b->name_hash[i] = keel_hash_bytes(names[i], len);
  }
  for (size_t i = 0; i < n; i++) {
    size_t at = base_find(b, hexes[i]);
    if (b->side[at]) b->hash ^= keel__fact(T_OWNER, (uint64_t)hexes[i], b->name_hash[b->side[at] - 1], 0);
    else { b->hex[at] = hexes[i]; b->n++; }
    b->side[at] = (uint8_t)(sides[i] + 1);
    b->hash ^= keel__fact(T_OWNER, (uint64_t)hexes[i], b->name_hash[sides[i]], 0);
  }
  *out = b;
  return KEEL_OK;
}

size_t keel_owner_base_count(const keel_owner_base *b) { return b ? b->n : 0; }

keel_status keel_state_set_owner_base(keel_state *st, keel_owner_base *b) {
  if (!b) return KEEL_E_ARG;
  if (st->frozen) return KEEL_E_FROZEN;
  if (st->own_base || st->own_used || st->depth || st->nactions) return KEEL_E_STATE;
  keel_atom *atoms = calloc(b->nnames ? b->nnames : 1, sizeof *atoms);
  if (!atoms) return KEEL_E_NOMEM;
  for (size_t i = 0; i < b->nnames; i++) {
    keel_status s = keel_state_intern(st, b->names[i], strlen(b->names[i]), &atoms[i]);
    if (s != KEEL_OK) { free(atoms); return s; }
  }
  b->refs++;
  st->own_base = b;
  st->base_atoms = atoms;
  st->own_count = b->n;
  st->hash ^= b->hash;
  st->own_version++;
  st->version++;
  return KEEL_OK;
}

/* base's side of h as the state's atom (0: none) */
static keel_atom base_owner(const keel_state *st, keel_hex h) {
  const keel_owner_base *b = st->own_base;
  if (!b) return 0;
  size_t at = base_find(b, h);
  return b->side[at] ? st->base_atoms[b->side[at] - 1] : 0;
}

uint64_t keel__owner_base_hash(const keel_state *st) {
  const keel_owner_base *b = st->own_base;
  if (!b) return 0;
  uint64_t h = b->hash;
  for (size_t i = 0; i < st->own_cap; i++) {    /* a set owner hides base's */
    if (!st->own[i].used) continue;
    size_t at = base_find(b, st->own[i].hex);
    if (b->side[at]) h ^= keel__fact(T_OWNER, (uint64_t)st->own[i].hex, b->name_hash[b->side[at] - 1], 0);
  }
  return h;
}

size_t keel__owned(const keel_state *st, own_slot *out) {
  size_t n = 0;
  for (size_t i = 0; i < st->own_cap; i++)
    if (st->own[i].used && st->own[i].side) out[n++] = st->own[i];
  const keel_owner_base *b = st->own_base;
  if (b)
    for (size_t i = 0; i < b->cap; i++)
      if (b->side[i] && !own_lookup(st, b->hex[i]))
        out[n++] = (own_slot){ b->hex[i], st->base_atoms[b->side[i] - 1], 1 };
  return n;
}

keel_atom keel_state_get_owner(const keel_state *st, keel_hex h) {
  const own_slot *s = own_lookup(st, h);
  return s ? s->side : base_owner(st, h);
}

keel_status keel_state_set_owner(keel_state *st, keel_hex h, keel_atom side) {
  if (!keel_hex_is_valid(h) || !keel__atom_ok(st, side)) return KEEL_E_ARG;
  keel_atom cur = keel_state_get_owner(st, h);
  if (cur == side) return KEEL_OK;
  op o = { .kind = OP_OWNER, .id = h };
  o.a = keel__vatom(cur);
  o.b = keel__vatom(side);
  return keel__state_push(st, &o);
}

size_t keel_state_count_owned(const keel_state *st) { return st->own_count; }

uint64_t keel_state_get_owner_version(const keel_state *st) { return st->own_version; }
