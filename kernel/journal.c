/*
 * journal.c — the journal: the state's events (recorded by undo.c) as JSON
 * lines, one per event, fields in a fixed order, written with the kernel's
 * JSON writer (json.c). Rendering is lazy and incremental: keel_state_journal
 * renders the events recorded since it last ran, and starts again from the
 * first event a rollback took back. Lines are numbered for the whole game;
 * a streamed journal writes its lines to a sink with no transaction open
 * and drops them (and the events they came from), so a long game holds
 * only what it wrote last. The state never calls this file. See
 * doc/journal.md for every event's fields.
 */
#include "array.h"
#include "json.h"
#include "state_int.h"
#include <stdio.h>
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

#define RAW(s) KEEL_JSON_LIT(b, s)

static int raw_str(keel__buf *b, const char *s) { return keel__json_raw(b, s, strlen(s)); }

static int json_loc(keel__buf *b, int lk, int64_t where) {
  char tmp[48];
  int n;
  if (lk == KEEL_LOC_OFF || lk == KEEL_LOC_DEAD) n = snprintf(tmp, sizeof tmp, "\"%s\"", keel__loc_name((keel_loc_kind)lk));
  else n = snprintf(tmp, sizeof tmp, "\"%s:%lld\"", keel__loc_name((keel_loc_kind)lk), (long long)where);
  return keel__json_raw(b, tmp, (size_t)n);
}

static int head(keel__buf *b, const keel_state *st, const char *ev, keel_atom rule) {
  return RAW("{\"ev\":\"") && raw_str(b, ev) && RAW("\",\"rule\":") && keel__json_atom(b, st, rule);
}

static int old_new(keel__buf *b, const keel_state *st, keel_value a, keel_value v) {
  return RAW(",\"old\":") && keel__json_value(b, st, a) && RAW(",\"new\":") && keel__json_value(b, st, v);
}

static int render_op(keel__buf *b, const keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_UNIT_NEW:
    return head(b, st, "unit", o->rule) && RAW(",\"unit\":") && keel__json_int(b, o->id) &&
           RAW(",\"name\":") && keel__json_atom(b, st, o->key) &&
           RAW(",\"type\":") && keel__json_atom(b, st, o->a.u.s) &&
           RAW(",\"side\":") && keel__json_atom(b, st, o->b.u.s) && RAW("}");
  case OP_UNIT_FIELD: {
    int ok = head(b, st, "set", o->rule) && RAW(",\"unit\":") && keel__json_int(b, o->id) &&
             RAW(",\"field\":\"") && raw_str(b, keel__field_name((keel_field)o->field)) && RAW("\"");
    if (!ok) return 0;
    if (o->field == KEEL_F_LOC)
      return RAW(",\"old\":") && json_loc(b, o->lka, o->a.u.i) && RAW(",\"new\":") && json_loc(b, o->lkb, o->b.u.i) && RAW("}");
    if (o->field == KEEL_F_FACE)
      return RAW(",\"old\":\"") && raw_str(b, keel__face_name((keel_face)o->a.u.i)) && RAW("\",\"new\":\"") &&
             raw_str(b, keel__face_name((keel_face)o->b.u.i)) && RAW("\"}");
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
           old_new(b, st, o->a.u.s ? o->a : KEEL_NIL, o->b.u.s ? o->b : KEEL_NIL) && RAW("}");
  case OP_KEYED:
    return head(b, st, "keyed", o->rule) && RAW(",\"map\":") && keel__json_atom(b, st, (keel_atom)o->id) &&
           RAW(",\"key\":") && keel__json_key(b, st, o->key) && old_new(b, st, o->a, o->b) && RAW("}");
  default:
    return 0;
  }
}

static int render_roll(keel__buf *b, const keel_state *st, const event *e);

