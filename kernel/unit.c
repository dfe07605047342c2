/*
 * unit.c — units (counters): creation, fixed fields, location, named
 * values and markers, and the damage primitives rule modules build their
 * damage models from (hits, markers, points, split, combine, eliminate).
 * Owns the ops OP_UNIT_NEW, OP_UNIT_FIELD and OP_UNIT_MARKER. Ids are 1, 2,
 * 3 ... in creation order; a unit is never removed (the dead pile is a
 * location).
 */
#include "array.h"
#include "state_int.h"
#include <string.h>

/* ---- the ops ------------------------------------------------------------- */

int keel__unit_prepare(keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_UNIT_NEW: {
    /* the records are zeroed once (their arrays are kept and freed with the state) */
    if (!KEEL_RESERVE(st->units, st->capunits, (size_t)st->nunits + 1)) return 0;
    if (st->initunits <= st->nunits) {
      memset(&st->units[st->nunits], 0, sizeof *st->units);
      st->initunits = st->nunits + 1;
    }
    return keel__index_prepare_unit(st, st->nunits + 1, KEEL_LOC_OFF, 0, o->b.u.s);
  }
  case OP_UNIT_FIELD:
    if (o->field == KEEL_F_LOC) return keel__index_prepare_loc(st, o->lkb, o->b.u.i);
    if (o->field == KEEL_F_SIDE) return keel__index_prepare_side(st, o->b.u.s);
    return 1;
  case OP_UNIT_MARKER: {
    unit *u = &st->units[o->id - 1];
    if (o->b.u.i == 0) return 1;
    if ((size_t)u->nmark + 1 > 65535) return 0;
    size_t cap = u->capmark;
    if (!KEEL_RESERVE_FROM(u->mark, cap, (size_t)u->nmark + 1, 1)) return 0;
    u->capmark = (uint16_t)(cap > 65535 ? 65535 : cap);
    return 1;
  }
  default:
    return 1;
  }
}

static void set_field(keel_state *st, const op *o, int forward) {
  keel_value to = forward ? o->b : o->a, from = forward ? o->a : o->b;
  unit *u = &st->units[o->id - 1];
  uint64_t id = (uint64_t)o->id;
  switch (o->field) {
  case KEEL_F_NAME: case KEEL_F_TYPE: case KEEL_F_SIDE: {
    int tag = o->field == KEEL_F_NAME ? T_NAME : o->field == KEEL_F_TYPE ? T_TYPE : T_SIDE;
    st->hash ^= keel__fact((uint64_t)tag, id, keel__atom_hash(st, from.u.s), 0) ^
                keel__fact((uint64_t)tag, id, keel__atom_hash(st, to.u.s), 0);
    if (o->field == KEEL_F_NAME) u->name = to.u.s;
    else if (o->field == KEEL_F_TYPE) u->type = to.u.s;
    else { keel__index_side(st, o->id, from.u.s, to.u.s); u->side = to.u.s; }
    break;
  }
  case KEEL_F_FACE:
    st->hash ^= keel__fact(T_FACE, id, (uint64_t)from.u.i, 0) ^ keel__fact(T_FACE, id, (uint64_t)to.u.i, 0);
    u->face = (uint8_t)to.u.i;
    break;
  case KEEL_F_HITS:
    st->hash ^= keel__fact(T_HITS, id, (uint64_t)from.u.i, 0) ^ keel__fact(T_HITS, id, (uint64_t)to.u.i, 0);
    u->hits = to.u.i;
    break;
  case KEEL_F_POINTS:
    st->hash ^= keel__fact(T_POINTS, id, (uint64_t)from.u.i, 0) ^ keel__fact(T_POINTS, id, (uint64_t)to.u.i, 0);
    u->points = to.u.i;
    break;
  case KEEL_F_LOC: {
    int lkf = forward ? o->lka : o->lkb, lkt = forward ? o->lkb : o->lka;
    st->hash ^= keel__fact(T_LOC, id, keel__loc_hash(lkf, from.u.i), 0) ^
                keel__fact(T_LOC, id, keel__loc_hash(lkt, to.u.i), 0);
    keel__index_loc(st, (int32_t)o->id, lkf, from.u.i, lkt, to.u.i);
    u->lk = (uint8_t)lkt;
    u->where = to.u.i;
    break;
  }
  default: break;
  }
}

