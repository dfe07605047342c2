/*
 * l_state.c — keel.state: the game state for Lua (binding of state.c,
 * journal.c and save.c). A State is a userdata (keel.State) owning one
 * keel_state; units and groups are plain integer ids; strings go in and
 * come out as Lua strings. The composed game object is scripts/keel/game.lua.
 *
 * Misuse (an unknown unit id, a bad field, a negative hit count) raises;
 * load returns nil and a reason for a damaged file.
 */
#include "array.h"
#include "json.h"
#include "l_util.h"
#include "state_int.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STATE_MT "keel.State"

typedef struct lstate {
  keel_state *st;
  keel_mark *marks;
  size_t nmarks, capmarks;
  int borrowed;      /* st belongs to a sandbox (keel.sandbox.keep): not freed here */
  FILE *jf;          /* the file the journal streams to (st:journal_stream) */
} lstate;

static lstate *check_state(lua_State *L, int arg) {
  lstate *s = keel_lua_checkudata(L, arg, STATE_MT);
  if (!s->st) luaL_argerror(L, arg, "state is closed");
  return s;
}

/* The State of a method call: upvalue 2 of a method bound to its state
 * (st:bind), else the State at argument 1. */
static lstate *LS(lua_State *L) {
  lstate *b = lua_touserdata(L, lua_upvalueindex(2));
  if (b) {
    if (!b->st) luaL_error(L, "state is closed");
    return b;
  }
  return check_state(L, 1);
}

static keel_state *S(lua_State *L) { return LS(L)->st; }

keel_state *keel_lua_checkstate(lua_State *L, int arg) { return check_state(L, arg)->st; }

static void check(lua_State *L, keel_status s, const char *what) {
  if (s != KEEL_OK) keel_lua_fail(L, s, what);
}

static keel_atom atom_arg(lua_State *L, keel_state *st, int arg) {
  size_t len;
  const char *s = luaL_checklstring(L, arg, &len);
  keel_atom a = 0;
  check(L, keel_state_intern(st, s, len, &a), "intern");
  return a;
}

static keel_atom opt_atom(lua_State *L, keel_state *st, int arg) {
  return lua_isnoneornil(L, arg) ? 0 : atom_arg(L, st, arg);
}

static void push_atom(lua_State *L, keel_state *st, keel_atom a) {
  size_t len;
  const char *s = keel_state_atom_str(st, a, &len);
  if (s) lua_pushlstring(L, s, len); else lua_pushnil(L);
}

static keel_value value_arg(lua_State *L, keel_state *st, int arg) {
  keel_value v = { KEEL_V_NIL, { 0 } };
  switch (lua_type(L, arg)) {
  case LUA_TNONE: case LUA_TNIL: break;
  case LUA_TBOOLEAN: v.kind = KEEL_V_BOOL; v.u.i = lua_toboolean(L, arg); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, arg)) { v.kind = KEEL_V_INT; v.u.i = lua_tointeger(L, arg); }
    else {
      v.kind = KEEL_V_FLOAT; v.u.f = lua_tonumber(L, arg);
      if (v.u.f != v.u.f || v.u.f - v.u.f != 0) luaL_argerror(L, arg, "finite number expected");
    }
    break;
  case LUA_TSTRING: v.kind = KEEL_V_STR; v.u.s = atom_arg(L, st, arg); break;
  default: luaL_typeerror(L, arg, "nil, boolean, number or string");
  }
  return v;
}

static void push_value(lua_State *L, keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_BOOL: lua_pushboolean(L, (int)v.u.i); break;
  case KEEL_V_INT: lua_pushinteger(L, v.u.i); break;
  case KEEL_V_FLOAT: lua_pushnumber(L, v.u.f); break;
  case KEEL_V_STR: push_atom(L, st, v.u.s); break;
  default: lua_pushnil(L);
  }
}

static int32_t unit_arg(lua_State *L, keel_state *st, int arg) {
  lua_Integer id = luaL_checkinteger(L, arg);
  if (id < 1 || id > keel_state_count_units(st))
    luaL_argerror(L, arg, lua_pushfstring(L, "no unit %I", id));
  return (int32_t)id;
}

static int32_t group_arg(lua_State *L, keel_state *st, int arg) {
  lua_Integer id = luaL_checkinteger(L, arg);
  if (id < 1 || id > keel_state_count_groups(st))
    luaL_argerror(L, arg, lua_pushfstring(L, "no group %I", id));
  return (int32_t)id;
}

static const char *const face_names[] = { "full", "damaged", "half", NULL };
static const char *const loc_names[] = { "off", "hex", "port", "box", "zone", "unit", "dead", NULL };
static const char *const field_names[] = { "name", "type", "side", "face", "hits", "points", "loc", NULL };

/* The unit field named at arg (as luaL_checkoption with field_names, which
 * says what is wrong): the names found by their length and a compare, not
 * a strcmp down the list (st:get is the call rules make most). */
static int field_arg(lua_State *L, int arg) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, arg, &len);
    if (len == 3 && memcmp(s, "loc", 3) == 0) return KEEL_F_LOC;
    if (len == 6 && memcmp(s, "points", 6) == 0) return KEEL_F_POINTS;
    if (len == 4)
      for (int f = KEEL_F_NAME; f <= KEEL_F_HITS; f++)
        if (memcmp(s, field_names[f], 4) == 0) return f;
  }
  return luaL_checkoption(L, arg, NULL, field_names);
}

/* keel.state.new() -> State  [-0, +1, e] */
static int l_new(lua_State *L) {
  lstate *s = keel_lua_newobject(L, sizeof *s, 0, STATE_MT);
  if (keel_state_new(&s->st) != KEEL_OK) return luaL_error(L, "state.new: out of memory");
  return 1;
}

/* st:close()  [-1, +0, e] (also __gc, __close) */
static int l_gc(lua_State *L) {
  lstate *s = luaL_checkudata(L, 1, STATE_MT);
  if (s->jf) {
    if (s->st) keel_state_journal_stream(s->st, NULL, NULL);
    fclose(s->jf);
    s->jf = NULL;
  }
  if (!s->borrowed) keel_state_free(s->st);
  s->st = NULL;
  free(s->marks);
  s->marks = NULL;
  return 0;
}

/* For keel.sandbox (kernel/l_sandbox.c): the keel_state of the State at
 * idx passes to the caller, and the State goes on using it as borrowed, so
 * that the game state outlives the Lua state (a sandbox rebuilt after an
 * out-of-memory error). NULL when idx is not an open State. */
keel_state *keel_lua_state_take(lua_State *L, int idx) {
  lstate *s = luaL_testudata(L, idx, STATE_MT);
  if (!s || !s->st || s->borrowed) return NULL;
  s->borrowed = 1;
  return s->st;
}

/* A State for st that does not free it.  [-0, +1, m] */
void keel_lua_state_push_borrowed(lua_State *L, keel_state *st) {
  lstate *s = keel_lua_newobject(L, sizeof *s, 0, STATE_MT);
  s->st = st;
  s->borrowed = 1;
}

/* tostring(st) -> "keel.State (N units, M groups)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  lstate *s = luaL_checkudata(L, 1, STATE_MT);
  if (!s->st) lua_pushliteral(L, "keel.State (closed)");
  else lua_pushfstring(L, "keel.State (%d units, %d groups)", (int)keel_state_count_units(s->st),
                       (int)keel_state_count_groups(s->st));
  return 1;
}

/* ---- named values: of a unit, of a group, of the game ---- */

/* The named values of one owner kind through keel.h; the game's ignore id. */
typedef struct named {
  const char *set_what;
  keel_status (*get)(const keel_state *, int32_t, keel_atom, keel_value *);
  keel_status (*set)(keel_state *, int32_t, keel_atom, keel_value);
  size_t (*count)(const keel_state *, int32_t);
  keel_status (*at)(const keel_state *, int32_t, size_t, keel_atom *, keel_value *);
} named;

static keel_status global_get(const keel_state *st, int32_t id, keel_atom key, keel_value *v) {
  (void)id;
  *v = keel_state_get_global(st, key);
  return KEEL_OK;
}
static keel_status global_set(keel_state *st, int32_t id, keel_atom key, keel_value v) {
  (void)id;
  return keel_state_set_global(st, key, v);
}
static size_t global_count(const keel_state *st, int32_t id) { (void)id; return keel_state_count_globals(st); }
static keel_status global_at(const keel_state *st, int32_t id, size_t i, keel_atom *key, keel_value *v) {
  (void)id;
  return keel_state_at_global(st, i, key, v);
}

static const named unit_values = { "set_value", keel_state_get_value, keel_state_set_value,
                                   keel_state_count_values, keel_state_at_value };
static const named group_values = { "group_set_value", keel_state_group_get_value, keel_state_group_set_value,
                                    keel_state_group_count_values, keel_state_group_at_value };
static const named game_values = { "set_global", global_get, global_set, global_count, global_at };

/* Push the value of the key at arg (nil when none; an unknown key is none). */
static int push_named_value(lua_State *L, keel_state *st, const named *nm, int32_t id, int arg) {
  size_t len;
  const char *k = luaL_checklstring(L, arg, &len);
  keel_value v = { KEEL_V_NIL, { 0 } };
  keel_atom key = keel_state_atom_find(st, k, len);
  if (key) nm->get(st, id, key, &v);
  push_value(L, st, v);
  return 1;
}

/* Set the key at arg to the value at arg + 1 (nil removes it). */
static int set_named_value(lua_State *L, keel_state *st, const named *nm, int32_t id, int arg) {
  keel_atom key = atom_arg(L, st, arg);
  check(L, nm->set(st, id, key, value_arg(L, st, arg + 1)), nm->set_what);
  return 0;
}

