/*
 * l_hex.c — keel.hex: hex geometry for Lua (binding of hex.c).
 *
 * Hexes and hexsides are plain integers. Directions are 0..5 as in keel.h.
 * Offset conventions are "odd-q", "even-q", "odd-r", "even-r"; doubled
 * conventions "doubled-q", "doubled-r".
 */
#include "l_util.h"
#include <stdlib.h>

static int checkdir(lua_State *L, int arg) {
  lua_Integer d = luaL_checkinteger(L, arg);
  if (d < 0 || d > 5)
    return luaL_argerror(L, arg, lua_pushfstring(L, "direction 0..5 expected, got %I", d));
  return (int)d;
}

static int push_or_fail(lua_State *L, keel_status st, keel_hex h, const char *what) {
  if (st != KEEL_OK) return keel_lua_fail(L, st, what);
  lua_pushinteger(L, h);
  return 1;
}

/* hex.from_qr(q, r) -> hex  [-2, +1, e] */
static int l_from_qr(lua_State *L) {
  keel_hex h;
  keel_status st = keel_hex_from_qr(luaL_checkinteger(L, 1), luaL_checkinteger(L, 2), &h);
  return push_or_fail(L, st, h, "from_qr");
}

/* hex.from_qrs(q, r, s) -> hex  [-3, +1, e]; q + r + s must be 0 */
static int l_from_qrs(lua_State *L) {
  keel_hex h;
  lua_Integer q = luaL_checkinteger(L, 1), r = luaL_checkinteger(L, 2), s = luaL_checkinteger(L, 3);
  keel_status st = keel_hex_from_qrs(q, r, s, &h);
  if (st == KEEL_E_ARG)
    return luaL_error(L, "from_qrs: q + r + s must be 0, got %I + %I + %I", q, r, s);
  return push_or_fail(L, st, h, "from_qrs");
}

/* hex.to_qr(h) -> q, r  [-1, +2, e] */
static int l_qr(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  lua_pushinteger(L, keel_hex_q(h));
  lua_pushinteger(L, keel_hex_r(h));
  return 2;
}

/* hex.to_qrs(h) -> q, r, s  [-1, +3, e] */
static int l_qrs(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  lua_pushinteger(L, keel_hex_q(h));
  lua_pushinteger(L, keel_hex_r(h));
  lua_pushinteger(L, keel_hex_s(h));
  return 3;
}

/* hex.is_valid(x) -> boolean  [-1, +1, -] */
static int l_is_valid(lua_State *L) {
  int isnum = 0;
  lua_Integer h = lua_tointegerx(L, 1, &isnum);
  lua_pushboolean(L, isnum && lua_type(L, 1) == LUA_TNUMBER && keel_hex_is_valid(h));
  return 1;
}

/* hex.tostring(h) -> "(q,r,s)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  lua_pushfstring(L, "(%I,%I,%I)", (lua_Integer)keel_hex_q(h), (lua_Integer)keel_hex_r(h),
                  (lua_Integer)keel_hex_s(h));
  return 1;
}

/* hex.add(a, b) / hex.subtract(a, b) -> hex  [-2, +1, e] */
static int l_add(lua_State *L) {
  keel_hex h;
  keel_status st = keel_hex_add(keel_lua_checkhex(L, 1), keel_lua_checkhex(L, 2), &h);
  return push_or_fail(L, st, h, "add");
}
/* hex.subtract(a, b) -> hex | nil, reason  [-2, +1|2, e] */
static int l_subtract(lua_State *L) {
  keel_hex h;
  keel_status st = keel_hex_subtract(keel_lua_checkhex(L, 1), keel_lua_checkhex(L, 2), &h);
  return push_or_fail(L, st, h, "subtract");
}

/* hex.scale(h, k) -> hex  [-2, +1, e] */
static int l_scale(lua_State *L) {
  keel_hex h;
  keel_status st = keel_hex_scale(keel_lua_checkhex(L, 1), luaL_checkinteger(L, 2), &h);
  return push_or_fail(L, st, h, "scale");
}

/* hex.neighbor(h, dir) -> hex  [-2, +1, e] */
static int l_neighbor(lua_State *L) {
  keel_hex h, c = keel_lua_checkhex(L, 1);
  keel_status st = keel_hex_neighbor(c, checkdir(L, 2), &h);
  return push_or_fail(L, st, h, "neighbor");
}

