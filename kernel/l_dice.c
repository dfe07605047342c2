/*
 * l_dice.c — keel.dice: the kernel's dice for Lua (binding of dice.c).
 *
 *   local d = keel.dice.new(42)
 *   local total, a, b = d:roll("2d6+1", { stream = "navgroup", rule = "32.B",
 *                                        reason = "naval search" })
 *   local rec = d:get_record()
 *   -- rec = { stream=, expr=, faces={..}, modifier=, total=, rule=, reason=,
 *   --         forced=bool, n=roll index in the stream }
 *
 * A roll returns numbers: its total and its faces. Its record (the table
 * above) is made only for whoever asks: d:get_record() (the last roll) and
 * the on_roll callbacks; a game's journal (d:set_journal(state)) writes the
 * roll's line in C (journal.c), with no record at all.
 *
 * Dice expressions are parsed by scripts/keel/dice_expr.lua (LPeg), loaded
 * on first use. Parsed expressions are cached twice, both shared by the
 * Dice objects of a Lua state (upvalues of the methods, never C globals): a
 * small C table keyed by the expression string's address (Lua interns short
 * strings; a hit is checked against a copy of the text), in front of a Lua
 * table keyed by the text.
 */
#include "l_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DICE_MT "keel.Dice"
#define DEFAULT_STREAM "default"
#define CACHE_MAX 512

/* the user values of a Dice */
enum { UV_CALLBACKS = 1, UV_JOURNAL, UV_RULE, UV_REASON, UV_COUNT = UV_REASON };

#define TEXT_MAX 32   /* a canonical expression ("100d1000-1000000") or "1..n" */

/* The last roll of a Dice, from which its record is made when asked for. */
typedef struct lastroll {
  int count;                       /* 0: no roll yet */
  int64_t faces[KEEL_DICE_MAX_COUNT];
  lua_Integer mod, total;
  int forced;
  uint64_t n;
  char expr[TEXT_MAX];
  char stream[KEEL_DICE_NAME_MAX + 1];
} lastroll;

typedef struct ldice {
  keel_dice *d;
  size_t stream;      /* the stream used last: a hint, checked by name */
  int callbacks;      /* how many on_roll callbacks */
  keel_state **journal;   /* the owned pointer of the keel.State journaled into
                           * (its userdata's first field, kept alive by UV_JOURNAL;
                           * NULL once closed), or NULL */
  lastroll last;
} ldice;


/* Upvalue 1: { parse = fn|nil, cache = {expr -> {count, sides, mod, text}}, n = k };
 * upvalue 2: the C cache (a `slots` userdata). */
#define SHARED lua_upvalueindex(1)
#define SLOTS lua_upvalueindex(2)

typedef struct pexpr { int count, sides; lua_Integer mod; size_t len; char text[TEXT_MAX]; } pexpr;

#define NSLOTS 64
#define KEY_MAX 40    /* longer expressions are cached by the Lua table only */
typedef struct slot { const char *key; size_t len; char src[KEY_MAX]; pexpr e; } slot;
typedef struct slots {
  slot s[NSLOTS];
  const char *k_stream, *k_rule, *k_reason;   /* the option names' interned texts (SHARED.names) */
  const void *mt;                             /* the class's metatable (the registry keeps it) */
} slots;

/* The dice at `arg`: a method's quick check (its metatable is the class's),
 * else keel_lua_checkobject's, with its messages. */
static ldice *check_dice(lua_State *L, int arg) {
  const slots *sl = lua_touserdata(L, SLOTS);
  if (lua_getmetatable(L, arg)) {
    int same = lua_topointer(L, -1) == sl->mt;
    lua_pop(L, 1);
    ldice *u = same ? lua_touserdata(L, arg) : NULL;
    if (u && u->d) return u;
  }
  keel_lua_checkobject(L, arg, DICE_MT, "dice object");
  return lua_touserdata(L, arg);
}

static size_t slot_of(const char *key) {
  uintptr_t p = (uintptr_t)key;
  return (size_t)((p >> 4) ^ (p >> 10)) % NSLOTS;
}