/* Push {key = value} (with map) and then {sorted keys} (with keys). */
static int push_named_values(lua_State *L, keel_state *st, const named *nm, int32_t id, int map, int keys) {
  size_t n = nm->count(st, id);
  if (map) lua_createtable(L, 0, (int)n);
  if (keys) lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    keel_atom k; keel_value v;
    nm->at(st, id, i, &k, &v);
    push_atom(L, st, k);
    if (keys) {
      if (map) lua_pushvalue(L, -1);
      lua_rawseti(L, map ? -3 : -2, (lua_Integer)i + 1);
    }
    if (map) {
      push_value(L, st, v);
      lua_rawset(L, keys ? -4 : -3);
    }
  }
  return map + keys;
}

/* ---- units ---- */

/* st:unit_new(name, type?, side?) -> id  [-4, +1, e] */
static int l_unit_new(lua_State *L) {
  keel_state *st = S(L);
  keel_atom name = atom_arg(L, st, 2), type = opt_atom(L, st, 3), side = opt_atom(L, st, 4);
  int32_t id;
  check(L, keel_state_unit_new(st, name, type, side, &id), "unit_new");
  lua_pushinteger(L, id);
  return 1;
}

/* st:count_units() -> n  [-1, +1, e] */
static int l_unit_count(lua_State *L) { lua_pushinteger(L, keel_state_count_units(S(L))); return 1; }

/* {1, ..., n}, a list made at its size (units and groups are numbered from 1) */
static int push_range(lua_State *L, int32_t n) {
  lua_createtable(L, n, 0);
  for (int32_t i = 1; i <= n; i++) {
    lua_pushinteger(L, i);
    lua_rawseti(L, -2, i);
  }
  return 1;
}

/* ---- the index: queries of units and groups ---- */

static const char *const query_fields[] = { "loc", "at", "side", "type", NULL };

/* An atom for a filter's string field, or -1 when no unit ever had it
 * (the query then matches nothing); 0 when the field is absent. */
static keel_atom query_atom(lua_State *L, keel_state *st, int t, const char *what, const char *field) {
  keel_atom a = 0;
  if (lua_getfield(L, t, field) != LUA_TNIL) {
    size_t len;
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "%s: filter field '%s' must be a string, got %s", what, field, luaL_typename(L, -1));
    const char *s = lua_tolstring(L, -1, &len);
    a = keel_state_atom_find(st, s, len);
    if (a == 0) a = -1;
  }
  lua_pop(L, 1);
  return a;
}

/* The query table {loc =, at =, side =, type =} at index t as the kernel's
 * queries: two when `at` is a hex and `loc` is absent (the hex on the map
 * and its port). Returns how many; 0: it matches nothing. */
static int query_arg(lua_State *L, keel_state *st, int t, const char *what, keel_unit_query q[2]) {
  memset(q, 0, 2 * sizeof *q);
  lua_pushnil(L);
  while (lua_next(L, t)) {   /* every key known: a misspelt filter is an error, not "any" */
    int ok = lua_type(L, -2) == LUA_TSTRING;
    for (int i = 0; ok && query_fields[i]; i++) if (strcmp(lua_tostring(L, -2), query_fields[i]) == 0) ok = 2;
    if (ok != 2)
      return luaL_error(L, "%s: unknown filter field %s (loc, at, side or type expected)", what,
                        lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2));
    lua_pop(L, 1);
  }
  keel_atom side = query_atom(L, st, t, what, "side"), type = query_atom(L, st, t, what, "type");
  int n = 1;
  q[0].side = side; q[0].type = type;
  if (lua_getfield(L, t, "loc") != LUA_TNIL) {
    const char *k = lua_tostring(L, -1);
    int kind = -1;
    for (int i = 0; k && lua_type(L, -1) == LUA_TSTRING && loc_names[i]; i++) if (strcmp(k, loc_names[i]) == 0) kind = i;
    if (kind < 0) return luaL_error(L, "%s: filter field loc: off, hex, port, box, zone, unit or dead expected", what);
    q[0].by_loc = 1;
    q[0].loc.kind = (keel_loc_kind)kind;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, t, "at") != LUA_TNIL) {
    int top = lua_gettop(L);
    if (!q[0].by_loc) {   /* a hex: on the map or in its port */
      q[0].by_loc = 1; q[0].loc.kind = KEEL_LOC_HEX;
      q[1] = q[0]; q[1].loc.kind = KEEL_LOC_PORT;
      n = 2;
    }
    int64_t where = 0;
    switch (q[0].loc.kind) {
    case KEEL_LOC_HEX: case KEEL_LOC_PORT: where = keel_lua_checkhex(L, top); break;
    case KEEL_LOC_UNIT: case KEEL_LOC_BOX: case KEEL_LOC_ZONE:
      if (!lua_isinteger(L, top)) return luaL_error(L, "%s: filter field at must be an integer here", what);
      where = lua_tointeger(L, top);
      break;
    default: return luaL_error(L, "%s: filter field at: none for loc '%s'", what, loc_names[q[0].loc.kind]);
    }
    for (int i = 0; i < n; i++) { q[i].by_where = 1; q[i].loc.where = where; }
  }
  lua_pop(L, 1);
  return side < 0 || type < 0 ? 0 : n;
}

typedef keel_status (*finder)(const keel_state *, const keel_unit_query *, int32_t *, size_t, size_t *);

/* The ids `find` gives for the queries, merged in id order, as a list. */
static int push_found(lua_State *L, keel_state *st, finder find, const keel_unit_query *q, int nq) {
  int32_t small[256], *buf[2] = { NULL, NULL };
  size_t n[2] = { 0, 0 };
  for (int i = 0; i < nq; i++) {
    size_t need;
    check(L, find(st, &q[i], NULL, 0, &need), "find");
    buf[i] = need <= 128 ? small + 128 * i : lua_newuserdatauv(L, need * sizeof(int32_t), 0);
    check(L, find(st, &q[i], buf[i], need, &n[i]), "find");
  }
  lua_createtable(L, (int)(n[0] + n[1]), 0);
  size_t a = 0, b = 0;
  lua_Integer k = 0;
  while (a < n[0] || b < n[1]) {
    int32_t x;
    if (b >= n[1] || (a < n[0] && buf[0][a] <= buf[1][b])) {
      x = buf[0][a++];
      if (b < n[1] && buf[1][b] == x) b++;   /* a group in both */
    } else x = buf[1][b++];
    lua_pushinteger(L, x);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* st:unit_ids([filter]) -> {1, ..., count_units()}, or the units the filter
 * table {loc =, at =, side =, type =} matches, in id order  [-2, +1, e] */
static int l_unit_ids(lua_State *L) {
  keel_state *st = S(L);
  if (lua_isnoneornil(L, 2)) return push_range(L, keel_state_count_units(st));
  luaL_checktype(L, 2, LUA_TTABLE);
  keel_unit_query q[2];
  int nq = query_arg(L, st, 2, "units", q);
  return push_found(L, st, keel_state_find_units, q, nq);
}

static void push_loc(lua_State *L, keel_loc loc) {
  lua_pushstring(L, loc_names[loc.kind]);
  if (loc.kind == KEEL_LOC_OFF || loc.kind == KEEL_LOC_DEAD) lua_pushnil(L);
  else lua_pushinteger(L, loc.where);
}

/* st:get(id, field) -> value (loc: kind, where)  [-3, +1|2, e] */
static int l_get(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  int f = field_arg(L, 3);
  keel_unit_info u;
  keel_state_get_unit(st, id, &u);
  switch (f) {
  case KEEL_F_NAME: push_atom(L, st, u.name); break;
  case KEEL_F_TYPE: push_atom(L, st, u.type); break;
  case KEEL_F_SIDE: push_atom(L, st, u.side); break;
  case KEEL_F_FACE: lua_pushstring(L, face_names[u.face]); break;
  case KEEL_F_HITS: lua_pushinteger(L, u.hits); break;
  case KEEL_F_POINTS: lua_pushinteger(L, u.points); break;
  default: push_loc(L, u.loc); return 2;
  }
  return 1;
}

/* st:set(id, field, value)  [-4, +0, e]; field name/type/side/face/hits/points */
static int l_set(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  int f = field_arg(L, 3);
  int64_t v = 0;
  switch (f) {
  case KEEL_F_NAME: v = atom_arg(L, st, 4); break;
  case KEEL_F_TYPE: case KEEL_F_SIDE: v = opt_atom(L, st, 4); break;
  case KEEL_F_FACE: v = luaL_checkoption(L, 4, NULL, face_names); break;
  case KEEL_F_HITS: case KEEL_F_POINTS: v = luaL_checkinteger(L, 4);
    if (v < 0) return luaL_argerror(L, 4, "must be >= 0");
    break;
  default: return luaL_argerror(L, 3, "use move() for the location");
  }
  check(L, keel_state_set(st, id, (keel_field)f, v), "set");
  return 0;
}

/* st:get_unit(id) -> {id, name, type, side, face, hits, points, loc, where}  [-2, +1, e] */
static int l_unit(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  keel_unit_info u;
  keel_state_get_unit(st, id, &u);
  lua_createtable(L, 0, 9);
  lua_pushinteger(L, id); lua_setfield(L, -2, "id");
  push_atom(L, st, u.name); lua_setfield(L, -2, "name");
  push_atom(L, st, u.type); lua_setfield(L, -2, "type");
  push_atom(L, st, u.side); lua_setfield(L, -2, "side");
  lua_pushstring(L, face_names[u.face]); lua_setfield(L, -2, "face");
  lua_pushinteger(L, u.hits); lua_setfield(L, -2, "hits");
  lua_pushinteger(L, u.points); lua_setfield(L, -2, "points");
  push_loc(L, u.loc);
  lua_setfield(L, -3, "where");
  lua_setfield(L, -2, "loc");
  return 1;
}

static keel_loc loc_args(lua_State *L, keel_state *st, int arg) {
  keel_loc loc;
  loc.kind = (keel_loc_kind)luaL_checkoption(L, arg, NULL, loc_names);
  loc.where = 0;
  switch (loc.kind) {
  case KEEL_LOC_HEX: case KEEL_LOC_PORT: loc.where = keel_lua_checkhex(L, arg + 1); break;
  case KEEL_LOC_UNIT: loc.where = unit_arg(L, st, arg + 1); break;
  case KEEL_LOC_BOX: case KEEL_LOC_ZONE: loc.where = luaL_checkinteger(L, arg + 1); break;
  default: break;
  }
  return loc;
}

/* st:move(id, kind, where?)  [-4, +0, e]; kind off/hex/port/box/zone/unit/dead */
static int l_move(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  keel_loc loc = loc_args(L, st, 3);
  keel_status s = keel_state_move(st, id, loc);
  if (s == KEEL_E_ARG && loc.kind == KEEL_LOC_UNIT)
    return luaL_error(L, "move: unit %d cannot go inside unit %d (it would carry itself)", (int)id, (int)loc.where);
  check(L, s, "move");
  return 0;
}

/* st:get_value(id, key) -> value|nil  [-3, +1, e] */
static int l_value(lua_State *L) {
  keel_state *st = S(L);
  return push_named_value(L, st, &unit_values, unit_arg(L, st, 2), 3);
}

/* st:set_value(id, key, value|nil)  [-4, +0, e] */
static int l_set_value(lua_State *L) {
  keel_state *st = S(L);
  return set_named_value(L, st, &unit_values, unit_arg(L, st, 2), 3);
}

/* st:values(id) -> {key = value}  [-2, +1, e]; st:value_keys(id) -> sorted keys */
static int l_values(lua_State *L) {
  keel_state *st = S(L);
  return push_named_values(L, st, &unit_values, unit_arg(L, st, 2), 1, 0);
}

/* st:value_keys(id) -> sorted keys  [-2, +1, e] */
static int l_value_keys(lua_State *L) {
  keel_state *st = S(L);
  return push_named_values(L, st, &unit_values, unit_arg(L, st, 2), 0, 1);
}

/* st:get_marker(id, name) -> count  [-3, +1, e] */
static int l_marker(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  size_t len;
  const char *k = luaL_checklstring(L, 3, &len);
  keel_atom key = keel_state_atom_find(st, k, len);
  lua_pushinteger(L, key ? keel_state_get_marker(st, id, key) : 0);
  return 1;
}

/* st:set_marker(id, name, count)  [-4, +0, e] */
static int l_set_marker(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  keel_atom key = atom_arg(L, st, 3);
  check(L, keel_state_set_marker(st, id, key, luaL_checkinteger(L, 4)), "set_marker");
  return 0;
}

/* st:add_marker(id, name, n?) -> new count  [-4, +1, e] */
static int l_add_marker(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  keel_atom key = atom_arg(L, st, 3);
  check(L, keel_state_add_marker(st, id, key, luaL_optinteger(L, 4, 1)), "add_marker");
  lua_pushinteger(L, keel_state_get_marker(st, id, key));
  return 1;
}

/* st:markers(id) -> {name = count}  [-2, +1, e] */
static int l_markers(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  size_t n = keel_state_count_markers(st, id);
  lua_createtable(L, 0, (int)n);
  for (size_t i = 0; i < n; i++) {
    keel_atom k; int64_t c;
    keel_state_at_marker(st, id, i, &k, &c);
    push_atom(L, st, k);
    lua_pushinteger(L, c);
    lua_rawset(L, -3);
  }
  return 1;
}

/* Apply fn(unit at 2, n at 3) and push the unit's hits or points after it;
 * KEEL_E_ARG is a bad n (`bad` says why). */
static int change_count(lua_State *L, keel_status (*fn)(keel_state *, int32_t, int64_t),
                        const char *what, const char *bad, int hits) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2);
  lua_Integer n = luaL_checkinteger(L, 3);
  keel_status s = fn(st, id, n);
  if (s == KEEL_E_ARG) return luaL_argerror(L, 3, bad);
  check(L, s, what);
  keel_unit_info u;
  keel_state_get_unit(st, id, &u);
  lua_pushinteger(L, hits ? u.hits : u.points);
  return 1;
}

