/*
 * l_route.c — keel.route: cost maps and reach sets (binding of route.c).
 *
 *   local m = keel.route.costmap { q0 = 0, r0 = -128, width = 256, height = 384,
 *                                  enter = 1, cross = 0 }
 *   m:set_enter(hex, 2); m:set_cross(side, keel.route.BLOCKED); m:set_coast(hex, dir, 1)
 *   local r = m:reach(start, 15 [, coast | {coast=, blocked=, stop=, allow=}])
 *   r:cost(hex), r:path(hex), r:count(), r:hexes()
 *   local m = keel.route.from_board(board, profile, conditions)   -- in C, one pass
 *   local g = keel.route.graph { nodes = {...}, edges = {{a, b, cost}, ...} }
 * A reach set lives in one userdata block (the collector sees its size).
 * Until the next search on its cost map, lookups borrow the map's own
 * cell -> entry array through the map's lender token (user value 2);
 * after that, a query index is built on the first query that needs it, a
 * second block held as user value 1. So neither owns C memory and a
 * reach set has no __gc: the collector frees it without a finalizer, which
 * matters at thousands of reaches a second (__close drops the index).
 */
#include "l_util.h"
#include "route_impl.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define COSTMAP_MT "keel.CostMap"
#define REACH_MT "keel.Reach"

/* A cost map's lender token: reach sets hold it (user value 2) to borrow
 * the map's cell -> entry array (keel_reach.lender); m is NULL once the map
 * is freed. Tiny, so a reach set kept long keeps no cost map alive. */
typedef struct { keel_costmap *m; } lender;
typedef struct { keel_costmap *m; lender *tok; } costmap_ud;   /* user value 1: tok */
#define GRAPH_MT "keel.Graph"

typedef struct { keel_graph *g; } graph_ud;

static keel_costmap *check_costmap(lua_State *L, int arg) {
  return keel_lua_checkobject(L, arg, COSTMAP_MT, "cost map");
}

/* a reach set is the userdata block itself (keel_reach_opts.alloc) */
static keel_reach *check_reach(lua_State *L, int arg) {
  return keel_lua_checkudata(L, arg, REACH_MT);
}

/* Put the query index of reach set r (at absolute index arg) in place when
 * a lookup needs it (unless it borrows the cost map's: see
 * keel_reach.lender) or counting hexes does (with coasts): built in a
 * userdata kept as the set's user value, so the core never mallocs it. */
static keel_reach *with_index(lua_State *L, int arg, keel_reach *r, int lookup) {
  if (!keel__reach_indexed(r) &&
      ((lookup && !keel__reach_borrows(r)) || r->nhex == (size_t)-1)) {
    void *mem = lua_newuserdatauv(L, keel__reach_index_bytes(r), 0);
    lua_setiuservalue(L, arg, 1);
    keel__reach_index_in(r, mem);
  }
  return r;
}

static keel_graph *check_graph(lua_State *L, int arg) { return keel_lua_checkobject(L, arg, GRAPH_MT, "graph"); }

static uint16_t check_cost(lua_State *L, int arg) {
  lua_Integer c = luaL_checkinteger(L, arg);
  if (c == KEEL_COST_BLOCKED) return KEEL_COST_BLOCKED;
  if (c < 0 || c > KEEL_COST_MAX)
    luaL_argerror(L, arg, lua_pushfstring(L, "cost 0..%d or keel.route.BLOCKED expected, got %I",
                                          (int)KEEL_COST_MAX, c));
  return (uint16_t)c;
}

/* costmap:close() (also __gc and __close)  [-1, +0, e] */
static int costmap_gc(lua_State *L) {
  costmap_ud *u = luaL_checkudata(L, 1, COSTMAP_MT);
  keel_costmap_free(u->m);
  u->m = NULL;
  if (u->tok) u->tok->m = NULL;   /* reach sets stop borrowing */
  return 0;
}

