/*
 * undo.c — how a state changes: every change is an op (old and new value)
 * pushed here, prepared and applied by the file that owns its kind, and
 * recorded: in the undo log while a transaction or action is open, and as
 * an event for the journal. Also transactions (begin, commit, rollback),
 * actions (the unit of undo), undo and redo, and the rule stack (the rule
 * every change names).
 *
 * Invariants (doc/state.md):
 *   - arrays never shrink their capacity, so applying an op backwards (and
 *     forwards again, for redo) never allocates and never fails;
 *   - ops are recorded only while an action or a transaction is open; a
 *     change made outside both ends the undo history;
 *   - at most undo_depth actions stay undoable: older ones (and their ops)
 *     are dropped whenever no transaction is open (trim_history);
 *   - rolling back puts the events back as they were at the mark, so the
 *     journal (journal.c renders the events) shows only what stayed.
 */
#include "array.h"
#include "state_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- ops: whose file prepares and applies each kind ------------------------ */

static int prepare(keel_state *st, const op *o) {
  switch (o->kind) {
  case OP_UNIT_NEW: case OP_UNIT_FIELD: case OP_UNIT_MARKER: return keel__unit_prepare(st, o);
  case OP_UNIT_VALUE: case OP_GROUP_VALUE: case OP_GLOBAL: return keel__value_prepare(st, o);
  case OP_GROUP_NEW: case OP_GROUP_INSERT: case OP_GROUP_REMOVE: return keel__group_prepare(st, o);
  case OP_OWNER: return keel__owner_prepare(st, o);
  case OP_KEYED: return keel__keyed_prepare(st, o);
  default: return 1;
  }
}

uint64_t keel_state_get_version(const keel_state *st) { return st->version; }

void keel__apply(keel_state *st, const op *o, int forward) {
  st->version++;
  switch (o->kind) {
  case OP_UNIT_NEW: case OP_UNIT_FIELD: case OP_UNIT_MARKER: keel__unit_apply(st, o, forward); break;
  case OP_UNIT_VALUE: case OP_GROUP_VALUE: case OP_GLOBAL: keel__value_apply(st, o, forward); break;
  case OP_GROUP_NEW: case OP_GROUP_INSERT: case OP_GROUP_REMOVE: keel__group_apply(st, o, forward); break;
  case OP_OWNER: keel__owner_apply(st, o, forward); break;
  case OP_KEYED: keel__keyed_apply(st, o, forward); break;
  default: break;
  }
}

/* ---- events ------------------------------------------------------------------ */

keel_status keel__event_text(keel_state *st, const void *p, size_t len, size_t *at) {
  if (len > SIZE_MAX - st->netext || !KEEL_RESERVE_FROM(st->etext, st->capetext, st->netext + len, 256))
    return KEEL_E_NOMEM;
  if (len) memcpy(st->etext + st->netext, p, len);
  *at = st->netext;
  st->netext += len;
  return KEEL_OK;
}

keel_status keel__event_add(keel_state *st, const event *e) {
  if (!st->journal_on) return KEEL_OK;
  if (!KEEL_RESERVE_FROM(st->events, st->capevents, st->nevents + 1, 64)) return KEEL_E_NOMEM;
  st->events[st->nevents++] = *e;
  return KEEL_OK;
}

/* Take the events back to n (and their text to ntext). */
static void events_cut(keel_state *st, size_t n, size_t ntext) {
  if (st->nevents <= n) return;
  st->nevents = n;
  if (st->netext > ntext) st->netext = ntext;
  if (st->events_cut > n) st->events_cut = n;
}

/* ---- pushing a change ----------------------------------------------------- */

/* Drop the undo history: a change outside any action cannot be undone, and
 * actions before it could not be undone past it. */
static void end_history(keel_state *st) {
  st->nops = 0;
  st->nactions = 0;
  st->afirst = 0;
  st->nredo = 0;
  st->nredo_ops = 0;
}

keel_status keel__state_push(keel_state *st, op *o) {
  if (st->frozen) return KEEL_E_FROZEN;
  o->rule = keel_state_get_rule(st);
  if (st->depth > 0 && !KEEL_RESERVE(st->ops, st->capops, st->nops + 1)) return KEEL_E_NOMEM;
  if (!prepare(st, o)) return KEEL_E_NOMEM;
  event e = { .kind = EV_OP };
  e.u.o = *o;
  keel_status s = keel__event_add(st, &e);
  if (s != KEEL_OK) return s;
  keel__apply(st, o, 1);
  if (st->depth > 0) {
    st->ops[st->nops++] = *o;
    if (!st->in_action) st->loose = 1;
  }
  else end_history(st);
  return KEEL_OK;
}

/* ---- rule stack ----------------------------------------------------------- */

keel_status keel_state_push_rule(keel_state *st, keel_atom rule) {
  if (!keel__atom_ok(st, rule)) return KEEL_E_ARG;
  if (!KEEL_RESERVE(st->rules, st->caprules, st->nrules + 1)) return KEEL_E_NOMEM;
  st->rules[st->nrules++] = rule;
  return KEEL_OK;
}