static int render(keel__buf *b, const keel_state *st, const event *e) {
  const char *text = st->etext;
  switch (e->kind) {
  case EV_OP:
    return render_op(b, st, &e->u.o);
  case EV_ACTION:
    return RAW("{\"ev\":\"action\",\"action\":") && keel__json_int(b, e->u.action.number) &&
           RAW(",\"name\":") && keel__json_str(b, text + e->u.action.name, e->u.action.name_len) &&
           RAW(",\"rule\":") && keel__json_atom(b, st, e->u.action.rule) &&
           (!e->u.action.side || (RAW(",\"side\":") && keel__json_atom(b, st, e->u.action.side))) &&
           RAW(",\"order\":") &&
           (e->u.action.has_order ? keel__json_raw(b, text + e->u.action.order, e->u.action.order_len)
                                  : keel__json_null(b)) &&
           RAW("}");
  case EV_END:
    return RAW("{\"ev\":\"end\",\"action\":") && keel__json_int(b, e->u.end.number) &&
           RAW(",\"hash\":") && keel__json_hash(b, e->u.end.hash) && RAW("}");
  case EV_UNDO:
  case EV_REDO: {
    int ok = RAW("{\"ev\":\"") && raw_str(b, e->kind == EV_UNDO ? "undo" : "redo") &&
             RAW("\",\"n\":") && keel__json_int(b, (int64_t)e->u.undo.n) && RAW(",\"actions\":[");
    for (size_t i = 0; ok && i < e->u.undo.n; i++) {
      int64_t number;
      memcpy(&number, text + e->u.undo.numbers + i * sizeof number, sizeof number);
      ok = (i == 0 || RAW(",")) && keel__json_int(b, number);
    }
    return ok && RAW("],\"hash\":") && keel__json_hash(b, e->u.undo.hash) && RAW("}");
  }
  case EV_LINE:
    return keel__json_raw(b, text + e->u.line.at, e->u.line.len);
  case EV_ROLL:
    return render_roll(b, st, e);
  default:
    return 0;
  }
}

/* Render the events recorded since the last call (from the first one a
 * rollback took back). */
static keel_status render_pending(keel_state *st) {
  size_t keep = st->jdone < st->events_cut ? st->jdone : st->events_cut;
  size_t first = st->ebase - st->lbase;   /* events[0]'s slot in jstart */
  if (keep < st->jdone) {            /* a rollback took events back */
    st->njtext = st->jstart[first + keep];
    st->jdone = keep;
  }
  if (!KEEL_RESERVE_FROM(st->jstart, st->capjstart, first + st->nevents, 64)) return KEEL_E_NOMEM;
  keel__buf b = { st->jtext, st->njtext, st->capjtext, 0 };
  keel_status s = KEEL_OK;
  while (st->jdone < st->nevents) {
    size_t at = b.n;
    if (!render(&b, st, &st->events[st->jdone]) || !KEEL_JSON_LIT(&b, "\n")) { b.n = at; s = KEEL_E_NOMEM; break; }
    st->jstart[first + st->jdone++] = at;
  }
  st->jtext = b.p; st->njtext = b.n; st->capjtext = b.cap;
  if (s != KEEL_OK) return s;
  st->events_cut = st->nevents;
  if (st->jtext) st->jtext[st->njtext] = '\0';   /* the writer keeps a spare byte */
  return KEEL_OK;
}

/* The byte in jtext where held line `line` begins (the end for the line
 * after the last). */
static size_t line_at(const keel_state *st, size_t line) {
  size_t i = line - st->lbase;
  return i < st->ebase - st->lbase + st->jdone ? st->jstart[i] : st->njtext;
}

keel_status keel_state_journal(keel_state *st, const char **text, size_t *len) {
  keel_status s = render_pending(st);
  if (s != KEEL_OK) return s;
  if (st->lbase > 0) return KEEL_E_RANGE;   /* streamed: the first lines are in the file only */
  *text = st->jtext ? st->jtext : "";
  *len = st->njtext;
  return KEEL_OK;
}

keel_status keel_state_journal_count(keel_state *st, size_t *lines, size_t *bytes) {
  keel_status s = render_pending(st);
  if (s != KEEL_OK) return s;
  if (lines) *lines = st->ebase + st->nevents;
  if (bytes) *bytes = st->bbase + st->njtext;
  return KEEL_OK;
}