/* st:add_hits(id, n) -> hits  [-3, +1, e] */
static int l_add_hits(lua_State *L) {
  return change_count(L, keel_state_add_hits, "add_hits", "hits would go below 0", 1);
}

/* st:reduce_points(id, n) -> points  [-3, +1, e] */
static int l_reduce_points(lua_State *L) {
  return change_count(L, keel_state_reduce_points, "reduce_points", "must be 0..points", 0);
}

/* st:split(id, points) -> new id  [-3, +1, e] */
static int l_split(lua_State *L) {
  keel_state *st = S(L);
  int32_t id = unit_arg(L, st, 2), nid;
  keel_status s = keel_state_split(st, id, luaL_checkinteger(L, 3), &nid);
  if (s == KEEL_E_ARG) return luaL_argerror(L, 3, "must be 1..points-1");
  check(L, s, "split");
  lua_pushinteger(L, nid);
  return 1;
}

/* st:combine(a, b)  [-3, +0, e] */
static int l_combine(lua_State *L) {
  keel_state *st = S(L);
  int32_t a = unit_arg(L, st, 2), b = unit_arg(L, st, 3);
  check(L, keel_state_combine(st, a, b), "combine");
  return 0;
}

/* st:eliminate(id)  [-2, +0, e] */
static int l_eliminate(lua_State *L) {
  keel_state *st = S(L);
  check(L, keel_state_eliminate(st, unit_arg(L, st, 2)), "eliminate");
  return 0;
}

static void push_ids(lua_State *L, const int32_t *ids, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) { lua_pushinteger(L, ids[i]); lua_rawseti(L, -2, (lua_Integer)i + 1); }
}

/* st:cargo(carrier) -> {ids}  [-2, +1, e] */
static int l_cargo(lua_State *L) {
  keel_state *st = S(L);
  int32_t c = unit_arg(L, st, 2);
  size_t n;
  keel_state_cargo(st, c, NULL, 0, &n);
  int32_t *ids = lua_newuserdatauv(L, (n ? n : 1) * sizeof *ids, 0);
  keel_state_cargo(st, c, ids, n, &n);
  push_ids(L, ids, n);
  return 1;
}

/* st:cargo_check(carrier | {carriers}, measure) -> {capacity, used, over, excess}  [-3, +1, e] */
static int l_cargo_check(lua_State *L) {
  keel_state *st = S(L);
  size_t nc = 1;
  int32_t one;
  int32_t *cs = &one;
  if (lua_istable(L, 2)) {
    nc = (size_t)luaL_len(L, 2);
    cs = lua_newuserdatauv(L, (nc ? nc : 1) * sizeof *cs, 0);
    for (size_t i = 0; i < nc; i++) {
      lua_geti(L, 2, (lua_Integer)i + 1);
      lua_Integer id = lua_tointeger(L, -1);
      if (id < 1 || id > keel_state_count_units(st)) return luaL_argerror(L, 2, "unknown carrier");
      cs[i] = (int32_t)id;
      lua_pop(L, 1);
    }
  } else {
    one = unit_arg(L, st, 2);
  }
  const char *measure = luaL_checkstring(L, 3);
  keel_cargo_report rep;
  check(L, keel_state_cargo_check(st, cs, nc, measure, &rep, NULL, 0), "cargo_check");
  int32_t *ex = lua_newuserdatauv(L, (rep.excess_n ? rep.excess_n : 1) * sizeof *ex, 0);
  check(L, keel_state_cargo_check(st, cs, nc, measure, &rep, ex, rep.excess_n), "cargo_check");
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, rep.capacity); lua_setfield(L, -2, "capacity");
  lua_pushinteger(L, rep.used); lua_setfield(L, -2, "used");
  lua_pushinteger(L, rep.over); lua_setfield(L, -2, "over");
  push_ids(L, ex, rep.excess_n);
  lua_setfield(L, -2, "excess");
  return 1;
}

/* st:units_at(kind, where?) -> {ids in id order}  [-3, +1, e] */
static int l_units_at(lua_State *L) {
  keel_state *st = S(L);
  keel_loc loc = loc_args(L, st, 2);
  size_t n;
  const int32_t *ids = keel_state_units_at(st, loc, &n);
  push_ids(L, ids, n);
  return 1;
}

/* ---- groups ---- */

/* st:group_new(name) -> gid  [-2, +1, e] */
static int l_group_new(lua_State *L) {
  keel_state *st = S(L);
  int32_t g;
  check(L, keel_state_group_new(st, atom_arg(L, st, 2), &g), "group_new");
  lua_pushinteger(L, g);
  return 1;
}

/* st:count_groups() -> n  [-1, +1, e] */
static int l_group_count(lua_State *L) { lua_pushinteger(L, keel_state_count_groups(S(L))); return 1; }

/* st:group_ids([filter]) -> {1, ..., count_groups()}, or the groups
 * holding a unit the filter table (as unit_ids') matches  [-2, +1, e] */
static int l_group_ids(lua_State *L) {
  keel_state *st = S(L);
  if (lua_isnoneornil(L, 2)) return push_range(L, keel_state_count_groups(st));
  luaL_checktype(L, 2, LUA_TTABLE);
  keel_unit_query q[2];
  int nq = query_arg(L, st, 2, "groups", q);
  return push_found(L, st, keel_state_find_groups, q, nq);
}

/* st:group_get_name(g) -> string  [-2, +1, e] */
static int l_group_name(lua_State *L) {
  keel_state *st = S(L);
  push_atom(L, st, keel_state_group_get_name(st, group_arg(L, st, 2)));
  return 1;
}

/* st:group_add(g, unit, pos?) (pos 1-based; default at the end)  [-4, +0, e] */
static int l_group_add(lua_State *L) {
  keel_state *st = S(L);
  int32_t g = group_arg(L, st, 2), u = unit_arg(L, st, 3);
  lua_Integer pos = luaL_optinteger(L, 4, 0);
  if (pos < 0) return luaL_argerror(L, 4, "position out of range");
  keel_status s = keel_state_group_add(st, g, u, pos - 1);
  if (s == KEEL_E_DUPLICATE) return luaL_error(L, "group_add: unit %d is already in group %d", (int)u, (int)g);
  if (s == KEEL_E_RANGE) return luaL_argerror(L, 4, "position out of range");
  check(L, s, "group_add");
  return 0;
}