/* hex.neighbors(h) -> {6 hexes in direction order}  [-1, +1, e] */
static int l_neighbors(lua_State *L) {
  keel_hex c = keel_lua_checkhex(L, 1), out[6];
  for (int d = 0; d < 6; d++) {
    keel_status st = keel_hex_neighbor(c, d, &out[d]);
    if (st != KEEL_OK) return keel_lua_fail(L, st, "neighbors");
  }
  keel_lua_pushhexes(L, out, 6);
  return 1;
}

/* hex.diagonal(h, dir) -> hex  [-2, +1, e] */
static int l_diagonal(lua_State *L) {
  keel_hex h, c = keel_lua_checkhex(L, 1);
  keel_status st = keel_hex_diagonal_neighbor(c, checkdir(L, 2), &h);
  return push_or_fail(L, st, h, "diagonal");
}

/* hex.direction(dir) -> dq, dr  [-1, +2, e] */
static int l_direction(lua_State *L) {
  int dq, dr;
  keel_hex_direction_qr(checkdir(L, 1), &dq, &dr);
  lua_pushinteger(L, dq);
  lua_pushinteger(L, dr);
  return 2;
}

/* hex.direction_to(a, b) -> dir | nil, reason  [-2, +1|2, e] */
static int l_direction_to(lua_State *L) {
  int d = keel_hex_direction_to(keel_lua_checkhex(L, 1), keel_lua_checkhex(L, 2));
  if (d < 0) return keel_lua_nilerr(L, KEEL_E_NOT_ADJACENT, "direction_to");
  lua_pushinteger(L, d);
  return 1;
}

/* hex.distance(a, b) -> integer  [-2, +1, e] */
static int l_distance(lua_State *L) {
  lua_pushinteger(L, keel_hex_distance(keel_lua_checkhex(L, 1), keel_lua_checkhex(L, 2)));
  return 1;
}

/* hex.rotate(h, steps [, center]) -> hex; steps > 0 turn left  [-3, +1, e] */
static int l_rotate(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1), out;
  lua_Integer steps = luaL_checkinteger(L, 2);
  keel_hex center = lua_isnoneornil(L, 3) ? 0 : keel_lua_checkhex(L, 3);
  keel_status st = keel_hex_rotate(h, center, (int)(steps % 6), &out);
  return push_or_fail(L, st, out, "rotate");
}

/* hex.round(q, r, s) -> hex  [-3, +1, e] */
static int l_round(lua_State *L) {
  keel_hex h;
  keel_status st = keel_hex_round(luaL_checknumber(L, 1), luaL_checknumber(L, 2),
                                  luaL_checknumber(L, 3), &h);
  return push_or_fail(L, st, h, "round");
}

typedef keel_status (*hexlist_fn)(keel_hex, int64_t, keel_hex *, size_t, size_t *);