/* Parse `expr` (stack index) through the Lua cache into *e (a miss of the C cache). */
static void parse_slow(lua_State *L, int arg, pexpr *e) {
  lua_getfield(L, SHARED, "cache");
  lua_pushvalue(L, arg);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_getfield(L, SHARED, "parse");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_getglobal(L, "require");
      lua_pushliteral(L, "keel.dice_expr");
      lua_call(L, 1, 1);
      lua_getfield(L, -1, "parse");
      lua_remove(L, -2);
      lua_pushvalue(L, -1);
      lua_setfield(L, SHARED, "parse");
    }
    lua_pushvalue(L, arg);
    lua_call(L, 1, 2);
    if (lua_isnil(L, -2))
      luaL_argerror(L, arg, lua_tostring(L, -1));
    lua_pop(L, 1);
    /* cache {count, sides, modifier, text} */
    lua_createtable(L, 4, 0);
    static const char *const keys[] = { "count", "sides", "modifier", "text" };
    for (int k = 0; k < 4; k++) {
      lua_getfield(L, -2, keys[k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_remove(L, -2);
    lua_getfield(L, SHARED, "n");
    lua_Integer n = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (n >= CACHE_MAX) {   /* a runaway caller: start the cache afresh */
      lua_newtable(L);
      lua_replace(L, -3);
      lua_pushvalue(L, -2);
      lua_setfield(L, SHARED, "cache");
      n = 0;
    }
    lua_pushinteger(L, n + 1);
    lua_setfield(L, SHARED, "n");
    lua_pushvalue(L, arg);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_rawgeti(L, -1, 1);
  lua_rawgeti(L, -2, 2);
  lua_rawgeti(L, -3, 3);
  lua_rawgeti(L, -4, 4);
  e->count = (int)lua_tointeger(L, -4);
  e->sides = (int)lua_tointeger(L, -3);
  e->mod = lua_tointeger(L, -2);
  const char *text = lua_tolstring(L, -1, &e->len);
  if (!text || e->len >= TEXT_MAX) luaL_error(L, "dice: a canonical expression too long");
  memcpy(e->text, text, e->len + 1);
  lua_pop(L, 6);
}

/* Parse the expression at `arg` (a string) into *e: the C cache, else the Lua one. */
static void parse_expr(lua_State *L, int arg, pexpr *e) {
  size_t len;
  const char *key = luaL_checklstring(L, arg, &len);
  slot *s = &((slots *)lua_touserdata(L, SLOTS))->s[slot_of(key)];
  if (s->key == key && s->len == len && memcmp(s->src, key, len) == 0) { *e = s->e; return; }
  parse_slow(L, arg, e);
  if (len < KEY_MAX) {
    s->key = key;
    s->len = len;
    memcpy(s->src, key, len);
    s->e = *e;
  }
}

typedef struct ropts { const char *stream; size_t stream_len; int rule, reason; } ropts;

static void bad_stream(lua_State *L, int arg) {
  luaL_argerror(L, arg, lua_pushfstring(L, "opts.stream: a name of 1 to %d printable "
                       "characters without spaces expected", KEEL_DICE_NAME_MAX));
}

/* Read opts {stream=, rule=, reason=} at `arg` (optional), in one pass;
 * the values kept are left on the stack (rule, reason: their indices, or
 * 0). Unknown keys raise. */
static ropts check_opts(lua_State *L, int arg) {
  ropts o = { DEFAULT_STREAM, sizeof DEFAULT_STREAM - 1, 0, 0 };
  if (lua_isnoneornil(L, arg)) return o;
  luaL_checktype(L, arg, LUA_TTABLE);
  const slots *names = lua_touserdata(L, SLOTS);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    int t = lua_type(L, -1);
    /* Lua interns short strings: a key is most often the very text kept */
    if (k && k != names->k_stream && k != names->k_rule && k != names->k_reason) {
      if (strcmp(k, "stream") == 0) k = names->k_stream;
      else if (strcmp(k, "rule") == 0) k = names->k_rule;
      else if (strcmp(k, "reason") == 0) k = names->k_reason;
    }
    if (k && k == names->k_stream) {
      if (t != LUA_TSTRING) bad_stream(L, arg);
      o.stream = lua_tolstring(L, -1, &o.stream_len);   /* kept alive: it stays on the stack */
      if (!keel_dice_name_is_valid(o.stream) || strlen(o.stream) != o.stream_len) bad_stream(L, arg);
    } else if (k && k == names->k_rule) {
      if (t != LUA_TSTRING) luaL_argerror(L, arg, "opts.rule: string expected");
      o.rule = lua_gettop(L) - 1;
    } else if (k && k == names->k_reason) {
      if (t != LUA_TSTRING) luaL_argerror(L, arg, "opts.reason: string expected");
      o.reason = lua_gettop(L) - 1;
    } else {
      luaL_argerror(L, arg, lua_pushfstring(L, "unknown option '%s'; expected stream, rule, reason",
                                                   k ? k : luaL_typename(L, -2)));
    }
    lua_insert(L, -2);   /* keep the value below the key */
  }
  return o;
}

static size_t stream_index(lua_State *L, ldice *u, const char *name) {
  const char *at = keel_dice_stream_name(u->d, u->stream);
  if (at && strcmp(at, name) == 0) return u->stream;
  size_t i;
  keel_status st = keel_dice_stream(u->d, name, &i);
  if (st != KEEL_OK) keel_lua_fail(L, st, "stream");
  u->stream = i;
  return i;
}

/* Keep what the last roll's record needs beyond u->last: its rule and reason. */
static void remember(lua_State *L, const ropts *o) {
  if (o->rule) lua_pushvalue(L, o->rule); else lua_pushnil(L);
  lua_setiuservalue(L, 1, UV_RULE);
  if (o->reason) lua_pushvalue(L, o->reason); else lua_pushnil(L);
  lua_setiuservalue(L, 1, UV_REASON);
}

/* Journal the last roll into the state set by set_journal; with no rule in
 * opts, the state's rule in force is the roll's (kept for its record). */
static void journal(lua_State *L, ldice *u, const ropts *o) {
  keel_state *st = *u->journal;
  if (!st) luaL_error(L, "journal: the state set by set_journal is closed");
  const lastroll *r = &u->last;
  keel_roll_line line = { .stream = r->stream, .stream_len = strlen(r->stream),
                          .expr = r->expr, .expr_len = strlen(r->expr), .faces = r->faces,
                          .count = r->count, .modifier = r->mod, .total = r->total,
                          .forced = r->forced, .n = r->n };
  if (o->rule) line.rule = lua_tolstring(L, o->rule, &line.rule_len);
  if (o->reason) line.reason = lua_tolstring(L, o->reason, &line.reason_len);
  keel_status s = keel_state_journal_roll(st, &line);
  if (s != KEEL_OK) keel_lua_fail(L, s, "journal");
  if (!o->rule) {
    size_t len;
    const char *rule = keel_state_atom_str(st, keel_state_get_rule(st), &len);
    if (rule) {
      lua_pushlstring(L, rule, len);
      lua_setiuservalue(L, 1, UV_RULE);
    }
  }
}

/* Push the record of the last roll of dice at `self` (nil before any). */
static void push_record(lua_State *L, int self, const ldice *u) {
  const lastroll *r = &u->last;
  if (!r->count) { lua_pushnil(L); return; }
  lua_createtable(L, 0, 9);
  lua_pushstring(L, r->stream);
  lua_setfield(L, -2, "stream");
  lua_pushstring(L, r->expr);
  lua_setfield(L, -2, "expr");
  lua_createtable(L, r->count, 0);
  for (int k = 0; k < r->count; k++) {
    lua_pushinteger(L, (lua_Integer)r->faces[k]);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "faces");
  lua_pushinteger(L, r->mod);
  lua_setfield(L, -2, "modifier");
  lua_pushinteger(L, r->total);
  lua_setfield(L, -2, "total");
  if (lua_getiuservalue(L, self, UV_RULE) != LUA_TNIL) lua_setfield(L, -2, "rule");
  else lua_pop(L, 1);
  if (lua_getiuservalue(L, self, UV_REASON) != LUA_TNIL) lua_setfield(L, -2, "reason");
  else lua_pop(L, 1);
  lua_pushboolean(L, r->forced);
  lua_setfield(L, -2, "forced");
  lua_pushinteger(L, (lua_Integer)r->n);
  lua_setfield(L, -2, "n");
}

/* After a roll: journal it, and call every on_roll callback with its record
 * (made only when there is one). The results are on the stack already. */
static void after_roll(lua_State *L, ldice *u, const ropts *o) {
  remember(L, o);
  if (u->journal) journal(L, u, o);
  if (!u->callbacks) return;
  lua_getiuservalue(L, 1, UV_CALLBACKS);
  push_record(L, 1, u);
  lua_Integer n = luaL_len(L, -2);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, -2, i);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 0);
  }
  lua_pop(L, 2);
}