/* st:group_remove(g, unit)  [-3, +0, e] */
static int l_group_remove(lua_State *L) {
  keel_state *st = S(L);
  int32_t g = group_arg(L, st, 2), u = unit_arg(L, st, 3);
  check(L, keel_state_group_remove(st, g, u), "group_remove");
  return 0;
}

/* st:group_units(g [, in_play]) -> {ids in group order}; in_play: only
 * the units not dead  [-3, +1, e] */
static int l_group_units(lua_State *L) {
  keel_state *st = S(L);
  int32_t g = group_arg(L, st, 2);
  int in_play = lua_toboolean(L, 3);
  size_t n = keel_state_group_count_units(st, g);
  lua_createtable(L, (int)n, 0);
  lua_Integer k = 0;
  for (size_t i = 0; i < n; i++) {
    int32_t u = keel_state_group_at_unit(st, g, i);
    if (in_play) {
      keel_unit_info info;
      keel_state_get_unit(st, u, &info);
      if (info.loc.kind == KEEL_LOC_DEAD) continue;
    }
    lua_pushinteger(L, u);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* st:groups_of(unit) -> {gids in id order}  [-2, +1, e] */
static int l_groups_of(lua_State *L) {
  keel_state *st = S(L);
  int32_t u = unit_arg(L, st, 2);
  size_t n;
  const int32_t *gs = keel_state_groups_of(st, u, &n);
  push_ids(L, gs, n);
  return 1;
}

/* st:group_get_value(g, key) -> value  [-3, +1, e] */
static int l_group_value(lua_State *L) {
  keel_state *st = S(L);
  return push_named_value(L, st, &group_values, group_arg(L, st, 2), 3);
}

/* st:group_set_value(g, key, value|nil)  [-4, +0, e] */
static int l_group_set(lua_State *L) {
  keel_state *st = S(L);
  return set_named_value(L, st, &group_values, group_arg(L, st, 2), 3);
}

/* st:group_values(g) -> {key = value}  [-2, +1, e] */
static int l_group_values(lua_State *L) {
  keel_state *st = S(L);
  return push_named_values(L, st, &group_values, group_arg(L, st, 2), 1, 0);
}

/* ---- globals, ownership ---- */

/* st:get_global(key) -> value  [-2, +1, e] */
static int l_global(lua_State *L) { return push_named_value(L, S(L), &game_values, 0, 2); }

/* st:set_global(key, value|nil)  [-3, +0, e] */
static int l_set_global(lua_State *L) { return set_named_value(L, S(L), &game_values, 0, 2); }

/* st:globals() -> {key = value}, {sorted keys}  [-1, +2, e] */
static int l_globals(lua_State *L) { return push_named_values(L, S(L), &game_values, 0, 1, 1); }

/* ---- keyed values ---- */

/* One part of a key at idx into *part: an integer, or a string (interned
 * with make; else found, and 0 when the text was never interned). */
static int key_part(lua_State *L, keel_state *st, int arg, int idx, int make, keel_value *part) {
  if (lua_type(L, idx) == LUA_TNUMBER && lua_isinteger(L, idx)) {
    *part = (keel_value){ KEEL_V_INT, { 0 } };
    part->u.i = lua_tointeger(L, idx);
    return 1;
  }
  if (lua_type(L, idx) != LUA_TSTRING) {
    luaL_argerror(L, arg, "key parts must be integers or strings");
    return 0;
  }
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  if (len > KEEL_KEY_STR_MAX) luaL_argerror(L, arg, "a key's string part is longer than 255 bytes");
  keel_atom a = 0;
  if (make) check(L, keel_state_intern(st, s, len, &a), "intern");
  else a = keel_state_atom_find(st, s, len);
  *part = (keel_value){ KEEL_V_STR, { 0 } };
  part->u.s = a;
  return a != 0;
}

/* The key at arg: an integer or a string (a key of one part), or an array
 * of 1..KEEL_KEY_MAX of them (read through its metatable when it has one:
 * a read-only proxy, such as a rule's values). 0 when (without make) it
 * cannot exist. */
static int key_arg(lua_State *L, keel_state *st, int arg, int make, keel_key *key) {
  if (!lua_istable(L, arg)) { key->n = 1; return key_part(L, st, arg, arg, make, &key->part[0]); }
  int meta = lua_getmetatable(L, arg);
  if (meta) lua_pop(L, 1);
  lua_Integer n = meta ? luaL_len(L, arg) : (lua_Integer)lua_rawlen(L, arg);
  if (n < 1 || n > KEEL_KEY_MAX) luaL_argerror(L, arg, "a key has 1 to 3 parts");
  int found = 1;
  key->n = (int)n;
  for (int i = 0; i < key->n; i++) {
    if (meta) lua_geti(L, arg, i + 1); else lua_rawgeti(L, arg, i + 1);
    found = key_part(L, st, arg, lua_gettop(L), make, &key->part[i]) && found;
    lua_pop(L, 1);
  }
  return found;
}

/* st:get_keyed(map, key) -> value|nil  [-3, +1, e] */
static int l_get_keyed(lua_State *L) {
  keel_state *st = S(L);
  size_t len;
  const char *m = luaL_checklstring(L, 2, &len);
  keel_atom map = keel_state_atom_find(st, m, len);
  keel_key key;
  keel_value v = { KEEL_V_NIL, { 0 } };
  if (key_arg(L, st, 3, 0, &key) && map) check(L, keel_state_get_keyed(st, map, &key, &v), "get_keyed");
  push_value(L, st, v);
  return 1;
}

/* st:set_keyed(map, key, value|nil)  [-4, +0, e] */
static int l_set_keyed(lua_State *L) {
  keel_state *st = S(L);
  keel_atom map = atom_arg(L, st, 2);
  keel_key key;
  key_arg(L, st, 3, 1, &key);
  check(L, keel_state_set_keyed(st, map, &key, value_arg(L, st, 4)), "set_keyed");
  return 0;
}

/* st:count_keyed(map) -> n  [-2, +1, e] */
static int l_count_keyed(lua_State *L) {
  keel_state *st = S(L);
  size_t len;
  const char *m = luaL_checklstring(L, 2, &len);
  keel_atom map = keel_state_atom_find(st, m, len);
  lua_pushinteger(L, map ? (lua_Integer)keel_state_count_keyed(st, map) : 0);
  return 1;
}

/* st:at_keyed(map, i) -> {key parts}, value (i from 1, in key order)  [-3, +2, e] */
static int l_at_keyed(lua_State *L) {
  keel_state *st = S(L);
  size_t len;
  const char *m = luaL_checklstring(L, 2, &len);
  keel_atom map = keel_state_atom_find(st, m, len);
  lua_Integer i = luaL_checkinteger(L, 3);
  size_t n = map ? keel_state_count_keyed(st, map) : 0;
  if (i < 1 || (size_t)i > n) return luaL_argerror(L, 3, lua_pushfstring(L, "1..%d expected", (int)n));
  keel_key key;
  keel_value v;
  check(L, keel_state_at_keyed(st, map, (size_t)i - 1, &key, &v), "at_keyed");
  lua_createtable(L, key.n, 0);
  for (int k = 0; k < key.n; k++) {
    push_value(L, st, key.part[k]);
    lua_rawseti(L, -2, k + 1);
  }
  push_value(L, st, v);
  return 2;
}

/* st:get_owner(hex) -> side|nil  [-2, +1, e] */
static int l_owner(lua_State *L) {
  keel_state *st = S(L);
  push_atom(L, st, keel_state_get_owner(st, keel_lua_checkhex(L, 2)));
  return 1;
}

/* st:set_owner(hex | {hexes}, side|nil)  [-3, +0, e] */
static int l_set_owner(lua_State *L) {
  keel_state *st = S(L);
  keel_atom side = opt_atom(L, st, 3);
  if (lua_istable(L, 2)) {
    size_t n;
    keel_hex *hs = keel_lua_checkhexes(L, 2, &n);
    for (size_t i = 0; i < n; i++) check(L, keel_state_set_owner(st, hs[i], side), "set_owner");
  } else {
    check(L, keel_state_set_owner(st, keel_lua_checkhex(L, 2), side), "set_owner");
  }
  return 0;
}

/* ---- shared owners ---- */

#define OWNER_BASE_MT "keel.state.OwnerBase"

static void owner_base_release(void *p) { keel_owner_base_release(p); }

/* keel.state.owner_base({ {side = NAME, hexes = {hex, ...}}, ... }) -> OwnerBase: owners many games
 * share, a later entry winning for a hex two name  [-1, +1, e] */
static int l_owner_base(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  size_t ng = (size_t)luaL_len(L, 1), total = 0;
  for (size_t g = 1; g <= ng; g++) {
    if (lua_geti(L, 1, (lua_Integer)g) != LUA_TTABLE) return luaL_argerror(L, 1, "a list of {side =, hexes =} expected");
    lua_getfield(L, -1, "hexes");
    if (!lua_istable(L, -1)) return luaL_argerror(L, 1, lua_pushfstring(L, "entry %d: hexes must be a list", (int)g));
    total += (size_t)luaL_len(L, -1);
    lua_pop(L, 2);
  }
  keel_hex *hexes = lua_newuserdatauv(L, (total ? total : 1) * sizeof *hexes, 0);
  uint8_t *sides = lua_newuserdatauv(L, total ? total : 1, 0);
  const char *names[255];
  size_t nnames = 0, at = 0;
  for (size_t g = 1; g <= ng; g++) {
    lua_geti(L, 1, (lua_Integer)g);
    int entry = lua_gettop(L);
    lua_getfield(L, entry, "side");
    const char *side = lua_tostring(L, -1);
    if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 1, lua_pushfstring(L, "entry %d: side must be a name", (int)g));
    size_t k = 0;
    while (k < nnames && strcmp(names[k], side) != 0) k++;
    if (k == nnames) {
      if (nnames == 255) return luaL_argerror(L, 1, "at most 255 sides");
      names[nnames++] = side;   /* the string stays in the table at 1 */
    }
    lua_getfield(L, entry, "hexes");
    size_t n;
    keel_hex *hs = keel_lua_checkhexes(L, lua_gettop(L), &n);
    memcpy(hexes + at, hs, n * sizeof *hs);
    memset(sides + at, (int)k, n);
    at += n;
    lua_settop(L, entry - 1);
  }
  keel_owner_base **ud = keel_lua_newobject(L, sizeof *ud, 0, OWNER_BASE_MT);
  keel_status s = keel_owner_base_new(hexes, sides, at, names, nnames, ud);
  if (s != KEEL_OK) return keel_lua_fail(L, s, "owner_base");
  return 1;
}

/* base:count() -> hexes owned  [-1, +1, e] */
static int l_owner_base_count(lua_State *L) {
  keel_owner_base *b = keel_lua_checkobject(L, 1, OWNER_BASE_MT, "owner base");
  lua_pushinteger(L, (lua_Integer)keel_owner_base_count(b));
  return 1;
}

/* st:set_owner_base(base): a state with no owners yet starts from base's  [-2, +0, e] */
static int l_set_owner_base(lua_State *L) {
  keel_state *st = S(L);
  keel_owner_base *b = keel_lua_checkobject(L, 2, OWNER_BASE_MT, "owner base");
  keel_status s = keel_state_set_owner_base(st, b);
  if (s == KEEL_E_STATE)
    return luaL_error(L, "set_owner_base: only on a state with no owners, actions or transaction yet");
  check(L, s, "set_owner_base");
  return 0;
}

/* st:count_owned() -> hexes owned  [-1, +1, e] */
static int l_owned_count(lua_State *L) { lua_pushinteger(L, (lua_Integer)keel_state_count_owned(S(L))); return 1; }

/* st:get_version() -> integer (changes with any change, undo included)  [-1, +1, e] */
static int l_get_version(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_state_get_version(S(L)));
  return 1;
}