void keel__unit_apply(keel_state *st, const op *o, int forward) {
  switch (o->kind) {
  case OP_UNIT_NEW:
    if (forward) {
      unit *u = &st->units[st->nunits++];
      u->name = o->key; u->type = o->a.u.s; u->side = o->b.u.s;
      u->face = KEEL_FACE_FULL; u->lk = KEEL_LOC_OFF;
      u->hits = u->points = u->where = 0;
      u->nval = u->nmark = 0;
      keel__unit_facts(st, st->nunits);
      keel__index_unit(st, st->nunits, KEEL_LOC_OFF, 0, u->side, 1);
    } else {
      keel__unit_facts(st, st->nunits);
      keel__index_unit(st, st->nunits, KEEL_LOC_OFF, 0, st->units[st->nunits - 1].side, 0);
      st->nunits--;
    }
    break;
  case OP_UNIT_FIELD:
    set_field(st, o, forward);
    break;
  case OP_UNIT_MARKER: {
    int64_t from = forward ? o->a.u.i : o->b.u.i, to = forward ? o->b.u.i : o->a.u.i;
    unit *u = &st->units[o->id - 1];
    uint64_t kh = keel__atom_hash(st, o->key);
    if (from) st->hash ^= keel__fact(T_MARKER, (uint64_t)o->id, kh, (uint64_t)from);
    if (to) st->hash ^= keel__fact(T_MARKER, (uint64_t)o->id, kh, (uint64_t)to);
    u->nmark = (uint16_t)keel__km_put(st, u->mark, u->nmark, o->key, to);
    break;
  }
  default: break;
  }
}

/* ---- units ------------------------------------------------------------------ */

keel_status keel_state_unit_new(keel_state *st, keel_atom name, keel_atom type, keel_atom side, int32_t *id) {
  if (!keel__atom_ok(st, name) || !keel__atom_ok(st, type) || !keel__atom_ok(st, side)) return KEEL_E_ARG;
  if (st->nunits >= 0x7ffffffe) return KEEL_E_RANGE;
  op o = { .kind = OP_UNIT_NEW, .key = name, .id = st->nunits + 1 };
  o.a = keel__vatom(type);
  o.b = keel__vatom(side);
  keel_status s = keel__state_push(st, &o);
  if (s == KEEL_OK && id) *id = st->nunits;
  return s;
}

int32_t keel_state_count_units(const keel_state *st) { return st->nunits; }

keel_status keel_state_get_unit(const keel_state *st, int32_t id, keel_unit_info *out) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  const unit *u = &st->units[id - 1];
  out->id = id;
  out->name = u->name; out->type = u->type; out->side = u->side;
  out->face = (keel_face)u->face;
  out->hits = u->hits; out->points = u->points;
  out->loc.kind = (keel_loc_kind)u->lk; out->loc.where = u->where;
  return KEEL_OK;
}

keel_status keel_state_set(keel_state *st, int32_t id, keel_field f, int64_t v) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  unit *u = &st->units[id - 1];
  op o = { .kind = OP_UNIT_FIELD, .field = (uint8_t)f, .id = id };
  switch (f) {
  case KEEL_F_NAME: case KEEL_F_TYPE: case KEEL_F_SIDE:
    if (v < 0 || (size_t)v >= st->natoms || (f == KEEL_F_NAME && v == 0)) return KEEL_E_ARG;
    o.a = keel__vatom(f == KEEL_F_NAME ? u->name : f == KEEL_F_TYPE ? u->type : u->side);
    o.b = keel__vatom((keel_atom)v);
    break;
  case KEEL_F_FACE:
    if (v < 0 || v >= KEEL_FACE_COUNT) return KEEL_E_ARG;
    o.a = keel__vint(u->face); o.b = keel__vint(v);
    break;
  case KEEL_F_HITS: case KEEL_F_POINTS:
    if (v < 0) return KEEL_E_ARG;
    o.a = keel__vint(f == KEEL_F_HITS ? u->hits : u->points); o.b = keel__vint(v);
    break;
  default:
    return KEEL_E_ARG;
  }
  if (keel__value_eq(o.a, o.b)) return KEEL_OK;
  return keel__state_push(st, &o);
}

keel_status keel_state_move(keel_state *st, int32_t id, keel_loc loc) {
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
  o.a = keel__vint(u->where);
  o.b = keel__vint(loc.where);
  return keel__state_push(st, &o);
}

keel_status keel_state_get_value(const keel_state *st, int32_t id, keel_atom key, keel_value *out) {
  return keel__value_get(st, OP_UNIT_VALUE, id, key, out);
}

keel_status keel_state_set_value(keel_state *st, int32_t id, keel_atom key, keel_value v) {
  return keel__value_set(st, OP_UNIT_VALUE, id, key, v);
}

size_t keel_state_count_values(const keel_state *st, int32_t id) {
  return keel__value_count(st, OP_UNIT_VALUE, id);
}

keel_status keel_state_at_value(const keel_state *st, int32_t id, size_t i, keel_atom *key, keel_value *v) {
  return keel__value_at(st, OP_UNIT_VALUE, id, i, key, v);
}

/* ---- markers ------------------------------------------------------------------ */

int64_t keel_state_get_marker(const keel_state *st, int32_t id, keel_atom key) {
  if (!UNIT_OK(st, id) || key <= 0) return 0;
  const unit *u = &st->units[id - 1];
  size_t at;
  return keel__key_find(st, u->mark, sizeof *u->mark, u->nmark, key, &at) ? u->mark[at].n : 0;
}