keel_status keel_state_journal_since(keel_state *st, size_t line, const char **text, size_t *len) {
  keel_status s = render_pending(st);
  if (s != KEEL_OK) return s;
  if (line < st->lbase || line > st->ebase + st->nevents) return KEEL_E_RANGE;
  size_t at = line_at(st, line);
  *text = st->jtext ? st->jtext + at : "";
  *len = st->njtext - at;
  return KEEL_OK;
}

void keel_state_journal_stream(keel_state *st, keel_journal_sink sink, void *ud) {
  st->sink = sink;
  st->sink_ud = sink ? ud : NULL;
}

void keel_state_journal_keep(keel_state *st, size_t line) { st->jkeep = line; }

keel_status keel_state_journal_flush(keel_state *st, int all) {
  if (!st->sink) return KEEL_E_STATE;
  if (st->depth) return KEEL_OK;     /* what an open transaction did may still be taken back */
  size_t held = st->njtext + st->netext + st->nevents * sizeof(event);
  if (!all && held < KEEL_JOURNAL_FLUSH_BYTES) return KEEL_OK;
  keel_status s = render_pending(st);
  if (s != KEEL_OK) return s;
  size_t total = st->ebase + st->nevents;
  size_t from = line_at(st, st->jwritten);
  if (st->njtext > from) {
    s = st->sink(st->sink_ud, st->jtext + from, st->njtext - from);
    if (s != KEEL_OK) return s == KEEL_E_NOMEM ? s : KEEL_E_IO;
  }
  st->jwritten = total;
  /* every event is rendered: none is needed any more */
  size_t nlines = total - st->lbase;   /* lines held */
  st->nevents = 0;
  st->netext = 0;
  st->events_cut = 0;
  st->jdone = 0;
  st->ebase = total;
  /* drop the lines written that no reader keeps */
  size_t to = st->jkeep < total ? (st->jkeep > st->lbase ? st->jkeep : st->lbase) : total;
  size_t k = to - st->lbase;
  if (k) {
    size_t cut = k < nlines ? st->jstart[k] : st->njtext;
    memmove(st->jtext, st->jtext + cut, st->njtext - cut);
    st->njtext -= cut;
    for (size_t i = k; i < nlines; i++) st->jstart[i - k] = st->jstart[i] - cut;
    st->bbase += cut;
    st->lbase = to;
    if (st->jtext) st->jtext[st->njtext] = '\0';
  }
  return KEEL_OK;
}

void keel_state_journal_enable(keel_state *st, int on) { st->journal_on = on != 0; }

keel_status keel_state_journal_append(keel_state *st, const char *line, size_t len) {
  if (!line || memchr(line, '\n', len)) return KEEL_E_ARG;
  if (!st->journal_on) return KEEL_OK;
  size_t ntext = st->netext;
  event e = { .kind = EV_LINE };
  e.u.line.len = len;
  keel_status s = keel__event_text(st, line, len, &e.u.line.at);
  if (s == KEEL_OK) s = keel__event_add(st, &e);
  if (s != KEEL_OK) st->netext = ntext;
  return s;
}

/* A roll is kept as its fields (EV_ROLL: its texts and faces copied to the
 * events' text, a third of its line) and rendered with the other events. */
#define ROLL_NO_TEXT UINT32_MAX

