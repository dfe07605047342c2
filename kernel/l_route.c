/*
 * l_route.c — keel.route: cost maps and reach sets (binding of route.c).
 *
 *   local m = keel.route.costmap { q0 = 0, r0 = -128, width = 256, height = 384,
 *                                  enter = 1, cross = 0 }
 *   m:set_enter(hex, 2); m:set_cross(side, keel.route.BLOCKED); m:set_coast(hex, dir, 1)
 *   local r = m:reach(start, 15 [, coast])
 *   r:cost(hex), r:path(hex), r:count(), r:hexes()
 * The board issue builds cost maps straight from a board and a profile.
 */
#include "l_util.h"

#define COSTMAP_MT "keel.CostMap"
#define REACH_MT "keel.Reach"

typedef struct { keel_costmap *m; } costmap_ud;
typedef struct { keel_reach *r; } reach_ud;

static keel_costmap *check_costmap(lua_State *L, int arg) {
  costmap_ud *u = luaL_checkudata(L, arg, COSTMAP_MT);
  if (!u->m) luaL_argerror(L, arg, "cost map is closed");
  return u->m;
}

static keel_reach *check_reach(lua_State *L, int arg) {
  reach_ud *u = luaL_checkudata(L, arg, REACH_MT);
  if (!u->r) luaL_argerror(L, arg, "reach set is closed");
  return u->r;
}

static uint16_t check_cost(lua_State *L, int arg) {
  lua_Integer c = luaL_checkinteger(L, arg);
  if (c == KEEL_COST_BLOCKED) return KEEL_COST_BLOCKED;
  if (c < 0 || c > KEEL_COST_MAX)
    luaL_argerror(L, arg, lua_pushfstring(L, "cost 0..%d or keel.route.BLOCKED expected, got %I",
                                          (int)KEEL_COST_MAX, c));
  return (uint16_t)c;
}

static int costmap_gc(lua_State *L) {
  costmap_ud *u = luaL_checkudata(L, 1, COSTMAP_MT);
  keel_costmap_free(u->m);
  u->m = NULL;
  return 0;
}

static int reach_gc(lua_State *L) {
  reach_ud *u = luaL_checkudata(L, 1, REACH_MT);
  keel_reach_free(u->r);
  u->r = NULL;
  return 0;
}

/* keel.route.costmap{q0, r0, width, height, enter = 1, cross = 0} -> CostMap  [-1, +1, e] */
static int l_costmap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  costmap_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->m = NULL;
  luaL_setmetatable(L, COSTMAP_MT);
  lua_Integer q0 = keel_lua_optfield_int(L, 1, "q0", 0), r0 = keel_lua_optfield_int(L, 1, "r0", 0);
  lua_Integer w = keel_lua_optfield_int(L, 1, "width", 0), h = keel_lua_optfield_int(L, 1, "height", 0);
  keel_status st = keel_costmap_new(q0, r0, w, h, &u->m);
  if (st != KEEL_OK)
    return luaL_error(L, "costmap: width and height must be 1..16384 and the box on the grid (%s)",
                      keel_status_str(st));
  lua_getfield(L, 1, "enter");
  lua_getfield(L, 1, "cross");
  uint16_t enter = lua_isnil(L, -2) ? 1 : check_cost(L, -2);
  uint16_t cross = lua_isnil(L, -1) ? 0 : check_cost(L, -1);
  lua_pop(L, 2);
  keel_costmap_fill(u->m, enter, cross);
  return 1;
}

/* costmap:set_enter(hex, cost) -> self  [-3, +1, e] */
static int l_set_enter(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_status st = keel_costmap_set_enter(m, keel_lua_checkhex(L, 2), check_cost(L, 3));
  if (st != KEEL_OK) return keel_lua_fail(L, st, "set_enter");
  lua_settop(L, 1);
  return 1;
}

/* costmap:enter_cost(hex) -> cost | nil, reason  [-2, +1|2, e] */
static int l_enter_cost(lua_State *L) {
  uint16_t c;
  keel_status st = keel_costmap_get_enter(check_costmap(L, 1), keel_lua_checkhex(L, 2), &c);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "enter_cost");
  lua_pushinteger(L, c);
  return 1;
}

/* costmap:set_cross(side, cost) -> self  [-3, +1, e] */
static int l_set_cross(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_status st = keel_costmap_set_cross(m, keel_lua_checkside(L, 2), check_cost(L, 3));
  if (st != KEEL_OK) return keel_lua_fail(L, st, "set_cross");
  lua_settop(L, 1);
  return 1;
}

/* costmap:cross_cost(side) -> cost | nil, reason  [-2, +1|2, e] */
static int l_cross_cost(lua_State *L) {
  uint16_t c;
  keel_status st = keel_costmap_get_cross(check_costmap(L, 1), keel_lua_checkside(L, 2), &c);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "cross_cost");
  lua_pushinteger(L, c);
  return 1;
}