void keel_state_pop_rule(keel_state *st) { if (st->nrules) st->nrules--; }

keel_atom keel_state_get_rule(const keel_state *st) {
  for (size_t i = st->nrules; i > 0; i--)
    if (st->rules[i - 1]) return st->rules[i - 1];
  return 0;
}

/* ---- transactions ------------------------------------------------------------ */

keel_status keel_state_begin(keel_state *st, keel_mark *m) {
  if (st->depth >= 1000000) return KEEL_E_LIMIT;
  m->ops = st->nops;
  m->journal = st->nevents;
  m->journal_text = st->netext;
  m->actions = st->nactions;
  m->redo = st->nredo;
  m->redo_ops = st->nredo_ops;
  m->action_seq = st->action_seq;
  m->depth = st->depth;
  m->in_action = st->in_action;
  m->rules = st->nrules;
  m->loose = st->loose;
  st->depth++;
  return KEEL_OK;
}

/* Drop the actions past the undo depth, with their ops; only with no
 * transaction open (a mark holds positions in the arrays). The arrays are
 * moved down once the dropped part is half of them: a constant cost per
 * action, whatever the depth. */
static void trim_history(keel_state *st) {
  if (st->depth) return;
  if (st->nactions - st->afirst > st->undo_depth) st->afirst = st->nactions - st->undo_depth;
  if (st->afirst == 0 || (st->afirst < 64 && st->afirst < st->nactions) || st->afirst * 2 < st->nactions) return;
  size_t first_op = st->afirst < st->nactions ? st->actions[st->afirst].op_start : st->nops;
  size_t live = st->nactions - st->afirst;
  memmove(st->ops, st->ops + first_op, (st->nops - first_op) * sizeof(op));
  st->nops -= first_op;
  memmove(st->actions, st->actions + st->afirst, live * sizeof(action_rec));
  for (size_t i = 0; i < live; i++) st->actions[i].op_start -= first_op;
  st->nactions = live;
  st->afirst = 0;
}

keel_status keel_state_set_undo_depth(keel_state *st, size_t n) {
  if (st->depth) return KEEL_E_STATE;
  st->undo_depth = n;
  trim_history(st);
  return KEEL_OK;
}

size_t keel_state_get_undo_depth(const keel_state *st) { return st->undo_depth; }

keel_status keel_state_commit(keel_state *st, const keel_mark *m) {
  if (st->depth != m->depth + 1) return KEEL_E_STATE;
  st->depth = m->depth;
  if (st->depth == 0 && st->loose) { end_history(st); st->loose = 0; }
  trim_history(st);
  return KEEL_OK;
}

keel_status keel_state_rollback(keel_state *st, const keel_mark *m) {
  if (st->depth <= m->depth || st->nops < m->ops) return KEEL_E_STATE;
  while (st->nops > m->ops) keel__apply(st, &st->ops[--st->nops], 0);
  events_cut(st, m->journal, m->journal_text);
  st->nactions = m->actions;
  /* an action ended inside the transaction emptied the redo list
   * (action_end); its records are untouched (only an undo, never inside a
   * transaction, writes them), so the list comes back as it was */
  st->nredo = m->redo;
  st->nredo_ops = m->redo_ops;
  st->action_seq = m->action_seq;
  st->depth = m->depth;
  st->in_action = m->in_action;
  st->loose = m->loose;
  if (st->nrules > m->rules) st->nrules = m->rules;
  return KEEL_OK;
}

/* ---- actions, undo, redo ----------------------------------------------------- */

keel_status keel_state_action_begin(keel_state *st, const char *name, const char *order_json) {
  return keel_state_action_begin_by(st, name, order_json, 0);
}

keel_status keel_state_action_begin_by(keel_state *st, const char *name, const char *order_json, keel_atom side) {
  if (st->frozen) return KEEL_E_FROZEN;
  if (st->in_action) return KEEL_E_STATE;
  if (!name || (side && !keel__atom_ok(st, side))) return KEEL_E_ARG;
  if (st->action_seq == INT64_MAX) return KEEL_E_RANGE;   /* numbers are never reused */
  if (!KEEL_RESERVE(st->actions, st->capactions, st->nactions + 1)) return KEEL_E_NOMEM;
  if (st->journal_on) {
    size_t ntext = st->netext;
    event e = { .kind = EV_ACTION };
    e.u.action.number = st->action_seq + 1;
    e.u.action.rule = keel_state_get_rule(st);
    e.u.action.side = side;
    e.u.action.has_order = order_json != NULL;
    e.u.action.name_len = strlen(name);
    e.u.action.order_len = order_json ? strlen(order_json) : 0;
    keel_status s = keel__event_text(st, name, e.u.action.name_len, &e.u.action.name);
    if (s == KEEL_OK) s = keel__event_text(st, order_json, e.u.action.order_len, &e.u.action.order);
    if (s == KEEL_OK) s = keel__event_add(st, &e);
    if (s != KEEL_OK) { st->netext = ntext; return s; }
  }
  st->action_seq++;
  st->actions[st->nactions++] = (action_rec){ st->nops, st->action_seq, 0 };
  st->in_action = 1;
  st->action_depth = st->depth;
  st->depth++;
  return KEEL_OK;
}