keel_status keel_state_journal_roll(keel_state *st, const keel_roll_line *r) {
  if (!r || !r->stream || !r->expr || (r->count && !r->faces) || r->count < 0 ||
      r->count > KEEL_DICE_MAX_COUNT || r->stream_len > KEEL_DICE_NAME_MAX || r->expr_len > 255 ||
      (r->rule && r->rule_len >= ROLL_NO_TEXT) || (r->reason && r->reason_len >= ROLL_NO_TEXT))
    return KEEL_E_ARG;
  if (!st->journal_on) return KEEL_OK;
  size_t rule_len = r->rule ? r->rule_len : 0, reason_len = r->reason ? r->reason_len : 0;
  size_t faces_len = (size_t)r->count * sizeof(int64_t);
  size_t len = rule_len + reason_len + r->stream_len + r->expr_len + faces_len;
  if (len > SIZE_MAX - st->netext ||
      !KEEL_RESERVE_FROM(st->etext, st->capetext, st->netext + len, 256)) return KEEL_E_NOMEM;
  event e = { .kind = EV_ROLL };
  e.u.roll.at = st->netext;
  e.u.roll.rule_len = r->rule ? (uint32_t)rule_len : ROLL_NO_TEXT;
  e.u.roll.rule = r->rule ? 0 : keel_state_get_rule(st);
  e.u.roll.reason_len = r->reason ? (uint32_t)reason_len : ROLL_NO_TEXT;
  e.u.roll.stream_len = (uint8_t)r->stream_len;
  e.u.roll.expr_len = (uint8_t)r->expr_len;
  e.u.roll.count = (uint8_t)r->count;
  e.u.roll.forced = r->forced != 0;
  e.u.roll.modifier = r->modifier;
  e.u.roll.total = r->total;
  e.u.roll.n = r->n;
  char *o = st->etext + st->netext;
  if (rule_len) { memcpy(o, r->rule, rule_len); o += rule_len; }
  if (reason_len) { memcpy(o, r->reason, reason_len); o += reason_len; }
  memcpy(o, r->stream, r->stream_len); o += r->stream_len;
  memcpy(o, r->expr, r->expr_len); o += r->expr_len;
  if (faces_len) memcpy(o, r->faces, faces_len);
  size_t ntext = st->netext;
  st->netext += len;
  keel_status s = keel__event_add(st, &e);
  if (s != KEEL_OK) st->netext = ntext;
  return s;
}

static int render_roll(keel__buf *b, const keel_state *st, const event *e) {
  const char *p = st->etext + e->u.roll.at;
  uint32_t rule_len = e->u.roll.rule_len, reason_len = e->u.roll.reason_len;
  int ok = RAW("{\"ev\":\"roll\",\"rule\":");
  if (rule_len == ROLL_NO_TEXT) ok = ok && keel__json_atom(b, st, e->u.roll.rule);
  else { ok = ok && keel__json_str(b, p, rule_len); p += rule_len; }
  ok = ok && RAW(",\"reason\":");
  if (reason_len == ROLL_NO_TEXT) ok = ok && keel__json_null(b);
  else { ok = ok && keel__json_str(b, p, reason_len); p += reason_len; }
  ok = ok && RAW(",\"stream\":") && keel__json_str(b, p, e->u.roll.stream_len);
  p += e->u.roll.stream_len;
  ok = ok && RAW(",\"expr\":") && keel__json_str(b, p, e->u.roll.expr_len) && RAW(",\"faces\":[");
  p += e->u.roll.expr_len;
  for (int k = 0; ok && k < e->u.roll.count; k++) {
    int64_t f;
    memcpy(&f, p + (size_t)k * sizeof f, sizeof f);
    ok = (k == 0 || RAW(",")) && keel__json_int(b, f);
  }
  return ok && RAW("],\"modifier\":") && keel__json_int(b, e->u.roll.modifier) &&
         RAW(",\"total\":") && keel__json_int(b, e->u.roll.total) &&
         RAW(",\"forced\":") && keel__json_bool(b, e->u.roll.forced) &&
         RAW(",\"n\":") && keel__json_uint(b, e->u.roll.n) && RAW("}");
}

keel_status keel_state_journal_clear(keel_state *st) {
  if (st->depth) return KEEL_E_STATE;
  st->nevents = 0;
  st->netext = 0;
  st->events_cut = 0;
  st->jdone = 0;
  st->njtext = 0;
  st->ebase = st->lbase = st->bbase = st->jwritten = 0;
  return KEEL_OK;
}