static int fail_forced(lua_State *L, const char *fname, const char *what) {
  return luaL_error(L, "%s: the next forced face does not fit %s", fname, what);
}

/* dice:roll(expr [, opts]) -> total, face1, ..., faceN  [-2|3, +?, e] */
static int l_roll(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_settop(L, 3);
  pexpr e;
  parse_expr(L, 2, &e);
  ropts o = check_opts(L, 3);
  size_t si = stream_index(L, u, o.stream);
  int faces[KEEL_DICE_MAX_COUNT], forced = 0;
  uint64_t index = 0;
  keel_status st = keel_dice_roll(u->d, si, e.count, e.sides, faces, &forced, &index);
  if (st == KEEL_E_RANGE) return fail_forced(L, "roll", e.text);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "roll");
  lastroll *r = &u->last;
  lua_Integer total = e.mod;
  if (e.count > 4) luaL_checkstack(L, e.count + 8, "roll");   /* else LUA_MINSTACK has room */
  for (int k = 0; k < e.count; k++) total += faces[k];
  lua_pushinteger(L, total);
  for (int k = 0; k < e.count; k++) {
    r->faces[k] = faces[k];
    lua_pushinteger(L, faces[k]);
  }
  r->count = e.count;
  r->mod = e.mod;
  r->total = total;
  r->forced = forced;
  r->n = index;
  memcpy(r->expr, e.text, e.len + 1);
  memcpy(r->stream, o.stream, o.stream_len + 1);
  after_roll(L, u, &o);
  return 1 + e.count;
}