/* push an empty cost map userdata with its lender token; fill with set_costmap */
static costmap_ud *new_costmap_ud(lua_State *L) {
  costmap_ud *u = keel_lua_newobject(L, sizeof *u, 1, COSTMAP_MT);
  lender *tok = lua_newuserdatauv(L, sizeof *tok, 0);
  tok->m = NULL;
  lua_setiuservalue(L, -2, 1);
  u->tok = tok;
  return u;
}

/* reach:__close(): drops the query index (rebuilt if queried again); the
 * blocks are Lua's, so a reach set needs no __gc  [-1, +0, e] */
static int reach_close(lua_State *L) {
  keel_reach_free(check_reach(L, 1));
  lua_pushnil(L);
  lua_setiuservalue(L, 1, 1);
  return 0;
}

static void graph_release(void *g) { keel_graph_free(g); }

/* keel.route.costmap{q0, r0, width, height, enter = 1, cross = 0} -> CostMap  [-1, +1, e] */
static int l_costmap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  costmap_ud *u = new_costmap_ud(L);
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
  u->tok->m = u->m;
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

/* costmap:get_enter(hex) -> cost | nil, reason  [-2, +1|2, e] */
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

/* costmap:get_cross(side) -> cost | nil, reason  [-2, +1|2, e] */
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

/* ---- search options from a Lua table ------------------------------------ */

typedef struct lopts {
  keel_reach_opts o;
  lua_State *L;
  int fn;             /* stack index of the allow function, 0: none */
  int failed;         /* the allow function raised: its error is on the stack */
} lopts;

static void *lua_block(void *ud, size_t bytes) {
  return lua_newuserdatauv((lua_State *)ud, bytes, 2);   /* user values: query index, lender */
}

/* opts.allow(hex) -> truthy: may enter. An error stops the search. */
static int call_allow(void *ud, keel_hex h) {
  lopts *o = ud;
  lua_State *L = o->L;
  lua_pushvalue(L, o->fn);
  lua_pushinteger(L, (lua_Integer)h);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) { o->failed = 1; return -1; }
  int v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

/* Read {coast=, blocked=, stop=, allow=} at arg (or an integer coast, or
 * nothing); pushes the hex buffers it makes. */
static int get_opts(lua_State *L, int arg, lopts *o, lua_Integer *coast) {
  memset(o, 0, sizeof *o);
  o->L = L;
  o->o.alloc = lua_block;
  o->o.alloc_ud = L;
  *coast = 0;
  int t = lua_type(L, arg);
  if (t == LUA_TNONE || t == LUA_TNIL) return 0;
  if (t == LUA_TNUMBER) { *coast = luaL_checkinteger(L, arg); return 0; }
  luaL_argexpected(L, t == LUA_TTABLE, arg, "coast or options table");
  *coast = keel_lua_optfield_int(L, arg, "coast", 0);
  if (lua_getfield(L, arg, "blocked") != LUA_TNIL) {
    o->o.blocked = keel_lua_checkhexes(L, lua_gettop(L), &o->o.nblocked);
    lua_remove(L, -2);
  } else lua_pop(L, 1);
  if (lua_getfield(L, arg, "stop") != LUA_TNIL) {
    o->o.stop = keel_lua_checkhexes(L, lua_gettop(L), &o->o.nstop);
    lua_remove(L, -2);
  } else lua_pop(L, 1);
  if (lua_getfield(L, arg, "allow") != LUA_TNIL) {
    luaL_argexpected(L, lua_isfunction(L, -1), arg, "allow: function");
    o->fn = lua_gettop(L);
    o->o.allow = call_allow;
    o->o.ud = o;
  } else lua_pop(L, 1);
  return 1;
}

/* after a search: raise the allow function's error, or push nil, reason */
static int search_failed(lua_State *L, lopts *o, keel_status st, int top, const char *what) {
  if (st == KEEL_E_LIMIT && o->failed) return lua_error(L);
  lua_settop(L, top);
  if (st == KEEL_E_OFF_BOARD || st == KEEL_E_NOT_FOUND) return keel_lua_nilerr(L, st, what);
  return keel_lua_fail(L, st, what);
}