keel_status keel_state_set_marker(keel_state *st, int32_t id, keel_atom key, int64_t count) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  if (key <= 0 || !keel__atom_ok(st, key)) return KEEL_E_ARG;
  op o = { .kind = OP_UNIT_MARKER, .id = id, .key = key };
  o.a = keel__vint(keel_state_get_marker(st, id, key));
  o.b = keel__vint(count);
  if (o.a.u.i == count) return KEEL_OK;
  return keel__state_push(st, &o);
}

size_t keel_state_count_markers(const keel_state *st, int32_t id) {
  return UNIT_OK(st, id) ? st->units[id - 1].nmark : 0;
}

keel_status keel_state_at_marker(const keel_state *st, int32_t id, size_t i, keel_atom *key, int64_t *count) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  const unit *u = &st->units[id - 1];
  if (i >= u->nmark) return KEEL_E_RANGE;
  *key = u->mark[i].key;
  *count = u->mark[i].n;
  return KEEL_OK;
}

/* ---- damage primitives ------------------------------------------------------- */

keel_status keel_state_add_hits(keel_state *st, int32_t id, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t h = st->units[id - 1].hits;
  if ((n > 0 && h > INT64_MAX - n) || h + n < 0) return KEEL_E_ARG;
  return keel_state_set(st, id, KEEL_F_HITS, h + n);
}

keel_status keel_state_add_marker(keel_state *st, int32_t id, keel_atom key, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t c = keel_state_get_marker(st, id, key);
  if ((n > 0 && c > INT64_MAX - n) || (n < 0 && c < INT64_MIN - n)) return KEEL_E_RANGE;
  return keel_state_set_marker(st, id, key, c + n);
}

keel_status keel_state_reduce_points(keel_state *st, int32_t id, int64_t n) {
  if (!UNIT_OK(st, id)) return KEEL_E_NOT_FOUND;
  int64_t p = st->units[id - 1].points;
  if (n < 0 || n > p) return KEEL_E_ARG;
  return keel_state_set(st, id, KEEL_F_POINTS, p - n);
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
  if (s == KEEL_OK) s = keel_state_set(st, nid, KEEL_F_FACE, u.face);
  for (uint16_t i = 0; s == KEEL_OK && i < u.nval; i++) {
    keel_value v = st->units[id - 1].val[i].v;
    s = keel_state_set_value(st, nid, st->units[id - 1].val[i].key, v);
  }
  if (s == KEEL_OK) s = keel_state_set(st, nid, KEEL_F_POINTS, points);
  if (s == KEEL_OK) s = keel_state_move(st, nid, (keel_loc){ (keel_loc_kind)u.lk, u.where });
  if (s == KEEL_OK) s = keel_state_set(st, id, KEEL_F_POINTS, u.points - points);
  if (s != KEEL_OK) { keel_state_rollback(st, &m); return s; }
  if (new_id) *new_id = nid;
  return keel_state_commit(st, &m);
}

/* Unit id leaves every group it is in, the lowest group id first. */
static keel_status leave_groups(keel_state *st, int32_t id) {
  for (;;) {
    size_t n;
    const int32_t *gs = keel_state_groups_of(st, id, &n);
    if (n == 0) return KEEL_OK;
    keel_status s = keel_state_group_remove(st, gs[0], id);
    if (s != KEEL_OK) return s;
  }
}

keel_status keel_state_combine(keel_state *st, int32_t a, int32_t b) {
  if (!UNIT_OK(st, a) || !UNIT_OK(st, b)) return KEEL_E_NOT_FOUND;
  if (a == b) return KEEL_E_ARG;
  int64_t pa = st->units[a - 1].points, pb = st->units[b - 1].points;
  if (pa > INT64_MAX - pb) return KEEL_E_RANGE;
  keel_mark m;
  keel_status s = keel_state_begin(st, &m);
  if (s != KEEL_OK) return s;
  s = keel_state_set(st, a, KEEL_F_POINTS, pa + pb);
  if (s == KEEL_OK) s = keel_state_set(st, b, KEEL_F_POINTS, 0);
  s = s == KEEL_OK ? leave_groups(st, b) : s;
  if (s == KEEL_OK) s = keel_state_move(st, b, (keel_loc){ KEEL_LOC_OFF, 0 });
  if (s != KEEL_OK) { keel_state_rollback(st, &m); return s; }
  return keel_state_commit(st, &m);
}

static keel_status eliminate(keel_state *st, int32_t id, int depth) {
  if (depth > st->nunits) return KEEL_E_STATE;
  keel_status s = KEEL_OK;
  /* the cargo, lowest id first (each leaves the list as it goes) */
  for (;;) {
    size_t n;
    const int32_t *cargo = keel_state_units_at(st, (keel_loc){ KEEL_LOC_UNIT, id }, &n);
    if (n == 0) break;
    s = eliminate(st, cargo[0], depth + 1);
    if (s != KEEL_OK) return s;
  }
  s = leave_groups(st, id);
  if (s == KEEL_OK) s = keel_state_move(st, id, (keel_loc){ KEEL_LOC_DEAD, 0 });
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