/* costmap:set_coast(hex, dir, coast 0..3) -> self  [-4, +1, e] */
static int l_set_coast(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_hex h = keel_lua_checkhex(L, 2);
  lua_Integer dir = luaL_checkinteger(L, 3), coast = luaL_checkinteger(L, 4);
  luaL_argcheck(L, dir >= 0 && dir <= 5, 3, "direction 0..5 expected");
  luaL_argcheck(L, coast >= 0 && coast < KEEL_COASTS, 4, "coast 0..3 expected");
  keel_status st = keel_costmap_set_coast(m, h, (int)dir, (int)coast);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "set_coast");
  lua_settop(L, 1);
  return 1;
}

/* costmap:reach(start, budget [, coast]) -> Reach | nil, reason  [-4, +1|2, e] */
static int l_reach(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_hex start = keel_lua_checkhex(L, 2);
  lua_Integer budget = luaL_checkinteger(L, 3);
  lua_Integer coast = luaL_optinteger(L, 4, 0);
  luaL_argcheck(L, budget >= 0 && budget <= (1 << 20), 3, "budget 0..1048576 expected");
  luaL_argcheck(L, coast >= 0 && coast < KEEL_COASTS, 4, "coast 0..3 expected");
  reach_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->r = NULL;
  luaL_setmetatable(L, REACH_MT);
  keel_status st = keel_reach_new(m, start, (int)coast, (uint32_t)budget, &u->r);
  if (st == KEEL_E_OFF_BOARD) return keel_lua_nilerr(L, st, "reach: start");
  if (st != KEEL_OK) return keel_lua_fail(L, st, "reach");
  /* tell the collector about the C memory the reach set holds */
  lua_gc(L, LUA_GCSTEP, (int)(keel_reach_bytes(u->r) / 1024));
  return 1;
}

/* reach:count() -> hexes reached  [-1, +1, e] */
static int l_count(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_reach_count(check_reach(L, 1)));
  return 1;
}

/* reach:cost(hex) -> MPs | nil, reason  [-2, +1|2, e] */
static int l_cost(lua_State *L) {
  uint32_t c;
  if (keel_reach_cost(check_reach(L, 1), keel_lua_checkhex(L, 2), &c) != KEEL_OK) {
    lua_pushnil(L);
    lua_pushliteral(L, "cost: hex not reachable within the budget");
    return 2;
  }
  lua_pushinteger(L, c);
  return 1;
}

/* reach:path(hex) -> {hexes from the start} | nil, reason  [-2, +1|2, e] */
static int l_path(lua_State *L) {
  keel_reach *r = check_reach(L, 1);
  keel_hex h = keel_lua_checkhex(L, 2);
  size_t n;
  if (keel_reach_path(r, h, NULL, 0, &n) == KEEL_E_NOT_FOUND) {
    lua_pushnil(L);
    lua_pushliteral(L, "path: hex not reachable within the budget");
    return 2;
  }
  keel_hex *buf = lua_newuserdatauv(L, n * sizeof *buf, 0);
  keel_reach_path(r, h, buf, n, &n);
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* reach:hexes() -> {hexes in settled order: cost, then discovery}  [-1, +1, e] */
static int l_hexes(lua_State *L) {
  keel_reach *r = check_reach(L, 1);
  size_t n = keel_reach_count(r);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, keel_reach_hex(r, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int costmap_tostring(lua_State *L) {
  check_costmap(L, 1);
  lua_pushliteral(L, "keel.CostMap");
  return 1;
}

static int reach_tostring(lua_State *L) {
  lua_pushfstring(L, "keel.Reach (%d hexes)", (int)keel_reach_count(check_reach(L, 1)));
  return 1;
}

static void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
                      lua_CFunction gc, lua_CFunction tostring) {
  luaL_newmetatable(L, name);
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

int keel_lua_open_route(lua_State *L) {
  static const luaL_Reg costmap_methods[] = {
    {"set_enter", l_set_enter}, {"enter_cost", l_enter_cost}, {"set_cross", l_set_cross},
    {"cross_cost", l_cross_cost}, {"set_coast", l_set_coast}, {"reach", l_reach}, {NULL, NULL}
  };
  static const luaL_Reg reach_methods[] = {
    {"count", l_count}, {"cost", l_cost}, {"path", l_path}, {"hexes", l_hexes}, {NULL, NULL}
  };
  new_class(L, COSTMAP_MT, costmap_methods, costmap_gc, costmap_tostring);
  new_class(L, REACH_MT, reach_methods, reach_gc, reach_tostring);
  lua_newtable(L);
  lua_pushcfunction(L, l_costmap);
  lua_setfield(L, -2, "costmap");
  lua_pushinteger(L, KEEL_COST_BLOCKED);
  lua_setfield(L, -2, "BLOCKED");
  lua_pushinteger(L, KEEL_COST_MAX);
  lua_setfield(L, -2, "COST_MAX");
  return 1;
}
