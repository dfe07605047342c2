/*
 * cargo.c — cargo: the units inside a carrier (location KEEL_LOC_UNIT), and
 * the capacity check over carriers that carry together. Reads units only;
 * moving cargo on or off is keel_state_move (unit.c).
 */
#include "state_int.h"
#include <stdio.h>
#include <string.h>

keel_status keel_state_cargo(const keel_state *st, int32_t carrier, int32_t *out, size_t cap, size_t *n) {
  if (!UNIT_OK(st, carrier)) return KEEL_E_NOT_FOUND;
  size_t k;
  const int32_t *in = keel_state_units_at(st, (keel_loc){ KEEL_LOC_UNIT, carrier }, &k);
  if (out && k) memcpy(out, in, (k < cap ? k : cap) * sizeof *out);
  *n = k;
  return k > cap && out ? KEEL_E_CAPACITY : KEEL_OK;
}

static int64_t int_value(const keel_state *st, int32_t id, keel_atom key) {
  if (!key) return 0;
  const unit *u = &st->units[id - 1];
  keel_value v = keel__kv_get(st, u->val, u->nval, key);
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
