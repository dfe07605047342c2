/*
 * atom.c — interned strings (atoms) of a state: one copy of each text, an
 * id for it (1, 2, 3 ... in order of first use; 0 is "none") and its FNV
 * hash, found through an open-addressing table. Atoms are never freed
 * before the state, and their ids depend on history, so nothing hashed or
 * saved uses an id: comparisons and hashes go through the text.
 */
#include "array.h"
#include "state_int.h"
#include <stdlib.h>
#include <string.h>

static void atab_insert(int32_t *tab, size_t cap, uint64_t h, int32_t id) {
  size_t i = (size_t)keel__mix(h) & (cap - 1);
  while (tab[i]) i = (i + 1) & (cap - 1);
  tab[i] = id;
}

keel_atom keel_state_atom_find(const keel_state *st, const char *s, size_t len) {
  uint64_t h = keel_hash_bytes(s, len);
  size_t i = (size_t)keel__mix(h) & (st->atab_cap - 1);
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
  if (!KEEL_RESERVE(st->atoms, st->capatoms, st->natoms + 1)) return KEEL_E_NOMEM;
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

int keel__atom_ok(const keel_state *st, keel_atom a) { return a >= 0 && (size_t)a < st->natoms; }

int keel__atom_cmp(const keel_state *st, keel_atom a, keel_atom b) {
  if (a == b) return 0;
  const atom_rec *x = &st->atoms[a], *y = &st->atoms[b];
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->s, y->s, n);
  if (c) return c;
  return x->len < y->len ? -1 : 1;
}
