/*
 * state.c — the life of a keel_state: making one, freeing it, and what it
 * holds in memory. What a state is and how it changes live beside it:
 * atom.c (interned strings), hash.c (FNV-1a and the Zobrist state hash),
 * value.c (named values), unit.c (units, markers, damage primitives),
 * cargo.c, group.c, global.c (game-wide values, hex ownership), keyed.c
 * (keyed values: structured rule data) and undo.c
 * (ops, transactions, actions, undo/redo, the events the journal renders);
 * state_int.h is their shared inside. Writers that read a state: journal.c
 * (JSON lines) and save.c (the save format). See doc/state.md.
 */
#include "state_int.h"
#include <stdlib.h>

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
  st->jkeep = SIZE_MAX;               /* no reader keeps written lines */
  st->undo_depth = KEEL_UNDO_DEPTH;
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
  keel_owner_base_release(st->own_base);
  free(st->base_atoms);
  for (size_t i = 0; i < st->nmaps; i++) free(st->maps[i].e);
  free(st->maps);
  keel__index_free(st);
  free(st->rules);
  free(st->ops);
  free(st->actions);
  free(st->redo_ops);
  free(st->redo);
  free(st->events);
  free(st->etext);
  free(st->jtext);
  free(st->jstart);
  free(st);
}

size_t keel_state_unit_memory(const keel_state *st) {
  size_t m = st->capunits * sizeof(unit);
  for (int32_t i = 0; i < st->initunits; i++)
    m += st->units[i].capval * sizeof(kv) + st->units[i].capmark * sizeof(km);
  return m;
}

size_t keel_state_memory(const keel_state *st) {
  size_t m = sizeof *st + keel_state_unit_memory(st);
  m += st->capatoms * sizeof(atom_rec) + st->atab_cap * sizeof(int32_t);
  for (size_t i = 1; i < st->natoms; i++) m += st->atoms[i].len + 1;
  m += st->capgroups * sizeof(group) + keel__index_memory(st);
  for (int32_t i = 0; i < st->initgroups; i++)
    m += st->groups[i].capmem * sizeof(int32_t) + st->groups[i].capval * sizeof(kv);
  m += st->capglob * sizeof(kv) + st->own_cap * sizeof(own_slot);
  m += st->capmaps * sizeof(keyed_map);
  for (size_t i = 0; i < st->nmaps; i++) m += st->maps[i].cap * sizeof(kv);
  m += st->caprules * sizeof(keel_atom);
  m += st->capops * sizeof(op) + st->capredo_ops * sizeof(op);
  m += st->capactions * sizeof(action_rec) + st->capredo * sizeof(redo_rec);
  m += st->capevents * sizeof(event) + st->capetext;
  m += st->capjtext + st->capjstart * sizeof(size_t);
  return m;
}
