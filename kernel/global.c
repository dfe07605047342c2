/*
 * global.c — what belongs to the game as a whole: game-wide named values
 * (turn, phase, weather, VPs ...; stored and changed by value.c) and hex
 * ownership (hex -> side, an open-addressing map that never shrinks). Owns
 * the op OP_OWNER.
 */
#include "state_int.h"
#include <stdlib.h>

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

keel_atom keel_state_get_owner(const keel_state *st, keel_hex h) {
  const own_slot *s = own_lookup(st, h);
  return s ? s->side : 0;
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