/* dice:range(n [, opts]) -> value in 1..n  [-2|3, +1, e] */
static int l_range(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_settop(L, 3);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_argcheck(L, n >= 1, 2, "n >= 1 expected");
  ropts o = check_opts(L, 3);
  size_t si = stream_index(L, u, o.stream);
  uint64_t v = 0, index = 0;
  int forced = 0;
  char text[TEXT_MAX];
  snprintf(text, sizeof text, "1..%lld", (long long)n);
  keel_status st = keel_dice_range(u->d, si, (uint64_t)n, &v, &forced, &index);
  if (st == KEEL_E_RANGE) return fail_forced(L, "range", text);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "range");
  lastroll *r = &u->last;
  r->count = 1;
  r->faces[0] = (int64_t)v;
  r->mod = 0;
  r->total = (lua_Integer)v;
  r->forced = forced;
  r->n = index;
  memcpy(r->expr, text, sizeof text);
  memcpy(r->stream, o.stream, o.stream_len + 1);
  lua_pushinteger(L, (lua_Integer)v);
  after_roll(L, u, &o);
  return 1;
}

/* dice:get_record() -> the record of the last roll or range (a new
 * table), nil before any  [-1, +1, e] */
static int l_get_record(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_settop(L, 1);
  push_record(L, 1, u);
  return 1;
}

/* dice:set_journal(state|nil) -> dice  [-2, +1, e]: every roll and range
 * after it is journaled into the state (a `roll` line) */
static int l_set_journal(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_settop(L, 2);
  u->journal = NULL;
  if (!lua_isnil(L, 2)) {
    keel_lua_checkstate(L, 2);
    u->journal = lua_touserdata(L, 2);   /* a keel object: its owned pointer first */
  }
  lua_setiuservalue(L, 1, UV_JOURNAL);
  return 1;
}