keel_status keel_state_action_end(keel_state *st) {
  if (!st->in_action || st->depth != st->action_depth + 1) return KEEL_E_STATE;
  event e = { .kind = EV_END };
  e.u.end.number = st->action_seq;
  e.u.end.hash = st->hash;
  keel_status s = keel__event_add(st, &e);
  if (s != KEEL_OK) return s;
  st->actions[st->nactions - 1].hash_after = st->hash;
  st->in_action = 0;
  st->depth--;
  st->nredo = 0;
  st->nredo_ops = 0;
  trim_history(st);
  return KEEL_OK;
}

size_t keel_state_count_actions(const keel_state *st) { return st->nactions - st->afirst; }

keel_status keel_state_set_frozen(keel_state *st, int frozen) {
  if (frozen) { st->frozen++; return KEEL_OK; }
  if (st->frozen == 0) return KEEL_E_STATE;
  st->frozen--;
  return KEEL_OK;
}

int keel_state_is_frozen(const keel_state *st) { return st->frozen > 0; }
size_t keel_state_count_redos(const keel_state *st) { return st->nredo; }
int64_t keel_state_action_number(const keel_state *st) { return st->action_seq; }

keel_status keel_state_set_action_number(keel_state *st, int64_t n) {
  if (n < 0) return KEEL_E_ARG;
  if (st->nactions || st->nredo || st->depth || st->in_action) return KEEL_E_STATE;
  st->action_seq = n;
  return KEEL_OK;
}

/* The event of an undo or redo of the n actions numbered in numbers. */
static keel_status undo_redo_event(keel_state *st, int kind, size_t n, const int64_t *numbers) {
  if (!st->journal_on) return KEEL_OK;
  size_t ntext = st->netext;
  event e = { .kind = (uint8_t)kind };
  e.u.undo.hash = st->hash;
  e.u.undo.n = n;
  keel_status s = keel__event_text(st, numbers, n * sizeof *numbers, &e.u.undo.numbers);
  if (s == KEEL_OK) s = keel__event_add(st, &e);
  if (s != KEEL_OK) st->netext = ntext;
  return s;
}

keel_status keel_state_undo(keel_state *st, size_t n) {
  if (st->depth != 0 || st->in_action) return KEEL_E_STATE;
  if (n > st->nactions - st->afirst) return KEEL_E_RANGE;   /* past the undo depth too */
  if (n == 0) return KEEL_OK;
  size_t first = st->actions[st->nactions - n].op_start;
  size_t nops = st->nops - first;
  if (!KEEL_RESERVE(st->redo_ops, st->capredo_ops, st->nredo_ops + nops) ||
      !KEEL_RESERVE(st->redo, st->capredo, st->nredo + n)) return KEEL_E_NOMEM;
  int64_t *numbers = malloc(n * sizeof *numbers);
  if (!numbers) return KEEL_E_NOMEM;
  for (size_t k = 0; k < n; k++) {
    action_rec a = st->actions[--st->nactions];
    size_t len = st->nops - a.op_start;
    for (size_t i = st->nops; i > a.op_start; i--) keel__apply(st, &st->ops[i - 1], 0);
    if (len) memcpy(st->redo_ops + st->nredo_ops, st->ops + a.op_start, len * sizeof(op));
    st->redo[st->nredo++] = (redo_rec){ st->nredo_ops, len, a.number };
    st->nredo_ops += len;
    st->nops = a.op_start;
    numbers[k] = a.number;
  }
  keel_status s = undo_redo_event(st, EV_UNDO, n, numbers);
  free(numbers);
  return s;
}

keel_status keel_state_redo(keel_state *st, size_t n) {
  if (st->depth != 0 || st->in_action) return KEEL_E_STATE;
  if (n > st->nredo) return KEEL_E_RANGE;
  if (n == 0) return KEEL_OK;
  size_t nops = 0;
  for (size_t k = 0; k < n; k++) nops += st->redo[st->nredo - 1 - k].len;
  if (!KEEL_RESERVE(st->ops, st->capops, st->nops + nops) ||
      !KEEL_RESERVE(st->actions, st->capactions, st->nactions + n)) return KEEL_E_NOMEM;
  int64_t *numbers = malloc(n * sizeof *numbers);
  if (!numbers) return KEEL_E_NOMEM;
  for (size_t k = 0; k < n; k++) {
    redo_rec r = st->redo[--st->nredo];
    size_t start = st->nops;
    for (size_t i = 0; i < r.len; i++) {
      const op *o = &st->redo_ops[r.start + i];
      prepare(st, o);     /* capacities never shrink: this cannot fail */
      keel__apply(st, o, 1);
      st->ops[st->nops++] = *o;
    }
    st->nredo_ops = r.start;
    st->actions[st->nactions++] = (action_rec){ start, r.number, st->hash };
    numbers[k] = r.number;
  }
  keel_status s = undo_redo_event(st, EV_REDO, n, numbers);
  free(numbers);
  trim_history(st);
  return s;
}