/* st:get_owner_version() -> integer (changes with any owner change, undo included)  [-1, +1, e] */
static int l_get_owner_version(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_state_get_owner_version(S(L)));
  return 1;
}

/* ---- rules, transactions, actions ---- */

/* st:push_rule(id) -> atom / st:pop_rule() / st:get_rule() -> id|nil  [-2, +1, e]
 * push_rule takes the rule id (a string, nil for none) or the atom an
 * earlier push of it returned (an integer, 0 for none: nothing to intern) */
static int l_push_rule(lua_State *L) {
  keel_state *st = S(L);
  keel_atom a = 0;
  if (lua_isinteger(L, 2)) {   /* the atom an earlier push returned */
    a = (keel_atom)luaL_checkinteger(L, 2);
    if (!keel__atom_ok(st, a)) luaL_argerror(L, 2, "no such rule atom");   /* 0: none */
  } else if (!lua_isnoneornil(L, 2)) {
    a = atom_arg(L, st, 2);
  }
  check(L, keel_state_push_rule(st, a), "push_rule");
  lua_pushinteger(L, a);
  return 1;
}
/* st:pop_rule()  [-1, +0, e] */
static int l_pop_rule(lua_State *L) { keel_state_pop_rule(S(L)); return 0; }
/* st:get_rule() -> id|nil  [-1, +1, e] */
static int l_rule(lua_State *L) { keel_state *st = S(L); push_atom(L, st, keel_state_get_rule(st)); return 1; }

/* st:begin() -> level  [-1, +1, e] */
static int l_begin(lua_State *L) {
  lstate *s = LS(L);
  if (!KEEL_RESERVE(s->marks, s->capmarks, s->nmarks + 1)) return luaL_error(L, "begin: out of memory");
  check(L, keel_state_begin(s->st, &s->marks[s->nmarks]), "begin");
  lua_pushinteger(L, (lua_Integer)++s->nmarks);
  return 1;
}

static size_t level_arg(lua_State *L, lstate *s) {
  lua_Integer lv = luaL_checkinteger(L, 2);
  if (lv < 1 || (size_t)lv != s->nmarks)
    luaL_argerror(L, 2, lua_pushfstring(L, "transaction level %d is not the innermost (%d)", (int)lv, (int)s->nmarks));
  return (size_t)lv;
}

/* Close the innermost transaction (level at 2) with commit or rollback. */
static int close_level(lua_State *L, keel_status (*close)(keel_state *, const keel_mark *), const char *what) {
  lstate *s = LS(L);
  size_t lv = level_arg(L, s);
  check(L, close(s->st, &s->marks[lv - 1]), what);
  s->nmarks--;
  return 0;
}

/* st:commit(level)  [-2, +0, e] */
static int l_commit(lua_State *L) { return close_level(L, keel_state_commit, "commit"); }

/* st:rollback(level)  [-2, +0, e] */
static int l_rollback(lua_State *L) { return close_level(L, keel_state_rollback, "rollback"); }

/* st:depth() -> open transactions  [-1, +1, e] */
static int l_depth(lua_State *L) { lua_pushinteger(L, (lua_Integer)LS(L)->nmarks); return 1; }

/* st:action_begin(name, order_json?, side?) -> number  [-4, +1, e] */
static int l_action_begin(lua_State *L) {
  keel_state *st = S(L);
  const char *name = luaL_checkstring(L, 2);
  const char *order = luaL_optstring(L, 3, NULL);
  keel_atom side = opt_atom(L, st, 4);
  keel_status s = keel_state_action_begin_by(st, name, order, side);
  if (s == KEEL_E_STATE) return luaL_error(L, "action '%s': another action is open", name);
  check(L, s, "action_begin");
  lua_pushinteger(L, keel_state_action_number(st));
  return 1;
}

/* st:set_frozen(frozen)  [-2, +0, e] */
static int l_set_frozen(lua_State *L) {
  check(L, keel_state_set_frozen(S(L), lua_toboolean(L, 2)), "set_frozen");
  return 0;
}

/* st:is_frozen() -> boolean  [-1, +1, e] */
static int l_is_frozen(lua_State *L) { lua_pushboolean(L, keel_state_is_frozen(S(L))); return 1; }

/* st:action_end()  [-1, +0, e] */
static int l_action_end(lua_State *L) { check(L, keel_state_action_end(S(L)), "action_end"); return 0; }

/* Undo (redo 0) or redo the last n (at 2, default 1) actions. */
static int undo_redo(lua_State *L, int redo) {
  keel_state *st = S(L);
  size_t can = redo ? keel_state_count_redos(st) : keel_state_count_actions(st);
  lua_Integer n = luaL_optinteger(L, 2, 1);
  if (n < 0) return luaL_argerror(L, 2, "a count >= 0 expected");
  if (!redo && (size_t)n > can && (size_t)n > keel_state_get_undo_depth(st))
    return luaL_error(L, "undo %I: past the undo depth (%I actions are kept undoable, %I can be undone now; "
                      "set_undo_depth sets it)", n, (lua_Integer)keel_state_get_undo_depth(st), (lua_Integer)can);
  if ((size_t)n > can)
    return luaL_argerror(L, 2, lua_pushfstring(L, "%d actions can be %s", (int)can, redo ? "redone" : "undone"));
  check(L, (redo ? keel_state_redo : keel_state_undo)(st, (size_t)n), redo ? "redo" : "undo");
  return 0;
}

/* st:undo(n)  [-2, +0, e] */
static int l_undo(lua_State *L) { return undo_redo(L, 0); }
/* st:redo(n)  [-2, +0, e] */
static int l_redo(lua_State *L) { return undo_redo(L, 1); }
/* st:count_actions() -> undoable actions  [-1, +1, e] */
static int l_action_count(lua_State *L) { lua_pushinteger(L, (lua_Integer)keel_state_count_actions(S(L))); return 1; }
/* st:count_redos() -> redoable actions  [-1, +1, e] */
static int l_redo_count(lua_State *L) { lua_pushinteger(L, (lua_Integer)keel_state_count_redos(S(L))); return 1; }
/* st:action_number() -> the last action begun  [-1, +1, e] */
static int l_action_number(lua_State *L) { lua_pushinteger(L, keel_state_action_number(S(L))); return 1; }
/* st:set_action_number(n): the numbering of a loaded state goes on from n  [-2, +0, e] */
static int l_set_action_number(lua_State *L) {
  keel_state *st = S(L);
  lua_Integer n = luaL_checkinteger(L, 2);
  keel_status s = keel_state_set_action_number(st, n);
  if (s == KEEL_E_ARG) return luaL_argerror(L, 2, "a whole number >= 0 expected");
  if (s == KEEL_E_STATE) return luaL_error(L, "set_action_number: only on a state with no actions, redo or transaction");
  return 0;
}

/* ---- hash, journal, memory ---- */

/* Push h as 16 lowercase hex digits. */
static int push_hex64(lua_State *L, uint64_t h) {
  char tmp[20];
  snprintf(tmp, sizeof tmp, "%016llx", (unsigned long long)h);
  lua_pushstring(L, tmp);
  return 1;
}

/* st:hash() -> integer  [-1, +1, e] */
static int l_hash(lua_State *L) { lua_pushinteger(L, (lua_Integer)keel_state_hash(S(L))); return 1; }
/* st:hash_full() -> integer (recomputed)  [-1, +1, e] */
static int l_hash_full(lua_State *L) { lua_pushinteger(L, (lua_Integer)keel_state_hash_full(S(L))); return 1; }
/* st:hash_hex() -> "016x"  [-1, +1, e] */
static int l_hash_hex(lua_State *L) { return push_hex64(L, keel_state_hash(S(L))); }

