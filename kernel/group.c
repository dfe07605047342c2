/*
 * group.c — groups: ordered sets of units with named attributes (mp, kind,
 * known, reserve, ...). Ids 1, 2, 3 ... in creation order. Owns the ops
 * OP_GROUP_NEW, OP_GROUP_INSERT and OP_GROUP_REMOVE; a group's membership
 * hashes as the links between neighbours in its list, so order counts.
 */
#include "array.h"
#include "state_int.h"
#include <string.h>

/* ---- the ops ------------------------------------------------------------- */

int keel__group_prepare(keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_GROUP_NEW:
    /* the records are zeroed once (their arrays are kept and freed with the state) */
    if (!KEEL_RESERVE(st->groups, st->capgroups, (size_t)st->ngroups + 1)) return 0;
    if (st->initgroups <= st->ngroups) {
      memset(&st->groups[st->ngroups], 0, sizeof *st->groups);
      st->initgroups = st->ngroups + 1;
    }
    return 1;
  case OP_GROUP_INSERT: {
    group *g = &st->groups[o->id - 1];
    return KEEL_RESERVE(g->mem, g->capmem, (size_t)g->nmem + 1) && keel__index_prepare_join(st, (int32_t)o->a.u.i);
  }
  default:
    return 1;
  }
}

static void insert(keel_state *st, int32_t g, int32_t u, size_t pos) {
  group *gr = &st->groups[g - 1];
  int32_t prev = pos > 0 ? gr->mem[pos - 1] : 0;
  int32_t next = pos < gr->nmem ? gr->mem[pos] : 0;
  st->hash ^= keel__glink(g, prev, next) ^ keel__glink(g, prev, u) ^ keel__glink(g, u, next);
  memmove(gr->mem + pos + 1, gr->mem + pos, (gr->nmem - pos) * sizeof *gr->mem);
  gr->mem[pos] = u;
  gr->nmem++;
  keel__index_join(st, g, u, 1);
}

static void erase(keel_state *st, int32_t g, size_t pos) {
  group *gr = &st->groups[g - 1];
  int32_t u = gr->mem[pos];
  int32_t prev = pos > 0 ? gr->mem[pos - 1] : 0;
  int32_t next = pos + 1 < gr->nmem ? gr->mem[pos + 1] : 0;
  st->hash ^= keel__glink(g, prev, next) ^ keel__glink(g, prev, u) ^ keel__glink(g, u, next);
  memmove(gr->mem + pos, gr->mem + pos + 1, (gr->nmem - pos - 1) * sizeof *gr->mem);
  gr->nmem--;
  keel__index_join(st, g, u, 0);
}

void keel__group_apply(keel_state *st, const op *o, int forward) {
  switch (o->kind) {
  case OP_GROUP_NEW:   /* a fresh group: its name, and the link of its empty list */
    if (forward) {
      group *g = &st->groups[st->ngroups++];
      g->name = o->key; g->nmem = 0; g->nval = 0;
    }
    st->hash ^= keel__fact(T_GNAME, (uint64_t)st->ngroups, keel__atom_hash(st, st->groups[st->ngroups - 1].name), 0) ^
                keel__glink(st->ngroups, 0, 0);
    if (!forward) st->ngroups--;
    break;
  case OP_GROUP_INSERT:
  case OP_GROUP_REMOVE:
    if ((o->kind == OP_GROUP_INSERT) == (forward != 0)) insert(st, (int32_t)o->id, (int32_t)o->a.u.i, (size_t)o->pos);
    else erase(st, (int32_t)o->id, (size_t)o->pos);
    break;
  default: break;
  }
}

/* ---- groups ------------------------------------------------------------------ */

keel_status keel_state_group_new(keel_state *st, keel_atom name, int32_t *id) {
  if (!keel__atom_ok(st, name)) return KEEL_E_ARG;
  if (st->ngroups >= 0x7ffffffe) return KEEL_E_RANGE;
  op o = { .kind = OP_GROUP_NEW, .key = name, .id = st->ngroups + 1 };
  keel_status s = keel__state_push(st, &o);
  if (s == KEEL_OK && id) *id = st->ngroups;
  return s;
}

int32_t keel_state_count_groups(const keel_state *st) { return st->ngroups; }

keel_atom keel_state_group_get_name(const keel_state *st, int32_t gid) {
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
  o.a = keel__vint(u);
  return keel__state_push(st, &o);
}

keel_status keel_state_group_remove(keel_state *st, int32_t gid, int32_t u) {
  if (!GROUP_OK(st, gid)) return KEEL_E_NOT_FOUND;
  size_t at;
  if (!group_pos(st, gid, u, &at)) return KEEL_OK;
  op o = { .kind = OP_GROUP_REMOVE, .id = gid, .pos = (int32_t)at };
  o.a = keel__vint(u);
  return keel__state_push(st, &o);
}

size_t keel_state_group_count_units(const keel_state *st, int32_t gid) {
  return GROUP_OK(st, gid) ? st->groups[gid - 1].nmem : 0;
}

int32_t keel_state_group_at_unit(const keel_state *st, int32_t gid, size_t i) {
  if (!GROUP_OK(st, gid) || i >= st->groups[gid - 1].nmem) return 0;
  return st->groups[gid - 1].mem[i];
}

keel_status keel_state_group_get_value(const keel_state *st, int32_t gid, keel_atom key, keel_value *out) {
  return keel__value_get(st, OP_GROUP_VALUE, gid, key, out);
}

keel_status keel_state_group_set_value(keel_state *st, int32_t gid, keel_atom key, keel_value v) {
  return keel__value_set(st, OP_GROUP_VALUE, gid, key, v);
}

size_t keel_state_group_count_values(const keel_state *st, int32_t gid) {
  return keel__value_count(st, OP_GROUP_VALUE, gid);
}

keel_status keel_state_group_at_value(const keel_state *st, int32_t gid, size_t i, keel_atom *key, keel_value *v) {
  return keel__value_at(st, OP_GROUP_VALUE, gid, i, key, v);
}
