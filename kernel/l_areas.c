/*
 * l_areas.c — keel.areas: named areas (sea zones) as hex sets and as a graph
 * (binding of area.c). Areas are named by string in Lua.
 *
 *   local z = keel.areas.new()
 *   z:add("Mediterranean", {hexes...}); z:connect("Mediterranean", "Red Sea")
 *   z:area_of(h), z:hexes(name), z:neighbors(name), z:distance(a, b)
 */
#include "l_util.h"

#define AREAS_MT "keel.Areas"

typedef struct { keel_areas *a; } areas_ud;

static keel_areas *check_areas(lua_State *L, int arg) {
  return keel_lua_checkobject(L, arg, AREAS_MT, "areas object");
}

static size_t check_area(lua_State *L, keel_areas *a, int arg) {
  const char *name = luaL_checkstring(L, arg);
  size_t i;
  if (keel_area_find(a, name, &i) != KEEL_OK)
    luaL_argerror(L, arg, lua_pushfstring(L, "unknown area \"%s\"", name));
  return i;
}

static void release(void *a) { keel_areas_free(a); }

/* keel.areas.new() -> Areas  [-0, +1, e] */
static int l_new(lua_State *L) {
  areas_ud *u = keel_lua_newobject(L, sizeof *u, 0, AREAS_MT);
  if (keel_areas_new(&u->a) != KEEL_OK) return luaL_error(L, "areas: out of memory");
  return 1;
}

/* areas:add(name [, hexes]) -> self  [-3, +1, e] */
static int l_add(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  const char *name = luaL_checkstring(L, 2);
  size_t i;
  keel_status st = keel_area_find(a, name, &i);
  if (st != KEEL_OK) {
    st = keel_area_add(a, name, &i);
    if (st != KEEL_OK) return luaL_error(L, "areas: cannot add \"%s\": %s", name, keel_status_str(st));
  }
  if (!lua_isnoneornil(L, 3)) {
    size_t n;
    keel_hex *hexes = keel_lua_checkhexes(L, 3, &n);
    for (size_t k = 0; k < n; k++) {
      st = keel_area_add_hex(a, i, hexes[k]);
      if (st == KEEL_E_DUPLICATE) {
        size_t other;
        keel_area_of(a, hexes[k], &other);
        return luaL_error(L, "areas: hex (%I,%I) of \"%s\" already belongs to \"%s\"",
                          (lua_Integer)keel_hex_q(hexes[k]), (lua_Integer)keel_hex_r(hexes[k]),
                          name, keel_area_name(a, other));
      }
      if (st != KEEL_OK) return keel_lua_fail(L, st, "areas:add");
    }
  }
  lua_settop(L, 1);
  return 1;
}

/* areas:connect(a, b) -> self  [-3, +1, e] */
static int l_connect(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  size_t i = check_area(L, a, 2), j = check_area(L, a, 3);
  if (i == j) return luaL_argerror(L, 3, "an area cannot border itself");
  keel_status st = keel_area_connect(a, i, j);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "areas:connect");
  lua_settop(L, 1);
  return 1;
}

/* areas:connect_by_hexes() -> self: join every two areas with adjacent hexes  [-1, +1, e] */
static int l_connect_by_hexes(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  keel_status st = keel_area_connect_by_hexes(a);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "areas:connect_by_hexes");
  lua_settop(L, 1);
  return 1;
}

/* areas:area_of(hex) -> name | nil, reason  [-2, +1|2, e] */
static int l_area_of(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  size_t i;
  if (keel_area_of(a, keel_lua_checkhex(L, 2), &i) != KEEL_OK)
    return keel_lua_nilmsg(L, "area_of: hex is in no area");
  lua_pushstring(L, keel_area_name(a, i));
  return 1;
}

/* areas:hexes(name) -> {hexes in ascending id order}  [-2, +1, e] */
static int l_hexes(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  size_t i = check_area(L, a, 2), n = keel_area_count_hexes(a, i);
  keel_hex *buf = lua_newuserdatauv(L, (n ? n : 1) * sizeof *buf, 0);
  keel_status st = keel_area_hexes(a, i, buf, n, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "areas:hexes");
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* areas:contains(name, hex) -> boolean  [-3, +1, e] */
static int l_contains(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  size_t i = check_area(L, a, 2), j;
  keel_hex h = keel_lua_checkhex(L, 3);
  lua_pushboolean(L, keel_area_of(a, h, &j) == KEEL_OK && i == j);
  return 1;
}

/* areas:adjacent(a, b) -> boolean  [-3, +1, e] */
static int l_adjacent(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  lua_pushboolean(L, keel_area_adjacent(a, check_area(L, a, 2), check_area(L, a, 3)));
  return 1;
}

/* areas:neighbors(name) -> {names in the order the areas were added}  [-2, +1, e] */
static int l_neighbors(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  keel_lua_pushareaneighbors(L, a, check_area(L, a, 2));
  return 1;
}

/* areas:distance(a, b) -> steps | nil, reason  [-3, +1|2, e] */
static int l_distance(lua_State *L) {
  keel_areas *a = check_areas(L, 1);
  int64_t d = keel_area_distance(a, check_area(L, a, 2), check_area(L, a, 3));
  if (d < 0) return keel_lua_nilmsg(L, "distance: no path between the areas");
  lua_pushinteger(L, d);
  return 1;
}

/* areas:names() -> {names in the order added}  [-1, +1, e] */
static int l_names(lua_State *L) {
  keel_lua_pushareanames(L, check_areas(L, 1));
  return 1;
}

/* tostring(areas) -> "keel.Areas (N areas)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  lua_pushfstring(L, "keel.Areas (%d areas)", (int)keel_area_count(check_areas(L, 1)));
  return 1;
}

/* require "keel.areas" -> module  [-0, +1, e] */
int keel_lua_open_areas(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"add", l_add}, {"connect", l_connect}, {"connect_by_hexes", l_connect_by_hexes},
    {"area_of", l_area_of}, {"hexes", l_hexes}, {"contains", l_contains},
    {"adjacent", l_adjacent}, {"neighbors", l_neighbors}, {"distance", l_distance},
    {"names", l_names}, {NULL, NULL}
  };
  static const keel_lua_class cls = { .name = AREAS_MT, .methods = methods, .tostring = l_tostring, .release = release };
  keel_lua_newclass(L, &cls, 0);
  lua_newtable(L);
  lua_pushcfunction(L, l_new);
  lua_setfield(L, -2, "new");
  return 1;
}