/* st:journal() -> string  [-1, +1, e] */
static int l_journal(lua_State *L) {
  const char *j;
  size_t n;
  keel_status r = keel_state_journal(S(L), &j, &n);
  if (r == KEEL_E_RANGE)
    return luaL_error(L, "journal: the journal was streamed to its file, which holds its first lines "
                      "(journal_since reads the lines held)");
  check(L, r, "journal");
  lua_pushlstring(L, j, n);
  return 1;
}
/* st:journal_size() -> bytes  [-1, +1, e] */
static int l_journal_size(lua_State *L) {
  size_t n;
  check(L, keel_state_journal_count(S(L), NULL, &n), "journal_size");
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}
/* st:journal_write(path) -> true | nil, why: the whole journal written to path atomically, as
 * keel.file.write does, with no copy of it in Lua  [-2, +1|2, e] */
static int l_journal_write(lua_State *L) {
  keel_state *st = S(L);
  const char *path = luaL_checkstring(L, 2);
  const char *j;
  size_t n;
  keel_status r = keel_state_journal(st, &j, &n);
  if (r == KEEL_E_RANGE) return keel_lua_nilmsg(L, "the journal was streamed to its file (journal_close closes it)");
  check(L, r, "journal_write");
  if (!*path) return keel_lua_nilmsg(L, "an empty path names no file to write");
  r = keel_file_write_atomic(path, j, n);
  int why = errno;
  if (r == KEEL_E_NOMEM) return keel_lua_fail(L, r, "journal_write");
  if (r != KEEL_OK) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: cannot write (%s)", path, keel_file_reason(r, why));
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}
/* st:journal_count() -> lines, bytes (the whole game's, written or held)  [-1, +2, e] */
static int l_journal_count(lua_State *L) {
  size_t lines, bytes;
  check(L, keel_state_journal_count(S(L), &lines, &bytes), "journal_count");
  lua_pushinteger(L, (lua_Integer)lines);
  lua_pushinteger(L, (lua_Integer)bytes);
  return 2;
}
/* st:journal_since(line) -> the text of the lines after the first `line`, the number of lines  [-2, +2, e] */
static int l_journal_since(lua_State *L) {
  keel_state *st = S(L);
  lua_Integer line = luaL_checkinteger(L, 2);
  size_t lines, len;
  const char *text;
  check(L, keel_state_journal_count(st, &lines, NULL), "journal_since");
  if (line < 0 || (size_t)line > lines)
    return luaL_argerror(L, 2, lua_pushfstring(L, "a line from 0 to %I expected", (lua_Integer)lines));
  keel_status r = keel_state_journal_since(st, (size_t)line, &text, &len);
  if (r == KEEL_E_RANGE)
    return luaL_error(L, "journal_since %I: the journal was streamed to its file and no longer holds that line "
                      "(st:journal_keep keeps the lines a reader has yet to read)", line);
  check(L, r, "journal_since");
  lua_pushlstring(L, text, len);
  lua_pushinteger(L, (lua_Integer)lines);
  return 2;
}
static keel_status file_sink(void *ud, const char *text, size_t len) {
  return fwrite(text, 1, len, (FILE *)ud) == len ? KEEL_OK : KEEL_E_IO;
}
/* Close the journal's file: written out whole, then closed; nil and why on failure. */
static int close_stream(lua_State *L, lstate *s, const char *what) {
  keel_status r = KEEL_OK;
  if (s->jf) {
    r = keel_state_journal_flush(s->st, 1);
    if (r == KEEL_OK && s->st->depth) r = KEEL_E_STATE;
    keel_state_journal_stream(s->st, NULL, NULL);
    if (fclose(s->jf) != 0 && r == KEEL_OK) r = KEEL_E_IO;
    s->jf = NULL;
  }
  if (r == KEEL_E_STATE) return luaL_error(L, "%s: a transaction is open: its lines cannot be written yet", what);
  if (r != KEEL_OK) return keel_lua_nilerr(L, r, what);
  lua_pushboolean(L, 1);
  return 1;
}
/* st:journal_stream(path|nil) -> true | nil, why: the journal so far and every line after it go to
 * path (made afresh), the state dropping what it wrote; nil: stop (see journal_close)  [-2, +1|2, e] */
static int l_journal_stream(lua_State *L) {
  lstate *s = LS(L);
  const char *path = luaL_optstring(L, 2, NULL);
  if (s->jf) {
    int n = close_stream(L, s, "journal_stream");
    if (!lua_toboolean(L, -n)) return n;
    lua_pop(L, n);
  }
  if (!path) { lua_pushboolean(L, 1); return 1; }
  FILE *f = fopen(path, "wb");
  if (!f) return keel_lua_nilmsg(L, lua_pushfstring(L, "journal_stream: cannot write %s: %s", path, strerror(errno)));
  s->jf = f;
  keel_state_journal_stream(s->st, file_sink, f);
  lua_pushboolean(L, 1);
  return 1;
}
/* st:journal_flush(all) -> true | nil, why: write what is held (all, or once it is over
 * KEEL_JOURNAL_FLUSH_BYTES; nothing inside a transaction)  [-2, +1|2, e] */
static int l_journal_flush(lua_State *L) {
  lstate *s = LS(L);
  if (!s->jf) return luaL_error(L, "journal_flush: the journal is not streamed (journal_stream)");
  keel_status r = keel_state_journal_flush(s->st, lua_toboolean(L, 2));
  if (r == KEEL_OK && lua_toboolean(L, 2) && fflush(s->jf) != 0) r = KEEL_E_IO;
  if (r != KEEL_OK) return keel_lua_nilerr(L, r, "journal_flush");
  lua_pushboolean(L, 1);
  return 1;
}
/* st:journal_close() -> true | nil, why: the streamed journal written whole and its file closed  [-1, +1|2, e] */
static int l_journal_close(lua_State *L) { return close_stream(L, LS(L), "journal_close"); }
/* st:is_journal_streamed() -> boolean  [-1, +1, e] */
static int l_journal_streamed(lua_State *L) { lua_pushboolean(L, LS(L)->jf != NULL); return 1; }
/* st:journal_keep(line|nil): lines from `line` on stay held once written (nil: none)  [-2, +0, e] */
static int l_journal_keep(lua_State *L) {
  lua_Integer line = lua_isnoneornil(L, 2) ? -1 : luaL_checkinteger(L, 2);
  keel_state_journal_keep(S(L), line < 0 ? SIZE_MAX : (size_t)line);
  return 0;
}
/* st:set_undo_depth(n): at most n actions undoable  [-2, +0, e] */
static int l_set_undo_depth(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 2);
  if (n < 0) return luaL_argerror(L, 2, "a depth >= 0 expected");
  keel_status r = keel_state_set_undo_depth(S(L), (size_t)n);
  if (r == KEEL_E_STATE) return luaL_error(L, "set_undo_depth: not while a transaction is open");
  check(L, r, "set_undo_depth");
  return 0;
}
/* st:get_undo_depth() -> n  [-1, +1, e] */
static int l_get_undo_depth(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_state_get_undo_depth(S(L)));
  return 1;
}
/* st:journal_enable(on)  [-2, +0, e] */
static int l_journal_enable(lua_State *L) { keel_state_journal_enable(S(L), lua_toboolean(L, 2)); return 0; }
/* st:journal_append(line)  [-2, +0, e] */
static int l_journal_append(lua_State *L) {
  keel_state *st = S(L);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (memchr(s, '\n', len)) return luaL_argerror(L, 2, "one line expected");
  check(L, keel_state_journal_append(st, s, len), "journal_append");
  return 0;
}
/* st:journal_clear()  [-1, +0, e] */
static int l_journal_clear(lua_State *L) { check(L, keel_state_journal_clear(S(L)), "journal_clear"); return 0; }

/* st:memory() -> bytes, unit bytes  [-1, +2, e] */
static int l_memory(lua_State *L) {
  keel_state *st = S(L);
  lua_pushinteger(L, (lua_Integer)keel_state_memory(st));
  lua_pushinteger(L, (lua_Integer)keel_state_unit_memory(st));
  return 2;
}

/* ---- JSON of Lua values (json.c writes; object keys sorted) ---- */

/* The encoder's working memory, one per Lua state (upvalue 1 of
 * keel.state.json): the output and a stack of object keys. It outlives
 * each call, so encoding allocates nothing of Lua's and an error raised
 * midway leaks nothing. No Lua code runs while it is in use (raw access
 * only). Its user values 1 and 2 keep the two markers' metatables alive
 * (array_mt, null_mt: compared by address, as lua_getmetatable gives them,
 * whatever their __metatable field says). */
typedef struct scratch {
  keel__buf out;
  keel__json_name *keys;
  size_t nkeys, capkeys;
  const char *err;
  const void *array_mt, *null_mt;
  int pretty;
} scratch;

#define SCRATCH_KEEP ((size_t)64 << 10)   /* larger buffers are freed after use */

static void scratch_reset(scratch *j) {
  if (j->out.cap > SCRATCH_KEEP) { free(j->out.p); j->out = (keel__buf){ 0 }; }
  if (j->capkeys > SCRATCH_KEEP / sizeof *j->keys) { free(j->keys); j->keys = NULL; j->capkeys = 0; }
  j->out.n = 0;
  j->nkeys = 0;
  j->err = NULL;
  j->pretty = 0;
}

/* __gc of the scratch userdata  [-1, +0, -] */
static int scratch_gc(lua_State *L) {
  scratch *j = lua_touserdata(L, 1);
  free(j->out.p);
  free(j->keys);
  memset(j, 0, sizeof *j);
  return 0;
}

static void json_of(lua_State *L, int idx, scratch *j, int depth);

#define OOM(j) ((j)->err = "out of memory")
#define PRETTY_LINE 100   /* a pretty object of scalars this wide or less takes one line */

/* Two spaces a level, after a newline (pretty output). */
static int newline(scratch *j, int level) {
  if (!KEEL_JSON_LIT(&j->out, "\n") || !keel__buf_reserve(&j->out, (size_t)level * 2)) return 0;
  memset(j->out.p + j->out.n, ' ', (size_t)level * 2);
  j->out.n += (size_t)level * 2;
  return 1;
}