/* dice:on_roll(fn) -> dice   [-2, +1, e]; dice:on_roll(nil) removes all */
static int l_on_roll(lua_State *L) {
  ldice *u = check_dice(L, 1);
  if (lua_isnoneornil(L, 2)) {
    lua_newtable(L);
    lua_setiuservalue(L, 1, UV_CALLBACKS);
    u->callbacks = 0;
  } else {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_getiuservalue(L, 1, UV_CALLBACKS);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, luaL_len(L, -2) + 1);
    u->callbacks = (int)luaL_len(L, -1);
    lua_pop(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

/* dice:force(f1, f2, ...) or dice:force{f1, f2, ...} -> dice  [-n, +1, e] */
static int l_force(lua_State *L) {
  ldice *u = check_dice(L, 1);
  int64_t faces[KEEL_DICE_FORCED_MAX];
  size_t n = 0;
  int top = lua_gettop(L);
  int from_table = top == 2 && lua_istable(L, 2);
  size_t len = from_table ? (size_t)luaL_len(L, 2) : (size_t)(top - 1);
  if (len > KEEL_DICE_FORCED_MAX - keel_dice_count_forced(u->d))
    return luaL_error(L, "force: at most %d forced faces may wait at once", KEEL_DICE_FORCED_MAX);
  for (size_t i = 0; i < len; i++) {
    int isnum = 0;
    lua_Integer f;
    if (from_table) {
      lua_rawgeti(L, 2, (lua_Integer)i + 1);
      f = lua_tointegerx(L, -1, &isnum);
      lua_pop(L, 1);
    } else {
      f = lua_tointegerx(L, (int)i + 2, &isnum);
    }
    if (!isnum || f < 1)
      return luaL_argerror(L, from_table ? 2 : (int)i + 2,
                           lua_pushfstring(L, "face #%d: integer >= 1 expected", (int)i + 1));
    faces[n++] = f;
  }
  keel_status st = keel_dice_force(u->d, faces, n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "force");
  lua_settop(L, 1);
  return 1;
}

/* dice:forced() -> number of forced faces still queued  [-1, +1, e] */
static int l_forced(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_dice_count_forced(check_dice(L, 1)->d));
  return 1;
}

/* dice:clear_forced() -> dice  [-1, +1, e] */
static int l_clear_forced(lua_State *L) {
  keel_dice_clear_forced(check_dice(L, 1)->d);
  lua_settop(L, 1);
  return 1;
}

/* dice:histogram(expr, n [, opts]) -> {[total] = count}  [-3|4, +1, e]
 * Bulk Monte Carlo in C: no records, no callbacks, forced queue ignored. */
static int l_histogram(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_settop(L, 4);
  pexpr e;
  parse_expr(L, 2, &e);
  lua_Integer n = luaL_checkinteger(L, 3);
  luaL_argcheck(L, n >= 0, 3, "n >= 0 expected");
  ropts o = check_opts(L, 4);
  size_t si = stream_index(L, u, o.stream);
  size_t cap = (size_t)e.count * (size_t)(e.sides - 1) + 1;
  uint64_t *counts = lua_newuserdatauv(L, cap * sizeof *counts, 0);
  keel_status st = keel_dice_histogram(u->d, si, e.count, e.sides, (uint64_t)n, counts, cap);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "histogram");
  lua_createtable(L, 0, (int)cap);
  for (size_t k = 0; k < cap; k++) {
    lua_pushinteger(L, (lua_Integer)counts[k]);
    lua_rawseti(L, -2, (lua_Integer)k + e.count + e.mod);
  }
  return 1;
}

/* dice:save() -> text  [-1, +1, e] */
static int l_save_state(lua_State *L) {
  ldice *u = check_dice(L, 1);
  size_t cap = keel_max_dice_save_size(u->d), len = 0;
  char *buf = lua_newuserdatauv(L, cap, 0);
  keel_status st = keel_dice_save(u->d, buf, cap, &len);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "save_state");
  lua_pushlstring(L, buf, len);
  return 1;
}

/* dice:get_version() -> integer that moves whenever save's text
 * would change (a roll, a new stream, a load)  [-1, +1, e] */
static int l_get_version(lua_State *L) {
  ldice *u = check_dice(L, 1);
  lua_pushinteger(L, (lua_Integer)keel_dice_get_version(u->d));
  return 1;
}

/* dice:load(text) -> true  [-2, +1, e]; raises on a malformed text
 * and leaves the dice unchanged */
static int l_load_state(lua_State *L) {
  ldice *u = check_dice(L, 1);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  size_t line = 0;
  const char *why = NULL;
  keel_status st = keel_dice_load(u->d, text, len, &line, &why);
  if (st != KEEL_OK)
    return luaL_error(L, "load: dice state line %d: %s", (int)line,
                      why ? why : keel_status_str(st));
  lua_pushboolean(L, 1);
  return 1;
}

/* dice:get_seed() -> integer  [-1, +1, e] */
static int l_seed(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_dice_get_seed(check_dice(L, 1)->d));
  return 1;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* dice:streams() -> { name, ... } in name order  [-1, +1, e] */