/* costmap:reach(start, budget [, coast | opts]) -> Reach | nil, reason  [-4, +1|2, e] */
static int l_reach(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_hex start = keel_lua_checkhex(L, 2);
  lua_Integer budget = luaL_checkinteger(L, 3), coast;
  luaL_argcheck(L, budget >= 0 && budget <= (1 << 20), 3, "budget 0..1048576 expected");
  lopts o;
  get_opts(L, 4, &o, &coast);
  luaL_argcheck(L, coast >= 0 && coast < KEEL_COASTS, 4, "coast 0..3 expected");
  int top = lua_gettop(L);
  keel_reach *r;
  keel_status st = keel_reach_new_ex(m, start, (int)coast, (uint32_t)budget, &o.o, &r);
  if (st != KEEL_OK) return search_failed(L, &o, st, top, "reach: start");
  luaL_setmetatable(L, REACH_MT);   /* the block lua_block pushed */
  lua_getiuservalue(L, 1, 1);       /* lookups borrow the map's array until its next search */
  lua_setiuservalue(L, -2, 2);
  r->lender = &((costmap_ud *)lua_touserdata(L, 1))->tok->m;
  return 1;
}

/* costmap:step(from, to [, coast]) -> cost, coast | nil, reason  [-4, +2|2, e] */
static int l_step(lua_State *L) {
  keel_costmap *m = check_costmap(L, 1);
  keel_hex a = keel_lua_checkhex(L, 2), b = keel_lua_checkhex(L, 3);
  lua_Integer coast = luaL_optinteger(L, 4, 0);
  luaL_argcheck(L, coast >= 0 && coast < KEEL_COASTS, 4, "coast 0..3 expected");
  uint32_t cost;
  int out;
  keel_status st = keel_costmap_step(m, a, (int)coast, b, &cost, &out);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "step");
  if (cost == UINT32_MAX) {
    lua_pushnil(L);
    lua_pushliteral(L, "step: the move is not allowed");
    return 2;
  }
  lua_pushinteger(L, cost);
  lua_pushinteger(L, out);
  return 2;
}

/* costmap:has_coasts() -> boolean  [-1, +1, e] */
static int l_has_coasts(lua_State *L) {
  lua_pushboolean(L, keel_costmap_has_coasts(check_costmap(L, 1)));
  return 1;
}

/* ---- cost maps from a board -------------------------------------------------- */

static const char *const terrain_names[] = { "none", "all-sea", "coastal", "all-land",
                                             "restricted", "lake", NULL };