/* Is the value at idx written without nesting (not a table, or null)? */
static int is_scalar(lua_State *L, int idx, const scratch *j) {
  if (lua_type(L, idx) != LUA_TTABLE) return 1;
  if (!lua_getmetatable(L, idx)) return 0;
  int null = lua_topointer(L, -1) == j->null_mt;
  lua_pop(L, 1);
  return null;
}

/* An array's items 1..n; pretty: on one line when none nests ("[1, 2]"),
 * else one a line. */
static void json_items(lua_State *L, int idx, scratch *j, int depth, lua_Integer n) {
  int lines = 0;
  if (j->pretty) {
    for (lua_Integer i = 1; i <= n && !lines; i++) {
      lua_rawgeti(L, idx, i);
      lines = !is_scalar(L, -1, j);
      lua_pop(L, 1);
    }
  }
  if (!KEEL_JSON_LIT(&j->out, "[")) { OOM(j); return; }
  for (lua_Integer i = 1; i <= n && !j->err; i++) {
    int ok = i == 1 || (j->pretty && !lines ? KEEL_JSON_LIT(&j->out, ", ") : KEEL_JSON_LIT(&j->out, ","));
    if (ok && lines) ok = newline(j, depth + 1);
    if (!ok) { OOM(j); return; }
    lua_rawgeti(L, idx, i);
    json_of(L, lua_gettop(L), j, depth + 1);
    lua_pop(L, 1);
  }
  if (!j->err && lines && !newline(j, depth)) OOM(j);
  if (!j->err && !KEEL_JSON_LIT(&j->out, "]")) OOM(j);
}

/* An object's fields, keys sorted (j->keys[base..base+count)); pretty: on
 * one line when every value is a scalar and the line is PRETTY_LINE bytes
 * or less ({"a": 1, "b": 2}), else one field a line. */
static void json_fields(lua_State *L, int idx, scratch *j, int depth, size_t base, size_t count) {
  int lines = 0;
  size_t at = j->out.n;
  if (j->pretty) {
    for (size_t i = 0; i < count && !lines; i++) {
      lua_pushlstring(L, j->keys[base + i].s, j->keys[base + i].len);
      lua_rawget(L, idx);
      lines = !is_scalar(L, -1, j);
      lua_pop(L, 1);
    }
  }
  for (int pass = 0; pass < 2; pass++) {
    if (!KEEL_JSON_LIT(&j->out, "{")) { OOM(j); return; }
    for (size_t i = 0; i < count && !j->err; i++) {
      keel__json_name k = j->keys[base + i];     /* a copy: nested objects may move keys */
      int ok = i == 0 || (j->pretty && !lines ? KEEL_JSON_LIT(&j->out, ", ") : KEEL_JSON_LIT(&j->out, ","));
      if (ok && lines) ok = newline(j, depth + 1);
      ok = ok && keel__json_str(&j->out, k.s, k.len) &&
           (j->pretty ? KEEL_JSON_LIT(&j->out, ": ") : KEEL_JSON_LIT(&j->out, ":"));
      if (!ok) { OOM(j); return; }
      lua_pushlstring(L, k.s, k.len);
      lua_rawget(L, idx);
      json_of(L, lua_gettop(L), j, depth + 1);
      lua_pop(L, 1);
    }
    if (!j->err && lines && !newline(j, depth)) OOM(j);
    if (!j->err && !KEEL_JSON_LIT(&j->out, "}")) OOM(j);
    /* pretty, one line: wider than PRETTY_LINE is written again, a field a line */
    if (j->err || !j->pretty || lines || count == 0 || j->out.n - at <= PRETTY_LINE) return;
    j->out.n = at;
    lines = 1;
  }
}

/* A table: an array (marked by keel.state.json_array, or keys 1..n with
 * n >= 1) or an object (string keys; an empty table unmarked is {}). */
static void json_table(lua_State *L, int idx, scratch *j, int depth, int marked) {
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  size_t count = 0, base = j->nkeys;
  int all_strings = 1;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    count++;
    if (lua_type(L, -2) != LUA_TSTRING) all_strings = 0;
    else if (all_strings && !marked) {
      if (!KEEL_RESERVE(j->keys, j->capkeys, j->nkeys + 1)) { lua_pop(L, 2); OOM(j); return; }
      keel__json_name *k = &j->keys[j->nkeys++];
      k->s = lua_tolstring(L, -2, &k->len);   /* the table keeps the key alive */
    }
    lua_pop(L, 1);
  }
  if (marked || (n > 0 && (size_t)n == count)) {   /* an array */
    j->nkeys = base;
    if ((size_t)n != count) { j->err = "an array (json_array) must have the keys 1..n and no other"; return; }
    json_items(L, idx, j, depth, n);
    return;
  }
  if (!all_strings) { j->err = "table keys must be all strings (an object) or 1..n (an array)"; return; }
  if (count > 1) keel__json_sort_keys(j->keys + base, count);   /* no keys: j->keys may be NULL */
  json_fields(L, idx, j, depth, base, count);
  j->nkeys = base;
}

static void json_of(lua_State *L, int idx, scratch *j, int depth) {
  int ok = 1;
  if (depth > 64) { j->err = "nested too deeply (a cycle?)"; return; }
  switch (lua_type(L, idx)) {
  case LUA_TNIL: ok = keel__json_null(&j->out); break;
  case LUA_TBOOLEAN: ok = keel__json_bool(&j->out, lua_toboolean(L, idx)); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) ok = keel__json_int(&j->out, lua_tointeger(L, idx));
    else {
      double f = lua_tonumber(L, idx);
      if (f != f || f - f != 0) { j->err = "NaN and infinity have no JSON form"; return; }
      ok = keel__json_float(&j->out, f);
    }
    break;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    ok = keel__json_str(&j->out, s, len);
    break;
  }
  case LUA_TTABLE: {
    int marked = 0;
    if (lua_getmetatable(L, idx)) {     /* raw: no __metatable, no metamethod */
      const void *mt = lua_topointer(L, -1);
      lua_pop(L, 1);
      if (mt == j->null_mt) { ok = keel__json_null(&j->out); break; }
      marked = mt == j->array_mt;
    }
    luaL_checkstack(L, 8, "json");
    json_table(L, idx, j, depth, marked);
    return;
  }
  default:
    j->err = "functions, userdata and threads have no JSON form";
    return;
  }
  if (!ok) OOM(j);
}

/* keel.state.json(value [, pretty]) -> string  [-2, +1, e] */
static int l_json(lua_State *L) {
  scratch *j = lua_touserdata(L, lua_upvalueindex(1));
  lua_settop(L, 2);
  int pretty = lua_toboolean(L, 2);
  scratch_reset(j);
  j->pretty = pretty;
  json_of(L, 1, j, 0);
  /* no position: the value has no JSON form, whoever asked (luaL_error
   * would name the Lua line that called, keel.json's) */
  if (j->err) { lua_pushfstring(L, "json: %s", j->err); return lua_error(L); }
  lua_pushlstring(L, j->out.n ? j->out.p : "", j->out.n);
  return 1;
}

/* keel.state.json_line(ev, key1, value1, ...) -> '{"ev":EV,"key1":VALUE1,...}':
 * one journal line, the fields in the order given (a nil value is null)
 * [-(2n+1), +1, e] */
static int l_json_line(lua_State *L) {
  scratch *j = lua_touserdata(L, lua_upvalueindex(1));
  int top = lua_gettop(L);
  if (top % 2 == 0) return luaL_error(L, "json_line: ev, then key, value pairs expected");
  scratch_reset(j);
  if (!KEEL_JSON_LIT(&j->out, "{\"ev\":")) j->err = "out of memory";
  else json_of(L, 1, j, 0);
  for (int i = 2; i < top && !j->err; i += 2) {
    size_t len;
    if (lua_type(L, i) != LUA_TSTRING) return luaL_argerror(L, i, "a key (string) expected");
    const char *k = lua_tolstring(L, i, &len);
    if (!KEEL_JSON_LIT(&j->out, ",") || !keel__json_str(&j->out, k, len) || !KEEL_JSON_LIT(&j->out, ":")) {
      j->err = "out of memory";
      break;
    }
    json_of(L, i + 1, j, 0);
  }
  if (!j->err && !KEEL_JSON_LIT(&j->out, "}")) j->err = "out of memory";
  if (j->err) { lua_pushfstring(L, "json_line: %s", j->err); return lua_error(L); }
  lua_pushlstring(L, j->out.p, j->out.n);
  return 1;
}

/* keel.state.json_array(t) -> t: t marked as a JSON array (written [] when
 * empty; its keys must be 1..n). A table with a metatable of its own is
 * refused (a sealed table keeps its seal).  [-1, +1, e] */
static int l_json_array(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_getiuservalue(L, lua_upvalueindex(1), 1);
  if (lua_getmetatable(L, 1)) {
    if (!lua_rawequal(L, -1, -2)) return luaL_argerror(L, 1, "a table without a metatable expected");
    lua_pop(L, 1);
  }
  lua_setmetatable(L, 1);
  return 1;
}

/* __tostring of json_null  [-0, +1, m] */
static int null_tostring(lua_State *L) {
  lua_pushliteral(L, "null");
  return 1;
}

/* __newindex of json_null  [-0, +0, e] */
static int null_newindex(lua_State *L) {
  return luaL_error(L, "json_null is read-only");
}

/* The markers' metatables (array, null), kept as user values 1 and 2 of
 * the scratch at -1, their addresses in it; json_null pushed. Each
 * metatable is protected (__metatable): Lua code can neither read nor
 * change it, nor put another on a marked table.  [-0, +1, m] */
static void json_markers(lua_State *L) {
  scratch *j = lua_touserdata(L, -1);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "keel.json.array");
  lua_setfield(L, -2, "__metatable");
  j->array_mt = lua_topointer(L, -1);
  lua_setiuservalue(L, -2, 1);
  lua_createtable(L, 0, 0);                  /* json_null */
  lua_createtable(L, 0, 3);
  lua_pushliteral(L, "keel.json.null");
  lua_setfield(L, -2, "__metatable");
  lua_pushcfunction(L, null_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, null_newindex);
  lua_setfield(L, -2, "__newindex");
  j->null_mt = lua_topointer(L, -1);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, -4, 2);
  lua_setmetatable(L, -2);
}