static int l_streams(lua_State *L) {
  ldice *u = check_dice(L, 1);
  size_t n = keel_dice_count_streams(u->d);
  const char **names = lua_newuserdatauv(L, (n ? n : 1) * sizeof *names, 0);
  for (size_t i = 0; i < n; i++) names[i] = keel_dice_stream_name(u->d, i);
  qsort(names, n, sizeof *names, cmp_str);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* dice:rolls([stream]) -> rolls made on the stream (0 if never used)  [-1|2, +1, e] */
static int l_rolls(lua_State *L) {
  ldice *u = check_dice(L, 1);
  const char *name = luaL_optstring(L, 2, DEFAULT_STREAM);
  size_t i;
  uint64_t rolls = 0;
  keel_status st = keel_dice_find(u->d, name, &i);
  if (st == KEEL_OK) keel_dice_get_state(u->d, i, NULL, &rolls);
  else if (st != KEEL_E_NOT_FOUND) return luaL_argerror(L, 2, "not a valid stream name");
  lua_pushinteger(L, (lua_Integer)rolls);
  return 1;
}

static void release(void *d) { keel_dice_free(d); }

/* __tostring -> "keel.Dice(seed=42, streams=2)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  ldice *u = luaL_checkudata(L, 1, DICE_MT);
  if (!u->d) { lua_pushliteral(L, "keel.Dice(closed)"); return 1; }
  lua_pushfstring(L, "keel.Dice(seed=%I, streams=%d)", (lua_Integer)keel_dice_get_seed(u->d),
                  (int)keel_dice_count_streams(u->d));
  return 1;
}

/* dice.new([seed]) -> Dice  [-0|1, +1, e]; seed: an integer (default 0) */
static int l_new(lua_State *L) {
  lua_Integer seed = luaL_optinteger(L, 1, 0);
  ldice *u = keel_lua_newobject(L, sizeof *u, UV_COUNT, DICE_MT);   /* safe first ... */
  lua_newtable(L);
  lua_setiuservalue(L, -2, UV_CALLBACKS);
  keel_status st = keel_dice_new((uint64_t)seed, &u->d);   /* ... then filled */
  if (st != KEEL_OK) return keel_lua_fail(L, st, "dice.new");
  return 1;
}

/* dice.is_dice(x) -> boolean  [-1, +1, m] */
static int l_is_dice(lua_State *L) {
  lua_pushboolean(L, luaL_testudata(L, 1, DICE_MT) != NULL);
  return 1;
}

/* require "keel.dice" -> module  [-0, +1, e] */
int keel_lua_open_dice(lua_State *L) {
  static const luaL_Reg methods[] = {
    { "roll", l_roll }, { "range", l_range }, { "on_roll", l_on_roll },
    { "force", l_force }, { "forced", l_forced }, { "clear_forced", l_clear_forced },
    { "histogram", l_histogram }, { "save", l_save_state },
    { "load", l_load_state }, { "get_version", l_get_version }, { "get_seed", l_seed }, { "streams", l_streams },
    { "rolls", l_rolls }, { "get_record", l_get_record }, { "set_journal", l_set_journal },
    { NULL, NULL }
  };
  static const luaL_Reg fns[] = { { "new", l_new }, { "is_dice", l_is_dice }, { NULL, NULL } };
  /* shared upvalues: the parse caches, Lua's and C's */
  lua_createtable(L, 0, 3);
  lua_newtable(L);
  lua_setfield(L, -2, "cache");
  lua_pushinteger(L, 0);
  lua_setfield(L, -2, "n");
  slots *sl = lua_newuserdatauv(L, sizeof(slots), 0);
  memset(sl, 0, sizeof *sl);
  lua_createtable(L, 3, 0);          /* the option names, kept alive by SHARED.names */
  lua_pushliteral(L, "stream");
  sl->k_stream = lua_tostring(L, -1);
  lua_rawseti(L, -2, 1);
  lua_pushliteral(L, "rule");
  sl->k_rule = lua_tostring(L, -1);
  lua_rawseti(L, -2, 2);
  lua_pushliteral(L, "reason");
  sl->k_reason = lua_tostring(L, -1);
  lua_rawseti(L, -2, 3);
  lua_setfield(L, -3, "names");
  static const keel_lua_class cls = { .name = DICE_MT, .methods = methods, .tostring = l_tostring, .release = release };
  keel_lua_newclass(L, &cls, 2);
  luaL_getmetatable(L, DICE_MT);
  sl->mt = lua_topointer(L, -1);
  lua_pop(L, 1);
  luaL_newlib(L, fns);
  lua_pushstring(L, DEFAULT_STREAM);
  lua_setfield(L, -2, "DEFAULT_STREAM");
  lua_pushinteger(L, KEEL_DICE_MAX_COUNT);
  lua_setfield(L, -2, "MAX_COUNT");
  lua_pushinteger(L, KEEL_DICE_MAX_SIDES);
  lua_setfield(L, -2, "MAX_SIDES");
  return 1;
}
