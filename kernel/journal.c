/*
 * journal.c — the journal: one JSON line per event, fields in a fixed
 * order, written with the kernel's JSON writer (json.c). See
 * doc/journal.md for every event's fields.
 */
#include "state_int.h"
#include <stdlib.h>
#include <string.h>

const char *keel__loc_name(keel_loc_kind k) {
  static const char *const names[KEEL_LOC_COUNT] = { "off", "hex", "port", "box", "zone", "unit", "dead" };
  return (unsigned)k < KEEL_LOC_COUNT ? names[k] : "?";
}

const char *keel__field_name(keel_field f) {
  static const char *const names[KEEL_F_COUNT] = { "name", "type", "side", "face", "hits", "points", "loc" };
  return (unsigned)f < KEEL_F_COUNT ? names[f] : "?";
}

const char *keel__face_name(keel_face f) {
  static const char *const names[KEEL_FACE_COUNT] = { "full", "damaged", "half" };
  return (unsigned)f < KEEL_FACE_COUNT ? names[f] : "?";
}

static int json_loc(keel__buf *b, int lk, int64_t where) {
  char tmp[48];
  int n;
  if (lk == KEEL_LOC_OFF || lk == KEEL_LOC_DEAD) n = snprintf(tmp, sizeof tmp, "\"%s\"", keel__loc_name((keel_loc_kind)lk));
  else n = snprintf(tmp, sizeof tmp, "\"%s:%lld\"", keel__loc_name((keel_loc_kind)lk), (long long)where);
  return keel__json_raw(b, tmp, (size_t)n);
}

#define RAW(s) keel__json_raw(b, s, sizeof(s) - 1)

static int head(keel__buf *b, const keel_state *st, const char *ev, keel_atom rule) {
  return RAW("{\"ev\":\"") && keel__json_raw(b, ev, strlen(ev)) && RAW("\",\"rule\":") &&
         keel__json_atom(b, st, rule);
}

static int old_new(keel__buf *b, const keel_state *st, keel_value a, keel_value v) {
  return RAW(",\"old\":") && keel__json_value(b, st, a) && RAW(",\"new\":") && keel__json_value(b, st, v);
}

static int render(keel__buf *b, const keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_UNIT_NEW:
    return head(b, st, "unit", o->rule) && RAW(",\"unit\":") && keel__json_int(b, o->id) &&
           RAW(",\"name\":") && keel__json_atom(b, st, o->key) &&
           RAW(",\"type\":") && keel__json_atom(b, st, o->a.u.s) &&
           RAW(",\"side\":") && keel__json_atom(b, st, o->b.u.s) && RAW("}");
  case OP_UNIT_FIELD: {
    const char *f = keel__field_name((keel_field)o->field);
    int ok = head(b, st, "set", o->rule) && RAW(",\"unit\":") && keel__json_int(b, o->id) &&
             RAW(",\"field\":\"") && keel__json_raw(b, f, strlen(f)) && RAW("\"");
    if (!ok) return 0;
    if (o->field == KEEL_F_LOC)
      return RAW(",\"old\":") && json_loc(b, o->lka, o->a.u.i) && RAW(",\"new\":") && json_loc(b, o->lkb, o->b.u.i) && RAW("}");
    if (o->field == KEEL_F_FACE) {
      const char *x = keel__face_name((keel_face)o->a.u.i), *y = keel__face_name((keel_face)o->b.u.i);
      return RAW(",\"old\":\"") && keel__json_raw(b, x, strlen(x)) && RAW("\",\"new\":\"") &&
             keel__json_raw(b, y, strlen(y)) && RAW("\"}");
    }
    return old_new(b, st, o->a, o->b) && RAW("}");
  }
  case OP_UNIT_VALUE:
  case OP_UNIT_MARKER:
    return head(b, st, o->kind == OP_UNIT_VALUE ? "value" : "marker", o->rule) &&
           RAW(",\"unit\":") && keel__json_int(b, o->id) &&
           RAW(",\"key\":") && keel__json_atom(b, st, o->key) && old_new(b, st, o->a, o->b) && RAW("}");
  case OP_GROUP_NEW:
    return head(b, st, "group", o->rule) && RAW(",\"group\":") && keel__json_int(b, o->id) &&
           RAW(",\"name\":") && keel__json_atom(b, st, o->key) && RAW("}");
  case OP_GROUP_VALUE:
    return head(b, st, "gvalue", o->rule) && RAW(",\"group\":") && keel__json_int(b, o->id) &&
           RAW(",\"key\":") && keel__json_atom(b, st, o->key) && old_new(b, st, o->a, o->b) && RAW("}");
  case OP_GROUP_INSERT:
  case OP_GROUP_REMOVE:
    return head(b, st, o->kind == OP_GROUP_INSERT ? "join" : "leave", o->rule) &&
           RAW(",\"group\":") && keel__json_int(b, o->id) && RAW(",\"unit\":") && keel__json_int(b, o->a.u.i) &&
           RAW(",\"pos\":") && keel__json_int(b, o->pos) && RAW("}");
  case OP_GLOBAL:
    return head(b, st, "global", o->rule) && RAW(",\"key\":") && keel__json_atom(b, st, o->key) &&
           old_new(b, st, o->a, o->b) && RAW("}");
  case OP_OWNER:
    return head(b, st, "owner", o->rule) && RAW(",\"hex\":") && keel__json_int(b, o->id) &&
           old_new(b, st, o->a.u.s ? o->a : (keel_value){ KEEL_V_NIL, { 0 } },
                   o->b.u.s ? o->b : (keel_value){ KEEL_V_NIL, { 0 } }) && RAW("}");
  default:
    return 0;
  }
}

keel_status keel__journal_op(keel_state *st, const op *o) {
  keel__buf *b = &st->journal;
  if (!render(b, st, o) || !keel__buf_reserve(b, 1)) return KEEL_E_NOMEM;
  b->p[b->n++] = '\n';
  return KEEL_OK;
}

void keel_state_journal_enable(keel_state *st, int on) { st->journal_on = on != 0; }

const char *keel_state_journal(const keel_state *st, size_t *len) {
  *len = st->journal.n;
  return st->journal.n ? st->journal.p : "";
}

keel_status keel_state_journal_append(keel_state *st, const char *line, size_t len) {
  if (!line || memchr(line, '\n', len)) return KEEL_E_ARG;
  if (!st->journal_on) return KEEL_OK;
  if (!keel__buf_reserve(&st->journal, len + 1)) return KEEL_E_NOMEM;
  memcpy(st->journal.p + st->journal.n, line, len);
  st->journal.n += len;
  st->journal.p[st->journal.n++] = '\n';
  return KEEL_OK;
}

keel_status keel_state_journal_clear(keel_state *st) {
  if (st->depth) return KEEL_E_STATE;
  st->journal.n = 0;
  return KEEL_OK;
}
