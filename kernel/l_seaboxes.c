/*
 * l_seaboxes.c — keel.seaboxes: the sea-box overlay (binding of hex.c's
 * keel_box_*). A box is a plain integer, packed like a hex in the overlay's
 * own axial coordinates.
 *
 *   local sb = keel.seaboxes.new { radius = 2, origin = hex }
 *   sb:box_of(h), sb:center(box), sb:hexes(box), sb:neighbors(box), sb:distance(a, b)
 */
#include "l_util.h"

#define SEABOXES_MT "keel.SeaBoxes"

static keel_boxgrid *check_sb(lua_State *L, int arg) {
  return luaL_checkudata(L, arg, SEABOXES_MT);
}

static keel_box check_box(lua_State *L, int arg) {
  int isnum = 0;
  lua_Integer b = lua_tointegerx(L, arg, &isnum);
  if (!isnum || !keel_hex_is_valid(b)) luaL_argerror(L, arg, "sea box (integer) expected");
  return b;
}

/* keel.seaboxes.new{radius = 2, origin = hex} -> SeaBoxes  [-1, +1, e] */
static int l_new(lua_State *L) {
  lua_Integer radius = 2;
  keel_hex origin = 0;
  if (!lua_isnoneornil(L, 1)) {
    luaL_checktype(L, 1, LUA_TTABLE);
    radius = keel_lua_optfield_int(L, 1, "radius", 2);
    lua_getfield(L, 1, "origin");
    if (!lua_isnil(L, -1)) origin = keel_lua_checkhex(L, -1);
    lua_pop(L, 1);
  }
  if (radius < 0 || radius > 1024) return luaL_error(L, "seaboxes: radius must be 0..1024, got %I", radius);
  keel_boxgrid *g = keel_lua_newobject(L, sizeof *g, 0, SEABOXES_MT);
  g->radius = radius;
  g->origin = origin;
  return 1;
}

/* sb:box_of(hex) -> box  [-2, +1|2, e] */
static int l_box_of(lua_State *L) {
  keel_boxgrid *g = check_sb(L, 1);
  keel_box b;
  keel_status st = keel_box_of(g, keel_lua_checkhex(L, 2), &b);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "box_of");
  lua_pushinteger(L, b);
  return 1;
}

/* sb:center(box) -> hex  [-2, +1|2, e] */
static int l_center(lua_State *L) {
  keel_boxgrid *g = check_sb(L, 1);
  keel_hex h;
  keel_status st = keel_box_center(g, check_box(L, 2), &h);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "center");
  lua_pushinteger(L, h);
  return 1;
}

/* sb:hexes(box) -> {hexes}: centre first, then rings  [-2, +1|2, e] */
static int l_hexes(lua_State *L) {
  keel_boxgrid *g = check_sb(L, 1);
  return keel_lua_pushboxhexes(L, g, check_box(L, 2), "hexes");
}

/* sb:neighbors(box) -> {6 boxes in direction order}  [-2, +1|2, e] */
static int l_neighbors(lua_State *L) {
  check_sb(L, 1);
  keel_box b = check_box(L, 2), out[6];
  for (int d = 0; d < 6; d++) {
    keel_status st = keel_hex_neighbor(b, d, &out[d]);
    if (st != KEEL_OK) return keel_lua_nilerr(L, st, "neighbors");
  }
  keel_lua_pushhexes(L, out, 6);
  return 1;
}

/* sb:distance(box_a, box_b) -> boxes apart  [-3, +1, e] */
static int l_distance(lua_State *L) {
  check_sb(L, 1);
  lua_pushinteger(L, keel_box_distance(check_box(L, 2), check_box(L, 3)));
  return 1;
}

/* sb:radius() -> integer  [-1, +1, e] */
static int l_radius(lua_State *L) { lua_pushinteger(L, check_sb(L, 1)->radius); return 1; }
/* sb:origin() -> hex  [-1, +1, e] */
static int l_origin(lua_State *L) { lua_pushinteger(L, check_sb(L, 1)->origin); return 1; }

/* tostring(sb) -> "keel.SeaBoxes (radius N)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  keel_boxgrid *g = check_sb(L, 1);
  lua_pushfstring(L, "keel.SeaBoxes (radius %I)", (lua_Integer)g->radius);
  return 1;
}

/* require "keel.seaboxes" -> module  [-0, +1, e] */
int keel_lua_open_seaboxes(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"box_of", l_box_of}, {"center", l_center}, {"hexes", l_hexes},
    {"neighbors", l_neighbors}, {"distance", l_distance},
    {"radius", l_radius}, {"origin", l_origin}, {NULL, NULL}
  };
  static const keel_lua_class cls = { .name = SEABOXES_MT, .methods = methods, .tostring = l_tostring };
  keel_lua_newclass(L, &cls, 0);
  lua_newtable(L);
  lua_pushcfunction(L, l_new);
  lua_setfield(L, -2, "new");
  return 1;
}