/* ---- save, load, files (save.c, file.c) ---- */

/* The meta pairs {{key, value}, ...} at arg as two arrays of strings, kept
 * alive by a table left on the stack; *n pairs. */
static void meta_arg(lua_State *L, int arg, const char ***mk, const char ***mv, size_t *n) {
  *n = 0;
  *mk = *mv = NULL;
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  size_t m = (size_t)luaL_len(L, arg);
  const char **k = lua_newuserdatauv(L, (m ? 2 * m : 1) * sizeof *k, 0);
  lua_createtable(L, (int)(2 * m), 0);
  int anchor = lua_gettop(L);
  for (size_t i = 0; i < m; i++) {
    lua_geti(L, arg, (lua_Integer)i + 1);
    if (!lua_istable(L, -1)) luaL_argerror(L, arg, "meta: array of {key, value} expected");
    for (int f = 1; f <= 2; f++) {
      lua_geti(L, -1, f);
      size_t sl;
      const char *str = lua_tolstring(L, -1, &sl);
      if (!str || strlen(str) != sl) luaL_argerror(L, arg, "meta: strings without zero bytes expected");
      k[(size_t)(f - 1) * m + i] = str;
      lua_rawseti(L, anchor, (lua_Integer)(2 * i + (size_t)f));
    }
    lua_pop(L, 1);
  }
  *mk = k;
  *mv = k + m;
  *n = m;
}

/* st:save_text(meta?) -> string  [-2, +1, e] */
static int l_save_text(lua_State *L) {
  keel_state *st = S(L);
  const char **mk, **mv;
  size_t n;
  meta_arg(L, 2, &mk, &mv, &n);
  scratch *j = lua_touserdata(L, lua_upvalueindex(1));
  scratch_reset(j);
  check(L, keel__state_save_buf(st, mk, mv, n, &j->out), "save_text");
  lua_pushlstring(L, j->out.p, j->out.n);
  return 1;
}

/* st:save(path, meta?) -> true | nil, reason  [-3, +1|2, e]; atomic */
static int l_save(lua_State *L) {
  keel_state *st = S(L);
  const char *path = luaL_checkstring(L, 2);
  const char **mk, **mv;
  size_t n;
  meta_arg(L, 3, &mk, &mv, &n);
  keel_status s = keel_state_save(st, path, mk, mv, n);
  int why = errno;
  if (s == KEEL_E_NOMEM || s == KEEL_E_ARG) return keel_lua_fail(L, s, "save");
  if (s != KEEL_OK) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: cannot write the save (%s)", path, keel_file_reason(s, why));
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* Push the State and meta pairs of a load, or nil and "<name>: <why>". */
static int push_loaded(lua_State *L, const char *name, keel_status s, keel_state *st,
                       char **meta, size_t nmeta, char *err) {
  if (s != KEEL_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", err ? err : keel_status_str(s));
    free(err);
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", name, why);
    return 2;
  }
  lstate *ls = keel_lua_newobject(L, sizeof *ls, 0, STATE_MT);
  ls->st = st;
  lua_createtable(L, (int)nmeta, 0);
  for (size_t i = 0; i < nmeta; i++) {
    lua_createtable(L, 2, 0);
    lua_pushstring(L, meta[2 * i]); lua_rawseti(L, -2, 1);
    lua_pushstring(L, meta[2 * i + 1]); lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  keel_save_meta_free(meta, nmeta);
  return 2;
}

/* keel.state.load_text(text, name?) -> State, meta | nil, reason  [-2, +2, e] */
static int l_load_text(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "save");
  keel_state *st; char **meta; size_t nmeta; char *err;
  keel_status s = keel_state_load_text(text, len, &st, &meta, &nmeta, &err);
  return push_loaded(L, name, s, st, meta, nmeta, err);
}

/* keel.state.load(path) -> State, meta | nil, reason  [-1, +2, e] */
static int l_load(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  keel_state *st; char **meta; size_t nmeta; char *err;
  keel_status s = keel_state_load(path, &st, &meta, &nmeta, &err);
  return push_loaded(L, path, s, st, meta, nmeta, err);
}

/* keel.state.hash_bytes(s) -> "016x"  [-1, +1, e] (FNV-1a 64) */
static int l_hash_bytes(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  return push_hex64(L, keel_hash_bytes(s, len));
}

/* st:bind(name) -> function: method `name` bound to st, called as
 * f(anything, args...) like st:name(args...) without looking st up or
 * checking it (the facade rules see the game through).  [-2, +1, e] */
static int l_bind(lua_State *L) {
  check_state(L, 1);
  const char *name = luaL_checkstring(L, 2);
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__index");
  lua_getfield(L, -1, name);
  lua_CFunction fn = lua_tocfunction(L, -1);
  if (!fn || fn == l_bind || !lua_getupvalue(L, -1, 1))
    return luaL_argerror(L, 2, lua_pushfstring(L, "no method '%s' to bind", name));
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, fn, 2);   /* upvalues: the scratch, the state */
  return 1;
}

/* require "keel.state" -> module  [-0, +1, e] */
int keel_lua_open_state(lua_State *L) {
  static const luaL_Reg methods[] = {
    { "close", l_gc },
    { "unit_new", l_unit_new }, { "count_units", l_unit_count }, { "unit_ids", l_unit_ids }, { "get_unit", l_unit },
    { "get", l_get }, { "set", l_set }, { "move", l_move },
    { "get_value", l_value }, { "set_value", l_set_value }, { "values", l_values }, { "value_keys", l_value_keys },
    { "get_marker", l_marker }, { "set_marker", l_set_marker }, { "add_marker", l_add_marker }, { "markers", l_markers },
    { "add_hits", l_add_hits }, { "reduce_points", l_reduce_points }, { "split", l_split },
    { "combine", l_combine }, { "eliminate", l_eliminate },
    { "cargo", l_cargo }, { "cargo_check", l_cargo_check }, { "units_at", l_units_at },
    { "group_new", l_group_new }, { "count_groups", l_group_count }, { "group_ids", l_group_ids }, { "group_get_name", l_group_name },
    { "group_add", l_group_add }, { "group_remove", l_group_remove }, { "group_units", l_group_units },
    { "groups_of", l_groups_of }, { "group_get_value", l_group_value }, { "group_set_value", l_group_set },
    { "group_values", l_group_values },
    { "get_global", l_global }, { "set_global", l_set_global }, { "globals", l_globals },
    { "get_owner", l_owner }, { "set_owner", l_set_owner }, { "count_owned", l_owned_count },
    { "get_owner_version", l_get_owner_version }, { "get_version", l_get_version },
    { "set_owner_base", l_set_owner_base },
    { "get_keyed", l_get_keyed }, { "set_keyed", l_set_keyed }, { "count_keyed", l_count_keyed },
    { "at_keyed", l_at_keyed },
    { "push_rule", l_push_rule }, { "pop_rule", l_pop_rule }, { "get_rule", l_rule },
    { "begin", l_begin }, { "commit", l_commit }, { "rollback", l_rollback }, { "depth", l_depth },
    { "action_begin", l_action_begin }, { "action_end", l_action_end },
    { "set_frozen", l_set_frozen }, { "is_frozen", l_is_frozen },
    { "undo", l_undo }, { "redo", l_redo }, { "count_actions", l_action_count },
    { "count_redos", l_redo_count }, { "action_number", l_action_number },
    { "set_action_number", l_set_action_number },
    { "hash", l_hash }, { "hash_hex", l_hash_hex }, { "hash_full", l_hash_full },
    { "journal", l_journal }, { "journal_size", l_journal_size }, { "journal_enable", l_journal_enable },
    { "journal_append", l_journal_append }, { "journal_clear", l_journal_clear },
    { "journal_count", l_journal_count }, { "journal_since", l_journal_since },
    { "journal_stream", l_journal_stream }, { "journal_flush", l_journal_flush },
    { "journal_close", l_journal_close }, { "is_journal_streamed", l_journal_streamed },
    { "journal_keep", l_journal_keep }, { "set_undo_depth", l_set_undo_depth },
    { "get_undo_depth", l_get_undo_depth }, { "journal_write", l_journal_write },
    { "memory", l_memory }, { "save_text", l_save_text }, { "save", l_save },
    { "bind", l_bind },
    { NULL, NULL }
  };
  static const luaL_Reg fns[] = {
    { "new", l_new }, { "load", l_load }, { "load_text", l_load_text }, { "json", l_json },
    { "json_line", l_json_line }, { "json_array", l_json_array },
    { "hash_bytes", l_hash_bytes }, { "owner_base", l_owner_base },
    { NULL, NULL }
  };
  /* the scratch memory of json and save_text: upvalue 1 of every function */
  static const keel_lua_class scratch_class = { .name = "keel.state.Scratch", .gc = scratch_gc };
  keel_lua_newclass(L, &scratch_class, 0);
  keel_lua_newobject(L, sizeof(scratch), 2, "keel.state.Scratch");
  json_markers(L);                           /* json_null, kept for the library below */
  lua_insert(L, -2);
  lua_pushvalue(L, -1);
  static const luaL_Reg base_methods[] = { { "count", l_owner_base_count }, { NULL, NULL } };
  static const keel_lua_class base_cls = { .name = OWNER_BASE_MT, .methods = base_methods, .release = owner_base_release };
  keel_lua_newclass(L, &base_cls, 0);
  static const keel_lua_class cls = { .name = STATE_MT, .methods = methods, .gc = l_gc, .close = l_gc, .tostring = l_tostring };
  keel_lua_newclass(L, &cls, 1);
  luaL_newlibtable(L, fns);
  lua_insert(L, -2);
  luaL_setfuncs(L, fns, 1);
  lua_insert(L, -2);
  lua_setfield(L, -2, "json_null");
  lua_pushinteger(L, KEEL_SAVE_VERSION);
  lua_setfield(L, -2, "save_version");
  return 1;
}