static int push_list(lua_State *L, hexlist_fn fn, keel_hex c, int64_t k, size_t cap, const char *what) {
  if (cap > (size_t)1 << 26) return luaL_error(L, "%s: radius %I is too large", what, (lua_Integer)k);
  keel_hex *buf = lua_newuserdatauv(L, cap * sizeof *buf, 0);
  size_t n = 0;
  keel_status st = fn(c, k, buf, cap, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, what);
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* hex.ring(center, radius) -> {hexes}  [-2, +1, e] */
static int l_ring(lua_State *L) {
  keel_hex c = keel_lua_checkhex(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  luaL_argcheck(L, k >= 0 && k <= KEEL_HEX_COORD_MAX, 2, "radius must be >= 0");
  return push_list(L, keel_hex_ring, c, k, keel_max_ring_size(k), "ring");
}

/* hex.spiral(center, radius) -> {hexes}: center, ring 1, ring 2, ...  [-2, +1, e] */
static int l_spiral(lua_State *L) {
  keel_hex c = keel_lua_checkhex(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  luaL_argcheck(L, k >= 0 && k <= 4096, 2, "radius must be 0..4096");
  return push_list(L, keel_hex_spiral, c, k, keel_max_disk_size(k), "spiral");
}

/* hex.line(a, b) -> {hexes from a to b}  [-2, +1, e] */
static int l_line(lua_State *L) {
  keel_hex a = keel_lua_checkhex(L, 1), b = keel_lua_checkhex(L, 2);
  size_t cap = keel_max_line_size(a, b), n;
  if (cap > (size_t)1 << 24) return luaL_error(L, "line: %I hexes is too long", (lua_Integer)cap);
  keel_hex *buf = lua_newuserdatauv(L, cap * sizeof *buf, 0);
  keel_status st = keel_hex_line(a, b, buf, cap, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "line");
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* ---- hexsides ------------------------------------------------------------ */

/* hex.side_of(h, dir) -> side  [-2, +1, e] */
static int l_side_of(lua_State *L) {
  keel_side s;
  keel_hex h = keel_lua_checkhex(L, 1);
  keel_status st = keel_side_of(h, checkdir(L, 2), &s);
  return push_or_fail(L, st, s, "side_of");
}

/* hex.side_between(a, b) -> side | raises for non-adjacent hexes  [-2, +1, e] */
static int l_side_between(lua_State *L) {
  keel_hex a = keel_lua_checkhex(L, 1), b = keel_lua_checkhex(L, 2);
  keel_side s;
  keel_status st = keel_side_between(a, b, &s);
  if (st == KEEL_E_NOT_ADJACENT)
    return luaL_error(L, "side_between: hexes %s and %s are %I apart; a hexside needs adjacent hexes",
                      lua_pushfstring(L, "(%I,%I)", (lua_Integer)keel_hex_q(a), (lua_Integer)keel_hex_r(a)),
                      lua_pushfstring(L, "(%I,%I)", (lua_Integer)keel_hex_q(b), (lua_Integer)keel_hex_r(b)),
                      (lua_Integer)keel_hex_distance(a, b));
  return push_or_fail(L, st, s, "side_between");
}

/* hex.side_hexes(side) -> a, b  [-1, +2, e] */
static int l_side_hexes(lua_State *L) {
  keel_hex a, b;
  keel_side_hexes(keel_lua_checkside(L, 1), &a, &b);
  lua_pushinteger(L, a);
  lua_pushinteger(L, b);
  return 2;
}

/* hex.side_direction(side) -> 0..2 (as seen from its first hex)  [-1, +1, e] */
static int l_side_direction(lua_State *L) {
  lua_pushinteger(L, keel_side_direction(keel_lua_checkside(L, 1)));
  return 1;
}

/* hex.sides(h) -> {6 sides in direction order}  [-1, +1, e] */
static int l_sides(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  keel_side out[6];
  for (int d = 0; d < 6; d++) {
    keel_status st = keel_side_of(h, d, &out[d]);
    if (st != KEEL_OK) return keel_lua_fail(L, st, "sides");
  }
  keel_lua_pushhexes(L, out, 6);
  return 1;
}

/* hex.is_side(x) -> boolean  [-1, +1, -] */
static int l_is_side(lua_State *L) {
  int isnum = 0;
  lua_Integer s = lua_tointegerx(L, 1, &isnum);
  lua_pushboolean(L, isnum && lua_type(L, 1) == LUA_TNUMBER && keel_side_is_valid(s));
  return 1;
}

/* ---- offset, doubled, pixel -------------------------------------------------- */

static keel_offset check_offset(lua_State *L, int arg) {
  static const char *const names[] = { "odd-q", "even-q", "odd-r", "even-r", NULL };
  return (keel_offset)luaL_checkoption(L, arg, NULL, names);
}
static keel_doubled check_doubled(lua_State *L, int arg) {
  static const char *const names[] = { "doubled-q", "doubled-r", NULL };
  return (keel_doubled)luaL_checkoption(L, arg, NULL, names);
}

/* hex.to_offset(h, conv) -> col, row  [-2, +2, e] */
static int l_to_offset(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  int64_t col, row;
  keel_hex_to_offset(h, check_offset(L, 2), &col, &row);
  lua_pushinteger(L, col);
  lua_pushinteger(L, row);
  return 2;
}

/* hex.from_offset(conv, col, row) -> hex  [-3, +1, e] */
static int l_from_offset(lua_State *L) {
  keel_offset conv = check_offset(L, 1);
  keel_hex h;
  keel_status st = keel_hex_from_offset(conv, luaL_checkinteger(L, 2), luaL_checkinteger(L, 3), &h);
  return push_or_fail(L, st, h, "from_offset");
}

/* hex.to_doubled(h, conv) -> col, row  [-2, +2, e] */
static int l_to_doubled(lua_State *L) {
  keel_hex h = keel_lua_checkhex(L, 1);
  int64_t col, row;
  keel_hex_to_doubled(h, check_doubled(L, 2), &col, &row);
  lua_pushinteger(L, col);
  lua_pushinteger(L, row);
  return 2;
}

/* hex.from_doubled(conv, col, row) -> hex  [-3, +1, e] */
static int l_from_doubled(lua_State *L) {
  keel_doubled conv = check_doubled(L, 1);
  lua_Integer col = luaL_checkinteger(L, 2), row = luaL_checkinteger(L, 3);
  keel_hex h;
  keel_status st = keel_hex_from_doubled(conv, col, row, &h);
  if (st == KEEL_E_ARG)
    return luaL_error(L, "from_doubled: col + row must be even, got %I + %I", col, row);
  return push_or_fail(L, st, h, "from_doubled");
}

/* layout table: { pointy = bool, size = {x, y} or number, origin = {x, y} } */
static void check_layout(lua_State *L, int arg, keel_layout *l) {
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_getfield(L, arg, "pointy");
  l->pointy = lua_toboolean(L, -1);
  lua_pop(L, 1);
  l->size_x = l->size_y = 1.0;
  l->origin_x = l->origin_y = 0.0;
  lua_getfield(L, arg, "size");
  if (lua_isnumber(L, -1)) {
    l->size_x = l->size_y = lua_tonumber(L, -1);
  } else if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1); l->size_x = luaL_checknumber(L, -1); lua_pop(L, 1);
    lua_rawgeti(L, -1, 2); l->size_y = luaL_checknumber(L, -1); lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "origin");
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1); l->origin_x = luaL_checknumber(L, -1); lua_pop(L, 1);
    lua_rawgeti(L, -1, 2); l->origin_y = luaL_checknumber(L, -1); lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (l->size_x == 0 || l->size_y == 0) luaL_argerror(L, arg, "layout size must not be 0");
}

/* hex.to_pixel(layout, h) -> x, y  [-2, +2, e] */
static int l_to_pixel(lua_State *L) {
  keel_layout l;
  check_layout(L, 1, &l);
  double x, y;
  keel_hex_to_pixel(&l, keel_lua_checkhex(L, 2), &x, &y);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

/* hex.from_pixel(layout, x, y) -> q, r, s (fractional; hex.round them)  [-3, +3, e] */
static int l_from_pixel(lua_State *L) {
  keel_layout l;
  check_layout(L, 1, &l);
  double q, r, s;
  keel_pixel_to_frac(&l, luaL_checknumber(L, 2), luaL_checknumber(L, 3), &q, &r, &s);
  lua_pushnumber(L, q);
  lua_pushnumber(L, r);
  lua_pushnumber(L, s);
  return 3;
}

/* hex.corners(layout, h) -> {x1, y1, ..., x6, y6}  [-2, +1, e] */
static int l_corners(lua_State *L) {
  keel_layout l;
  check_layout(L, 1, &l);
  keel_hex h = keel_lua_checkhex(L, 2);
  lua_createtable(L, 12, 0);
  for (int i = 0; i < 6; i++) {
    double x, y;
    keel_hex_corner(&l, h, i, &x, &y);
    lua_pushnumber(L, x); lua_rawseti(L, -2, 2 * i + 1);
    lua_pushnumber(L, y); lua_rawseti(L, -2, 2 * i + 2);
  }
  return 1;
}

/* require "keel.hex" -> module  [-0, +1, e] */
int keel_lua_open_hex(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"from_qr", l_from_qr}, {"from_qrs", l_from_qrs}, {"to_qr", l_qr}, {"to_qrs", l_qrs},
    {"is_valid", l_is_valid}, {"tostring", l_tostring},
    {"add", l_add}, {"subtract", l_subtract}, {"scale", l_scale},
    {"neighbor", l_neighbor}, {"neighbors", l_neighbors}, {"diagonal", l_diagonal},
    {"direction", l_direction}, {"direction_to", l_direction_to}, {"distance", l_distance},
    {"rotate", l_rotate}, {"round", l_round}, {"line", l_line},
    {"ring", l_ring}, {"spiral", l_spiral}, {"disk", l_spiral},
    {"side_of", l_side_of}, {"side_between", l_side_between}, {"side_hexes", l_side_hexes},
    {"side_direction", l_side_direction}, {"sides", l_sides}, {"is_side", l_is_side},
    {"to_offset", l_to_offset}, {"from_offset", l_from_offset},
    {"to_doubled", l_to_doubled}, {"from_doubled", l_from_doubled},
    {"to_pixel", l_to_pixel}, {"from_pixel", l_from_pixel}, {"corners", l_corners},
    {NULL, NULL}
  };
  luaL_newlib(L, fns);
  lua_pushinteger(L, KEEL_HEX_COORD_MAX);
  lua_setfield(L, -2, "COORD_MAX");
  return 1;
}