/* a side feature name: class, riverine kind, flag, or a side name of the board */
static int side_match(lua_State *L, keel_board *b, const char *name, keel_side_match *m) {
  static const struct { const char *name; unsigned mask, value; } k[] = {
    { "all-water", KEEL_SIDE_WATER_MASK, KEEL_SIDE_ALL_WATER },
    { "partial-water", KEEL_SIDE_WATER_MASK, KEEL_SIDE_PARTIAL_WATER },
    { "all-land", KEEL_SIDE_WATER_MASK, KEEL_SIDE_ALL_LAND },
    { "river", KEEL_SIDE_RIVERINE_MASK, KEEL_SIDE_RIVER },
    { "major-river", KEEL_SIDE_RIVERINE_MASK, KEEL_SIDE_MAJOR_RIVER },
    { "great-river", KEEL_SIDE_RIVERINE_MASK, KEEL_SIDE_GREAT_RIVER },
    { "canal", KEEL_SIDE_RIVERINE_MASK, KEEL_SIDE_CANAL },
    { "lake", KEEL_SIDE_RIVERINE_MASK, KEEL_SIDE_LAKE },
    { "narrow-strait", KEEL_SIDE_NARROW_STRAIT, KEEL_SIDE_NARROW_STRAIT },
    { "estuary", KEEL_SIDE_ESTUARY, KEEL_SIDE_ESTUARY },
    { "prohibited", KEEL_SIDE_PROHIBITED, KEEL_SIDE_PROHIBITED },
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (!strcmp(name, k[i].name)) { m->mask = k[i].mask; m->value = k[i].value; return 1; }
  for (int id = 1; id <= KEEL_SIDE_NAME_MAX; id++) {
    const char *n = keel_board_side_name(b, id);
    if (!n) break;
    if (!strcmp(n, name)) {
      m->mask = 0xffu << KEEL_SIDE_NAME_SHIFT;
      m->value = (unsigned)id << KEEL_SIDE_NAME_SHIFT;
      return 1;
    }
  }
  (void)L;
  return 0;
}

static void read_profile(lua_State *L, int arg, keel_profile *p) {
  luaL_checktype(L, arg, LUA_TTABLE);
  for (int t = 0; t < KEEL_TERRAIN_COUNT; t++) p->enter[t] = KEEL_COST_BLOCKED;
  p->water[0] = KEEL_COST_BLOCKED;
  for (int w = 1; w < 4; w++) p->water[w] = KEEL_COST_BLOCKED;
  for (int k = 0; k < 8; k++) p->riverine[k] = 0;
  p->narrow_strait = p->estuary = 0;
  p->prohibited = KEEL_COST_BLOCKED;
  if (lua_getfield(L, arg, "enter") != LUA_TNIL) {
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, t)) {   /* each key checked; order does not matter */
      const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
      int k = 1;
      while (terrain_names[k] && strcmp(terrain_names[k], name)) k++;
      if (!terrain_names[k])
        luaL_error(L, "profile.enter: unknown terrain class '%s' (expected all-sea, coastal, "
                      "all-land, restricted or lake)", name);
      p->enter[k] = check_cost(L, -1);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (lua_getfield(L, arg, "cross") != LUA_TNIL) {
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    static const char *const water[] = { "all-water", "partial-water", "all-land" };
    static const char *const riv[] = { "river", "major-river", "great-river", "canal", "lake" };
    lua_pushnil(L);
    while (lua_next(L, t)) {
      const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
      uint16_t c = check_cost(L, -1);
      int done = 0;
      for (int w = 0; w < 3 && !done; w++) if (!strcmp(name, water[w])) { p->water[w + 1] = c; done = 1; }
      for (int k = 0; k < 5 && !done; k++) if (!strcmp(name, riv[k])) { p->riverine[k + 1] = c; done = 1; }
      if (!done && !strcmp(name, "narrow-strait")) { p->narrow_strait = c; done = 1; }
      if (!done && !strcmp(name, "estuary")) { p->estuary = c; done = 1; }
      if (!done && !strcmp(name, "prohibited")) { p->prohibited = c; done = 1; }
      if (!done)
        luaL_error(L, "profile.cross: unknown hexside feature '%s' (expected a water class, "
                      "riverine kind, narrow-strait, estuary or prohibited)", name);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "water_route");
  p->water_route = lua_toboolean(L, -1);
  lua_pop(L, 1);
}

static size_t read_matches(lua_State *L, keel_board *b, int idx, const char *k,
                           keel_side_match *out) {
  size_t n = 0;
  if (lua_getfield(L, idx, k) != LUA_TNIL) {
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    lua_Integer len = luaL_len(L, t);
    if (len > KEEL_MATCH_MAX) luaL_error(L, "conditions.%s: at most %d entries", k, KEEL_MATCH_MAX);
    for (lua_Integer i = 1; i <= len; i++) {
      lua_geti(L, t, i);
      const char *name = luaL_checkstring(L, -1);
      if (!side_match(L, b, name, &out[n]))
        luaL_error(L, "conditions.%s: unknown hexside feature or name '%s'", k, name);
      n++;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return n;
}

/* conditions.owners (a keel.State) and conditions.friendly (side names):
 * a side the state has never heard of owns nothing, so it adds no atom. */
static void read_friendly(lua_State *L, int arg, keel_move_conditions *c) {
  if (lua_getfield(L, arg, "owners") != LUA_TNIL) c->owners = keel_lua_checkstate(L, lua_gettop(L));
  lua_pop(L, 1);
  if (lua_getfield(L, arg, "friendly") != LUA_TNIL) {
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    lua_Integer len = luaL_len(L, t);
    if (len > KEEL_FRIENDLY_MAX) luaL_error(L, "conditions.friendly: at most %d sides", KEEL_FRIENDLY_MAX);
    for (lua_Integer i = 1; i <= len; i++) {
      lua_geti(L, t, i);
      size_t n;
      const char *name = luaL_checklstring(L, -1, &n);
      keel_atom a = c->owners ? keel_state_atom_find(c->owners, name, n) : 0;
      if (a) c->friendly[c->nfriendly++] = a;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

static void read_conditions(lua_State *L, keel_board *b, int arg, keel_move_conditions *c) {
  memset(c, 0, sizeof *c);
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  read_friendly(L, arg, c);
  if (lua_getfield(L, arg, "friendly_only") != LUA_TNIL) {
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    for (lua_Integer i = 1; i <= luaL_len(L, t); i++) {
      lua_geti(L, t, i);
      const char *name = luaL_checkstring(L, -1);
      int k = 1;
      while (terrain_names[k] && strcmp(terrain_names[k], name)) k++;
      if (!terrain_names[k]) luaL_error(L, "conditions.friendly_only: unknown terrain class '%s'", name);
      c->friendly_only |= 1u << k;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  c->nboth = read_matches(L, b, arg, "both_friendly", c->both_friendly);
  c->nclosed = read_matches(L, b, arg, "closed", c->closed);
  if ((c->friendly_only || c->nboth) && !c->owners)
    luaL_error(L, "conditions: friendly_only and both_friendly read who owns each hex: "
                  "owners (a keel.State) expected");
}

/* keel.route.from_board(board, profile [, conditions]) -> CostMap  [-3, +1, e]
 * conditions {owners = State, friendly = {side...}, friendly_only =,
 * both_friendly =, closed =}: owners are read once, as the map is built. */
static int l_from_board(lua_State *L) {
  keel_board *b = keel_lua_checkboard(L, 1);
  luaL_argcheck(L, keel_board_is_finished(b), 1, "board is not finished (call finish)");
  keel_profile p;
  keel_move_conditions c;
  read_profile(L, 2, &p);
  read_conditions(L, b, 3, &c);
  costmap_ud *u = new_costmap_ud(L);
  keel_status st = keel_board_costmap(b, &p, &c, &u->m);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "from_board");
  u->tok->m = u->m;
  return 1;
}

/* ---- graphs -------------------------------------------------------------------- */

/* keel.route.graph{nodes = {key, ...}, edges = {{from, to, cost}, ...}} -> Graph  [-1, +1, e] */
static int l_graph(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  graph_ud *u = keel_lua_newobject(L, sizeof *u, 0, GRAPH_MT);
  int top = lua_gettop(L);
  keel_status st = keel_graph_new(&u->g);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "graph");
  lua_getfield(L, 1, "nodes");
  luaL_argexpected(L, lua_istable(L, -1), 1, "nodes: table of keys");
  for (lua_Integer i = 1, n = luaL_len(L, -1); i <= n; i++) {
    lua_geti(L, -1, i);
    int isnum;
    lua_Integer k = lua_tointegerx(L, -1, &isnum);
    if (!isnum) luaL_error(L, "graph: nodes[%d]: integer key expected", (int)i);
    if ((st = keel_graph_add_node(u->g, k)) != KEEL_OK) return keel_lua_fail(L, st, "graph");
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  lua_getfield(L, 1, "edges");
  if (!lua_isnil(L, -1)) {
    luaL_argexpected(L, lua_istable(L, -1), 1, "edges: table of {from, to, cost}");
    for (lua_Integer i = 1, n = luaL_len(L, -1); i <= n; i++) {
      lua_geti(L, -1, i);
      if (!lua_istable(L, -1)) luaL_error(L, "graph: edges[%d]: {from, to, cost} expected", (int)i);
      lua_Integer v[3];
      for (int j = 0; j < 3; j++) {
        lua_geti(L, -1, j + 1);
        int isnum;
        v[j] = lua_tointegerx(L, -1, &isnum);
        if (!isnum && j == 2 && lua_isnil(L, -1)) { v[j] = 1; isnum = 1; }
        if (!isnum) luaL_error(L, "graph: edges[%d][%d]: integer expected", (int)i, j + 1);
        lua_pop(L, 1);
      }
      if (v[2] < 0 || v[2] > KEEL_COST_MAX)
        luaL_error(L, "graph: edges[%d]: cost 0..%d expected", (int)i, (int)KEEL_COST_MAX);
      if ((st = keel_graph_add_edge(u->g, v[0], v[1], (uint16_t)v[2])) != KEEL_OK)
        return keel_lua_fail(L, st, "graph");
      lua_pop(L, 1);
    }
  }
  lua_settop(L, top);
  st = keel_graph_finish(u->g);
  if (st == KEEL_E_DUPLICATE) return luaL_error(L, "graph: a node key appears twice");
  if (st == KEEL_E_NOT_FOUND) return luaL_error(L, "graph: an edge names a node that is not in nodes");
  if (st != KEEL_OK) return keel_lua_fail(L, st, "graph");
  return 1;
}

/* graph:reach(start, budget [, opts]) -> Reach | nil, reason  [-4, +1|2, e] */
static int l_graph_reach(lua_State *L) {
  keel_graph *g = check_graph(L, 1);
  lua_Integer start = luaL_checkinteger(L, 2), budget = luaL_checkinteger(L, 3), coast;
  luaL_argcheck(L, budget >= 0 && budget <= (1 << 20), 3, "budget 0..1048576 expected");
  lopts o;
  get_opts(L, 4, &o, &coast);
  int top = lua_gettop(L);
  keel_reach *r;
  keel_status st = keel_graph_reach(g, start, (uint32_t)budget, &o.o, &r);
  if (st != KEEL_OK) return search_failed(L, &o, st, top, "reach: start");
  luaL_setmetatable(L, REACH_MT);
  return 1;
}

/* graph:neighbors(key) -> {key, ...}, {cost, ...} | nil, reason  [-2, +2|2, e] */
static int l_graph_neighbors(lua_State *L) {
  keel_graph *g = check_graph(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  size_t n;
  keel_status st = keel_graph_neighbors(g, k, NULL, NULL, 0, &n);
  if (st == KEEL_E_NOT_FOUND) return keel_lua_nilerr(L, st, "neighbors");
  keel_graph_neighbors(g, k, NULL, NULL, (size_t)-1, &n);
  int64_t *keys = lua_newuserdatauv(L, (n ? n : 1) * sizeof *keys, 0);
  uint16_t *costs = lua_newuserdatauv(L, (n ? n : 1) * sizeof *costs, 0);
  keel_graph_neighbors(g, k, keys, costs, n, &n);
  lua_createtable(L, (int)n, 0);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, keys[i]);
    lua_rawseti(L, -3, (lua_Integer)i + 1);
    lua_pushinteger(L, costs[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 2;
}

/* graph:count() -> nodes, edges  [-1, +2, e] */
static int l_graph_count(lua_State *L) {
  keel_graph *g = check_graph(L, 1);
  lua_pushinteger(L, (lua_Integer)keel_graph_count_nodes(g));
  lua_pushinteger(L, (lua_Integer)keel_graph_count_edges(g));
  return 2;
}

/* graph:has_node(key) -> boolean  [-2, +1, e] */
static int l_graph_has(lua_State *L) {
  keel_graph *g = check_graph(L, 1);
  lua_pushboolean(L, keel_graph_has_node(g, luaL_checkinteger(L, 2)));
  return 1;
}

/* reach:count() -> hexes reached  [-1, +1, e] */
static int l_count(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)keel_reach_count(with_index(L, 1, check_reach(L, 1), 0)));
  return 1;
}

/* reach:cost(hex) -> MPs | nil, reason  [-2, +1|2, e] */
static int l_cost(lua_State *L) {
  uint32_t c;
  keel_reach *r = check_reach(L, 1);
  keel_hex h = keel_lua_checkhex(L, 2);
  if (keel_reach_cost(with_index(L, 1, r, 1), h, &c) != KEEL_OK) {
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
  with_index(L, 1, r, 1);
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
  keel_reach *r = with_index(L, 1, check_reach(L, 1), 0);
  size_t n = keel_reach_count(r);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, keel_reach_hex(r, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* tostring(graph) -> "keel.Graph (N nodes, M edges)"  [-1, +1, e] */
static int graph_tostring(lua_State *L) {
  keel_graph *g = check_graph(L, 1);
  lua_pushfstring(L, "keel.Graph (%d nodes, %d edges)", (int)keel_graph_count_nodes(g),
                  (int)keel_graph_count_edges(g));
  return 1;
}

/* keel.route.owner_hexes(board, conditions) -> {hex...}: the hexes whose
 * owners a cost map under the conditions reads, in cell order  [-2, +1, e] */
static int l_owner_hexes(lua_State *L) {
  keel_board *b = keel_lua_checkboard(L, 1);
  luaL_argcheck(L, keel_board_is_finished(b), 1, "board is not finished (call finish)");
  keel_move_conditions c;
  read_conditions(L, b, 2, &c);
  keel_hex *list;
  size_t n;
  keel_status st = keel_board_owner_hexes(b, &c, &list, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "owner_hexes");
  lua_createtable(L, n > INT_MAX ? INT_MAX : (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)list[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(list);
  return 1;
}

/* tostring(costmap) -> "keel.CostMap"  [-1, +1, e] */
static int costmap_tostring(lua_State *L) {
  check_costmap(L, 1);
  lua_pushliteral(L, "keel.CostMap");
  return 1;
}

/* tostring(reach) -> "keel.Reach (N hexes)"  [-1, +1, e] */
static int reach_tostring(lua_State *L) {
  lua_pushfstring(L, "keel.Reach (%d hexes)", (int)keel_reach_count(with_index(L, 1, check_reach(L, 1), 0)));
  return 1;
}

/* require "keel.route" -> module  [-0, +1, e] */
int keel_lua_open_route(lua_State *L) {
  static const luaL_Reg costmap_methods[] = {
    {"set_enter", l_set_enter}, {"get_enter", l_enter_cost}, {"set_cross", l_set_cross},
    {"get_cross", l_cross_cost}, {"set_coast", l_set_coast}, {"reach", l_reach},
    {"step", l_step}, {"has_coasts", l_has_coasts}, {NULL, NULL}
  };
  static const luaL_Reg graph_methods[] = {
    {"reach", l_graph_reach}, {"neighbors", l_graph_neighbors}, {"count", l_graph_count},
    {"has_node", l_graph_has}, {NULL, NULL}
  };
  static const luaL_Reg reach_methods[] = {
    {"count", l_count}, {"cost", l_cost}, {"path", l_path}, {"hexes", l_hexes}, {NULL, NULL}
  };
  static const keel_lua_class classes[] = {
    { .name = COSTMAP_MT, .methods = costmap_methods, .gc = costmap_gc, .close = costmap_gc, .tostring = costmap_tostring },
    { .name = REACH_MT, .methods = reach_methods, .close = reach_close, .tostring = reach_tostring },   /* no __gc: see above */
    { .name = GRAPH_MT, .methods = graph_methods, .tostring = graph_tostring, .release = graph_release },
  };
  for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) keel_lua_newclass(L, &classes[i], 0);
  lua_newtable(L);
  lua_pushcfunction(L, l_costmap);
  lua_setfield(L, -2, "costmap");
  lua_pushcfunction(L, l_owner_hexes);
  lua_setfield(L, -2, "owner_hexes");
  lua_pushcfunction(L, l_from_board);
  lua_setfield(L, -2, "from_board");
  lua_pushcfunction(L, l_graph);
  lua_setfield(L, -2, "graph");
  lua_pushinteger(L, KEEL_COST_BLOCKED);
  lua_setfield(L, -2, "BLOCKED");
  lua_pushinteger(L, KEEL_COST_MAX);
  lua_setfield(L, -2, "COST_MAX");
  return 1;
}
