/*
 * hash.c — hashing: the kernel's one byte hash (FNV-1a 64, keel_hash_bytes:
 * atoms, rule files, save checksums, dice stream names) and the state's
 * Zobrist hash. The state hash is the XOR of one 64-bit key per fact (unit
 * 3 has 2 hits, group 1 has unit 7 right after unit 4, ...); every op XORs
 * out the facts it ends and in the ones it starts, so equal states hash
 * equal whatever their history, and keel_state_hash_full recomputes the
 * same number from scratch. String facts hash the text, never the atom id.
 */
#include "state_int.h"
#include <string.h>

uint64_t keel_hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 0x100000001b3ULL; }
  return h;
}

uint64_t keel__atom_hash(const keel_state *st, keel_atom a) {
  if (a <= 0 || (size_t)a >= st->natoms) return 0;
  return st->atoms[a].h;     /* atom.c stores each atom's keel_hash_bytes */
}

uint64_t keel__mix(uint64_t x) {
  x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27; x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

uint64_t keel__fact(uint64_t tag, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = keel__mix(tag * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL);
  h = keel__mix(h ^ a);
  h = keel__mix(h + b);
  h = keel__mix(h ^ c);
  return h | 1;   /* never 0: a fact always changes the hash */
}

static uint64_t vhash(const keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_BOOL: return keel__mix(0x100 + (uint64_t)(v.u.i != 0));
  case KEEL_V_INT: return keel__mix(0x200 ^ keel__mix((uint64_t)v.u.i));
  case KEEL_V_FLOAT: {
    double f = v.u.f == 0 ? 0.0 : v.u.f;     /* -0 == 0 */
    uint64_t bits; memcpy(&bits, &f, sizeof bits);
    return keel__mix(0x300 ^ keel__mix(bits));
  }
  case KEEL_V_STR: return keel__mix(0x400 ^ keel__atom_hash(st, v.u.s));
  default: return 0;
  }
}

void keel__hash_kv(keel_state *st, uint64_t tag, uint64_t id, keel_atom key, keel_value v) {
  if (v.kind == KEEL_V_NIL) return;
  st->hash ^= keel__fact(tag, id, keel__atom_hash(st, key), vhash(st, v));
}

uint64_t keel__loc_hash(int lk, int64_t where) {
  return keel__mix(((uint64_t)lk << 56) ^ keel__mix((uint64_t)where));
}

void keel__unit_facts(keel_state *st, int32_t id) {
  const unit *u = &st->units[id - 1];
  st->hash ^= keel__fact(T_NAME, (uint64_t)id, keel__atom_hash(st, u->name), 0);
  st->hash ^= keel__fact(T_TYPE, (uint64_t)id, keel__atom_hash(st, u->type), 0);
  st->hash ^= keel__fact(T_SIDE, (uint64_t)id, keel__atom_hash(st, u->side), 0);
  st->hash ^= keel__fact(T_FACE, (uint64_t)id, u->face, 0);
  st->hash ^= keel__fact(T_HITS, (uint64_t)id, (uint64_t)u->hits, 0);
  st->hash ^= keel__fact(T_POINTS, (uint64_t)id, (uint64_t)u->points, 0);
  st->hash ^= keel__fact(T_LOC, (uint64_t)id, keel__loc_hash(u->lk, u->where), 0);
}

uint64_t keel__glink(int32_t g, int32_t prev, int32_t next) {
  return keel__fact(T_GLINK, (uint64_t)g, (uint64_t)(uint32_t)prev, (uint64_t)(uint32_t)next);
}

uint64_t keel_state_hash(const keel_state *st) { return st->hash; }

uint64_t keel_state_hash_full(const keel_state *st) {
  keel_state tmp = *st;     /* the helpers XOR into tmp.hash only */
  tmp.hash = 0;
  keel_state *t = &tmp;
  for (int32_t id = 1; id <= st->nunits; id++) {
    const unit *u = &st->units[id - 1];
    keel__unit_facts(t, id);
    for (uint16_t i = 0; i < u->nval; i++) keel__hash_kv(t, T_VALUE, (uint64_t)id, u->val[i].key, u->val[i].v);
    for (uint16_t i = 0; i < u->nmark; i++)
      t->hash ^= keel__fact(T_MARKER, (uint64_t)id, keel__atom_hash(st, u->mark[i].key), (uint64_t)u->mark[i].n);
  }
  for (int32_t g = 1; g <= st->ngroups; g++) {
    const group *gr = &st->groups[g - 1];
    t->hash ^= keel__fact(T_GNAME, (uint64_t)g, keel__atom_hash(st, gr->name), 0);
    for (size_t i = 0; i <= gr->nmem; i++)
      t->hash ^= keel__glink(g, i > 0 ? gr->mem[i - 1] : 0, i < gr->nmem ? gr->mem[i] : 0);
    for (uint16_t i = 0; i < gr->nval; i++) keel__hash_kv(t, T_GVALUE, (uint64_t)g, gr->val[i].key, gr->val[i].v);
  }
  for (size_t i = 0; i < st->nglob; i++) keel__hash_kv(t, T_GLOBAL, 0, st->glob[i].key, st->glob[i].v);
  for (size_t m = 0; m < st->nmaps; m++) {
    const keyed_map *map = &st->maps[m];
    for (size_t i = 0; i < map->n; i++)
      keel__hash_kv(t, T_KEYED, keel__atom_hash(st, map->name), map->e[i].key, map->e[i].v);
  }
  for (size_t i = 0; i < st->own_cap; i++)
    if (st->own[i].used && st->own[i].side)
      t->hash ^= keel__fact(T_OWNER, (uint64_t)st->own[i].hex, keel__atom_hash(st, st->own[i].side), 0);
  t->hash ^= keel__owner_base_hash(st);   /* the shared owners no set one hides */
  return tmp.hash;
}
