/*
 * l_board.c — keel.board: boards for Lua (binding of board.c).
 *
 * A keel.Board is built in two phases: keel.board.new(numbering) gives an
 * empty board that takes sections and data (scripts/keel/map.lua feeds it
 * from a map file), board:finish() freezes it, and then it answers queries.
 * Wherever a hex is expected, a method takes a hex integer, a printed label
 * ("15B:2407") or a place name ("Port Said"); wherever a hexside is expected,
 * a side integer or a label ("33:1223/1224"). A hex or side that is not on
 * the board gives nil and a reason; a wrong type raises.
 */
#include "l_util.h"
#include <string.h>

#define BOARD_MT "keel.Board"

typedef struct lboard { keel_board *b; } lboard;

static lboard *check_lboard(lua_State *L, int arg) {
  return keel_lua_checkudata(L, arg, BOARD_MT);
}

/* The key that marks a method bound to its board (board:bind): upvalue 2. */
static const char bound_key = 0;

/* The board at arg; for arg 1 of a bound method, the board it is bound to
 * (upvalue 1): no check of argument 1. */
static keel_board *check_board(lua_State *L, int arg) {
  if (arg == 1 && lua_touserdata(L, lua_upvalueindex(2)) == &bound_key) {
    void **owned = lua_touserdata(L, lua_upvalueindex(1));
    if (!*owned) luaL_error(L, "board is closed");
    return *owned;
  }
  return keel_lua_checkobject(L, arg, BOARD_MT, "board");
}

keel_board *keel_lua_checkboard(lua_State *L, int arg) { return check_board(L, arg); }

static keel_board *check_built(lua_State *L, int arg) {
  keel_board *b = check_board(L, arg);
  if (!keel_board_is_finished(b)) luaL_argerror(L, arg, "board is not finished (call finish)");
  return b;
}

static keel_board *check_building(lua_State *L, int arg) {
  keel_board *b = check_board(L, arg);
  if (keel_board_is_finished(b)) luaL_argerror(L, arg, "board is finished");
  return b;
}

/* Push nil and "'<label>': <status phrase>"; returns 0 (for get_hex/get_side). */
static int bad_label(lua_State *L, const char *label, keel_status st) {
  lua_pushnil(L);
  lua_pushfstring(L, "'%s': %s", label, keel_status_str(st));
  return 0;
}

/* Resolve a hex argument: integer, label or place name. On failure pushes
 * nil and a reason and returns 0. */
static int get_hex(lua_State *L, keel_board *b, int arg, keel_hex *out) {
  int t = lua_type(L, arg);
  if (t == LUA_TNUMBER) {
    *out = keel_lua_checkhex(L, arg);
    return 1;
  }
  if (t != LUA_TSTRING) { luaL_typeerror(L, arg, "hex (integer, label or place name)"); return 0; }
  const char *s = lua_tostring(L, arg);
  size_t at = 0;
  keel_status st = keel_grid_parse(keel_board_get_grid(b), s, out, &at);
  if (st == KEEL_OK) return 1;
  if (keel_board_is_finished(b) && keel_board_find_place(b, s, out) == KEEL_OK) return 1;
  return bad_label(L, s, st);
}

static int get_side(lua_State *L, keel_board *b, int arg, keel_side *out) {
  int t = lua_type(L, arg);
  if (t == LUA_TNUMBER) {
    *out = keel_lua_checkside(L, arg);
    return 1;
  }
  if (t != LUA_TSTRING) { luaL_typeerror(L, arg, "hexside (integer or label)"); return 0; }
  const char *s = lua_tostring(L, arg);
  size_t at = 0;
  keel_status st = keel_grid_parse_side(keel_board_get_grid(b), s, out, &at);
  if (st == KEEL_OK) return 1;
  return bad_label(L, s, st);
}

/* The side at 2, or the side between the hexes at 2 and 3. On failure pushes
 * nil and a reason ("<what>: ..." when the hexes are not adjacent) and
 * returns 0. */
static int get_side_or_pair(lua_State *L, keel_board *b, const char *what, keel_side *out) {
  if (lua_isnoneornil(L, 3)) return get_side(L, b, 2, out);
  keel_hex a, c;
  if (!get_hex(L, b, 2, &a) || !get_hex(L, b, 3, &c)) return 0;
  keel_status st = keel_side_between(a, c, out);
  if (st != KEEL_OK) { keel_lua_nilerr(L, st, what); return 0; }
  return 1;
}

#define HEX_ARG(L, b, arg, h) do { if (!get_hex(L, b, arg, &(h))) return 2; } while (0)
#define SIDE_ARG(L, b, arg, s) do { if (!get_side(L, b, arg, &(s))) return 2; } while (0)

/* push true, or nil and "<what>: <reason>" */
static int result(lua_State *L, keel_status st, const char *what) {
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, what);
  lua_pushboolean(L, 1);
  return 1;
}

/* ---- construction ------------------------------------------------------------ */

/* board.new{pointy=, shift="odd"|"even", digits=, first_col=, first_row=} -> Board  [-1, +1, e] */
static int l_new(lua_State *L) {
  keel_numbering n = { 0, 0, 2, 1, 1 };
  if (!lua_isnoneornil(L, 1)) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "pointy");
    n.pointy = lua_toboolean(L, -1);
    lua_getfield(L, 1, "shift");
    const char *shift = luaL_optstring(L, -1, "odd");
    if (!strcmp(shift, "even")) n.shift_even = 1;
    else if (strcmp(shift, "odd")) luaL_argerror(L, 1, "shift must be \"odd\" or \"even\"");
    lua_pop(L, 2);
    keel_lua_optnumbering(L, 1, &n);
  }
  lboard *u = keel_lua_newobject(L, sizeof *u, 0, BOARD_MT);
  keel_status st = keel_board_new(&n, &u->b);
  if (st != KEEL_OK) return luaL_argerror(L, 1, keel_status_str(st));
  return 1;
}

static void release(void *b) { keel_board_free(b); }

/* board:__tostring() -> string  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  lboard *u = check_lboard(L, 1);
  if (!u->b) lua_pushliteral(L, "keel.Board (closed)");
  else lua_pushfstring(L, "keel.Board (%d hexes%s)", (int)keel_board_count_hexes(u->b),
                       keel_board_is_finished(u->b) ? "" : ", building");
  return 1;
}

/* board:add_section(name, col, row, cols, rows) -> true | nil, reason  [-6, +1|2, e] */
static int l_section(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_status st = keel_board_add_section(b, luaL_checkstring(L, 2), luaL_checkinteger(L, 3),
                                          luaL_checkinteger(L, 4), luaL_checkinteger(L, 5),
                                          luaL_checkinteger(L, 6));
  return result(L, st, "section");
}

static keel_terrain check_terrain(lua_State *L, int arg) {
  keel_terrain t;
  const char *name = luaL_checkstring(L, arg);
  if (keel_terrain_from_name(name, &t) != KEEL_OK)
    luaL_argerror(L, arg, lua_pushfstring(L, "unknown terrain '%s'", name));
  return t;
}

/* board:set_default_terrain(name) -> true  [-2, +1|2, e] */
static int l_default_terrain(lua_State *L) {
  keel_board *b = check_building(L, 1);
  return result(L, keel_board_set_default_terrain(b, check_terrain(L, 2)), "default_terrain");
}

/* board:set_terrain(hex, name) -> true | nil, reason  [-3, +1|2, e] */
static int l_set_terrain(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  return result(L, keel_board_set_terrain(b, h, check_terrain(L, 3)), "terrain");
}

/* ---- bulk building: a layer over a rectangle or a row of symbols ------------ */

static const char *const layer_names[] = { "terrain", "zone", "tag", NULL };
/* the name a one-hex call gives its failures, per layer */
static const char *const layer_what[] = { "terrain", "zone", "tag" };

/* The value at idx for `layer`, as the one-hex call takes it: a terrain name,
 * a zone index >= 1, a tag id. NULL, or what is wrong (pushed). */
static const char *layer_value(lua_State *L, keel_board_layer layer, int idx, int *out) {
  int t = lua_type(L, idx);
  switch (layer) {
  case KEEL_LAYER_TERRAIN: {
    keel_terrain tr;
    if (t != LUA_TSTRING) return lua_pushliteral(L, "terrain name expected");
    if (keel_terrain_from_name(lua_tostring(L, idx), &tr) != KEEL_OK)
      return lua_pushfstring(L, "unknown terrain '%s'", lua_tostring(L, idx));
    *out = (int)tr;
    return NULL;
  }
  default: {   /* zone index 1.., tag id 1.. */
    int isnum;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    if (!isnum || v < 1 || v > 0xffff)
      return layer == KEEL_LAYER_ZONE ? lua_pushliteral(L, "zone index >= 1 expected")
                                      : lua_pushliteral(L, "tag id 1..65535 expected");
    *out = layer == KEEL_LAYER_ZONE ? (int)v - 1 : (int)v;
    return NULL;
  }
  }
}

/* board:fill(layer, from, to, value) -> true | nil, reason, hex  [-5, +1|2|3, e]
 * layer "terrain" | "zone" | "tag": every hex of the offset rectangle
 * from..to, as set_terrain / set_zone / add_tag. */
static int l_fill(lua_State *L) {
  keel_board_layer layer = (keel_board_layer)luaL_checkoption(L, 2, NULL, layer_names);
  keel_board *b = check_building(L, 1);
  keel_hex from, to;
  if (!get_hex(L, b, 3, &from) || !get_hex(L, b, 4, &to)) return 2;
  int value;
  const char *bad = layer_value(L, layer, 5, &value);
  if (bad) return luaL_argerror(L, 5, bad);
  keel_hex at = from;
  keel_status st = keel_board_fill(b, layer, from, to, value, &at);
  if (st == KEEL_OK) { lua_pushboolean(L, 1); return 1; }
  keel_lua_nilerr(L, st, st == KEEL_E_ARG && at == from ? "fill" : layer_what[layer]);
  lua_pushinteger(L, at);
  return 3;
}

/* byte index (1-based) in s of column col (0-based); spaces and tabs are not columns */
static size_t column_index(const char *s, size_t len, size_t col) {
  for (size_t i = 0; i < len; i++) {
    if (s[i] == ' ' || s[i] == '\t') continue;
    if (col-- == 0) return i + 1;
  }
  return len + 1;
}

/* board:fill_row(layer, first, symbols, legend, start?) -> true | nil, reason, index, column
 *   [-6, +1|4, e]  one column per symbol eastward from first (spaces and tabs
 * are not columns, '_' leaves its hex), the value legend[symbol]; columns
 * before byte `start` are counted only. Stops at a symbol legend lacks
 * ("fill_row: no legend entry for 'Q'") or a hex refused, with its byte
 * index and column. */
static int l_fill_row(lua_State *L) {
  keel_board_layer layer = (keel_board_layer)luaL_checkoption(L, 2, NULL, layer_names);
  keel_board *b = check_building(L, 1);
  keel_hex first = keel_lua_checkhex(L, 3);
  size_t len;
  const char *s = luaL_checklstring(L, 4, &len);
  luaL_checktype(L, 5, LUA_TTABLE);
  lua_Integer start = luaL_optinteger(L, 6, 1);
  int vals[256];
  for (int i = 0; i < 256; i++) vals[i] = -2;   /* -2: no entry */
  lua_pushnil(L);
  while (lua_next(L, 5)) {
    size_t kl;
    if (lua_type(L, -2) != LUA_TSTRING || (lua_tolstring(L, -2, &kl), kl != 1))
      return luaL_argerror(L, 5, "keys must be one-character symbols");
    int v;
    const char *bad = layer_value(L, layer, -1, &v);
    if (bad) return luaL_argerror(L, 5, lua_pushfstring(L, "'%s': %s", lua_tostring(L, -3), bad));
    vals[(unsigned char)lua_tostring(L, -2)[0]] = v;
    lua_pop(L, 1);
  }
  vals['_'] = -1;
  int small[512], *buf = small;
  if (len > 512) buf = lua_newuserdatauv(L, len * sizeof *buf, 0);
  size_t n = 0, miss = 0;
  int missed = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == ' ' || c == '\t') continue;
    if ((lua_Integer)i + 1 < start) { buf[n++] = -1; continue; }
    if (vals[c] == -2) { missed = 1; miss = i; break; }
    buf[n++] = vals[c];
  }
  size_t at = 0;
  keel_status st = keel_board_fill_row(b, layer, first, buf, n, &at);
  if (st != KEEL_OK) {
    keel_lua_nilerr(L, st, layer_what[layer]);
    lua_pushinteger(L, (lua_Integer)column_index(s, len, at));
    lua_pushinteger(L, (lua_Integer)at + 1);
    return 4;
  }
  if (missed) {
    lua_pushnil(L);
    lua_pushfstring(L, "fill_row: no legend entry for '%c'", s[miss]);
    lua_pushinteger(L, (lua_Integer)miss + 1);
    lua_pushinteger(L, (lua_Integer)n + 1);
    return 4;
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* board:add_side(side, features) -> true | nil, reason  [-3, +1|2, e] */
static int l_add_side(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_side s;
  SIDE_ARG(L, b, 2, s);
  lua_Integer f = luaL_checkinteger(L, 3);
  if (f < 0 || f > 0xffff) return luaL_argerror(L, 3, "feature word 0..0xffff expected");
  return result(L, keel_board_add_side(b, s, (unsigned)f), "side");
}

/* Push the id that fn gives the name at 2, or nil and "<what>: <reason>". */
static int name_id(lua_State *L, keel_board *b, keel_status (*fn)(keel_board *, const char *, int *),
                   const char *what) {
  int id;
  keel_status st = fn(b, luaL_checkstring(L, 2), &id);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, what);
  lua_pushinteger(L, id);
  return 1;
}

/* board:side_name_id(name) -> id | nil, reason  [-2, +1|2, e] */
static int l_side_name_id(lua_State *L) {
  return name_id(L, check_building(L, 1), keel_board_side_name_id, "side name");
}

/* board:set_coasts(hex, {c0..c5}) -> true | nil, reason  [-3, +1|2, e] */
static int l_set_coasts(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  luaL_checktype(L, 3, LUA_TTABLE);
  int c[6];
  for (int d = 0; d < 6; d++) {
    lua_geti(L, 3, d + 1);
    lua_Integer v = luaL_optinteger(L, -1, 0);
    if (v < 0 || v > KEEL_COAST_MAX) return luaL_error(L, "coasts[%d]: a coast number from 0 to %d expected", d + 1, KEEL_COAST_MAX);
    c[d] = (int)v;
    lua_pop(L, 1);
  }
  return result(L, keel_board_set_coasts(b, h, c), "coasts");
}

static const char *const port_sizes[] = { "", "minor", "standard", "major", "great", NULL };

/* board:add_port(hex, size, capacity|nil, inland) -> true | nil, reason  [-5, +1|2, e] */
static int l_add_port(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_port p;
  HEX_ARG(L, b, 2, p.hex);
  const char *size = luaL_checkstring(L, 3);
  if (!strcmp(size, "medium")) size = "standard";
  p.size = 0;
  for (int i = 1; port_sizes[i]; i++) if (!strcmp(size, port_sizes[i])) p.size = i;
  if (p.size == 0)
    return luaL_argerror(L, 3, lua_pushfstring(L, "unknown port size '%s'", size));
  lua_Integer cap = luaL_optinteger(L, 4, -1);
  luaL_argcheck(L, cap >= -1 && cap <= INT32_MAX, 4, "capacity from 0 to 2147483647 (or nil) expected");
  p.capacity = (int)cap;
  p.flags = lua_toboolean(L, 5) ? KEEL_PORT_INLAND : 0;
  return result(L, keel_board_add_port(b, &p), "port");
}

/* board:add_place(name, hex) -> true | nil, reason  [-3, +1|2, e] */
static int l_add_place(lua_State *L) {
  keel_board *b = check_building(L, 1);
  const char *name = luaL_checkstring(L, 2);
  keel_hex h;
  HEX_ARG(L, b, 3, h);
  return result(L, keel_board_add_place(b, name, h), "place");
}

/* board:set_cd(hex, level) -> true | nil, reason  [-3, +1|2, e] */
static int l_set_cd(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  lua_Integer lv = luaL_checkinteger(L, 3);
  if (lv < 0 || lv > 255) return keel_lua_nilerr(L, KEEL_E_RANGE, "coast defence level");
  return result(L, keel_board_set_cd(b, h, (int)lv), "coast defence");
}

/* board:set_seaboxes(radius, origin) -> true | nil, reason  [-3, +1|2, e] */
static int l_set_seaboxes(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_boxgrid g;
  g.radius = luaL_checkinteger(L, 2);
  HEX_ARG(L, b, 3, g.origin);
  return result(L, keel_board_set_seaboxes(b, &g), "sea boxes");
}

/* board:add_zone(name) -> index | nil, reason  [-2, +1|2, e] */
static int l_add_zone(lua_State *L) {
  keel_board *b = check_building(L, 1);
  size_t i;
  keel_status st = keel_board_add_zone(b, luaL_checkstring(L, 2), &i);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "zone");
  lua_pushinteger(L, (lua_Integer)i + 1);
  return 1;
}

/* board:set_zone(hex, index) -> true | nil, reason  [-3, +1|2, e] */
static int l_set_zone(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  lua_Integer i = luaL_checkinteger(L, 3);
  if (i < 1) return luaL_argerror(L, 3, "zone index >= 1 expected");
  return result(L, keel_board_set_zone(b, h, (size_t)(i - 1)), "zone");
}

/* board:tag_id(name) -> id | nil, reason  [-2, +1|2, e] */
static int l_tag_id(lua_State *L) { return name_id(L, check_building(L, 1), keel_board_tag_id, "tag"); }

/* board:add_tag(hex, id) -> true | nil, reason  [-3, +1|2, e] */
static int l_add_tag(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  lua_Integer id = luaL_checkinteger(L, 3);
  luaL_argcheck(L, id >= 0 && id <= INT32_MAX, 3, "tag id expected");
  return result(L, keel_board_add_tag(b, h, (int)id), "tag");
}

/* board:add_strait_passage(crossing, strait) -> true | nil, reason  [-3, +1|2, e] */
static int l_add_strait_passage(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_side c, s;
  SIDE_ARG(L, b, 2, c);
  SIDE_ARG(L, b, 3, s);
  return result(L, keel_board_add_strait_passage(b, c, s), "strait passage");
}

/* board:finish() -> board | nil, reason  [-1, +1|2, e] */
static int l_finish(lua_State *L) {
  keel_board *b = check_building(L, 1);
  keel_status st = keel_board_finish(b);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "finish");
  lua_settop(L, 1);
  return 1;
}

/* ---- labels ------------------------------------------------------------------ */

/* board:hex(label|place|hex) -> hex | nil, reason  [-2, +1|2, e] */
static int l_hex(lua_State *L) {
  keel_board *b = check_board(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  if (keel_board_is_finished(b) && !keel_board_contains(b, h))
    return keel_lua_nilerr(L, KEEL_E_OFF_BOARD, "hex");
  lua_pushinteger(L, h);
  return 1;
}

/* board:format(hex) -> "15B:2407" | nil, reason  [-2, +1|2, e] */
static int l_label(lua_State *L) {
  keel_board *b = check_board(L, 1);
  keel_hex h;
  HEX_ARG(L, b, 2, h);
  char buf[KEEL_LABEL_MAX];
  keel_status st = keel_grid_format(keel_board_get_grid(b), h, buf, sizeof buf);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "label");
  lua_pushstring(L, buf);
  return 1;
}

/* board:side(label|side|hex_a, hex_b?) -> side | nil, reason  [-3, +1|2, e] */
static int l_side(lua_State *L) {
  keel_board *b = check_board(L, 1);
  keel_side s;
  if (!get_side_or_pair(L, b, "side", &s)) return 2;
  lua_pushinteger(L, s);
  return 1;
}

/* board:format_side(side) -> "33:1223/1224" | nil, reason  [-2, +1|2, e] */
static int l_side_label(lua_State *L) {
  keel_board *b = check_board(L, 1);
  keel_side s;
  SIDE_ARG(L, b, 2, s);
  char buf[2 * KEEL_LABEL_MAX];
  keel_status st = keel_grid_format_side(keel_board_get_grid(b), s, buf, sizeof buf);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "side label");
  lua_pushstring(L, buf);
  return 1;
}

/* board:numbering() -> {pointy=, shift=, digits=, first_col=, first_row=, sections={...}}  [-1, +1, e] */
static int l_numbering(lua_State *L) {
  keel_board *b = check_board(L, 1);
  const keel_grid *g = keel_board_get_grid(b);
  const keel_numbering *n = keel_grid_numbering(g);
  lua_createtable(L, 0, 6);
  lua_pushboolean(L, n->pointy); lua_setfield(L, -2, "pointy");
  lua_pushstring(L, n->shift_even ? "even" : "odd"); lua_setfield(L, -2, "shift");
  lua_pushinteger(L, n->digits); lua_setfield(L, -2, "digits");
  lua_pushinteger(L, n->first_col); lua_setfield(L, -2, "first_col");
  lua_pushinteger(L, n->first_row); lua_setfield(L, -2, "first_row");
  keel_lua_pushsectionnames(L, g);
  lua_setfield(L, -2, "sections");
  return 1;
}

/* ---- queries ------------------------------------------------------------------ */

#define QUERY_HEX(L, b, h) \
  keel_board *b = check_built(L, 1); keel_hex h; HEX_ARG(L, b, 2, h)

/* board:contains(hex) -> boolean  [-2, +1, e] */
static int l_contains(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_hex h;
  if (!get_hex(L, b, 2, &h)) { lua_pushboolean(L, 0); return 1; }
  lua_pushboolean(L, keel_board_contains(b, h));
  return 1;
}

/* board:get_terrain(hex) -> "all-sea"|"coastal"|... | nil, reason  [-2, +1|2, e] */
static int l_terrain(lua_State *L) {
  QUERY_HEX(L, b, h);
  keel_terrain t;
  keel_status st = keel_board_get_terrain(b, h, &t);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "terrain");
  lua_pushstring(L, keel_terrain_name(t));
  return 1;
}

static const char *const water_names[] = { "none", "all-water", "partial-water", "all-land" };
static const char *const riverine_names[] = { NULL, "river", "major-river", "great-river",
                                              "canal", "lake" };

static void push_features(lua_State *L, keel_board *b, unsigned f) {
  lua_createtable(L, 0, 7);
  lua_pushstring(L, water_names[f & KEEL_SIDE_WATER_MASK]);
  lua_setfield(L, -2, "water");
  unsigned r = (f & KEEL_SIDE_RIVERINE_MASK) >> 2;
  if (r) { lua_pushstring(L, riverine_names[r]); lua_setfield(L, -2, "riverine"); }
  lua_pushboolean(L, (f & KEEL_SIDE_NARROW_STRAIT) != 0); lua_setfield(L, -2, "narrow_strait");
  lua_pushboolean(L, (f & KEEL_SIDE_ESTUARY) != 0); lua_setfield(L, -2, "estuary");
  lua_pushboolean(L, (f & KEEL_SIDE_PROHIBITED) != 0); lua_setfield(L, -2, "prohibited");
  const char *name = keel_board_side_name(b, (int)(f >> KEEL_SIDE_NAME_SHIFT));
  if (name) { lua_pushstring(L, name); lua_setfield(L, -2, "name"); }
  lua_pushinteger(L, f); lua_setfield(L, -2, "bits");
}

/* board:get_features(side | hex_a, hex_b) -> {water=, riverine=, narrow_strait=, estuary=,
 *   prohibited=, name=, bits=} | nil, reason  [-3, +1|2, e] */
static int l_features(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_side s;
  if (!get_side_or_pair(L, b, "features", &s)) return 2;
  unsigned f;
  keel_status st = keel_board_get_features(b, s, &f);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "features");
  push_features(L, b, f);
  return 1;
}

/* board:get_coasts(hex) -> {c0, ..., c5} (index = direction + 1) | nil, reason  [-2, +1|2, e] */
static int l_coasts(lua_State *L) {
  QUERY_HEX(L, b, h);
  lua_createtable(L, 6, 0);
  for (int d = 0; d < 6; d++) {
    int c;
    keel_status st = keel_board_get_coast(b, h, d, &c);
    if (st != KEEL_OK) return keel_lua_nilerr(L, st, "coasts");
    lua_pushinteger(L, c);
    lua_rawseti(L, -2, d + 1);
  }
  return 1;
}

static void push_port(lua_State *L, const keel_port *p) {
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, p->hex); lua_setfield(L, -2, "hex");
  lua_pushstring(L, port_sizes[p->size]); lua_setfield(L, -2, "size");
  if (p->capacity >= 0) { lua_pushinteger(L, p->capacity); lua_setfield(L, -2, "capacity"); }
  lua_pushboolean(L, (p->flags & KEEL_PORT_INLAND) != 0); lua_setfield(L, -2, "inland");
}

/* board:get_port(hex) -> {hex=, size=, capacity=, inland=} | nil, reason  [-2, +1|2, e] */
static int l_port(lua_State *L) {
  QUERY_HEX(L, b, h);
  keel_port p;
  keel_status st = keel_board_get_port(b, h, &p);
  if (st != KEEL_OK) return keel_lua_nilerr_nf(L, st, "port", "port: no port in this hex");
  push_port(L, &p);
  return 1;
}

/* board:ports() -> {port, ...} in hex order  [-1, +1, e] */
static int l_ports(lua_State *L) {
  keel_board *b = check_built(L, 1);
  size_t n = keel_board_count_ports(b);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    keel_port p;
    keel_board_at_port(b, i, &p);
    push_port(L, &p);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* board:find_place(name) -> hex | nil, reason  [-2, +1|2, e] */
static int l_place(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_hex h;
  keel_status st = keel_board_find_place(b, luaL_checkstring(L, 2), &h);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "place");
  lua_pushinteger(L, h);
  return 1;
}

/* board:place_name(hex) -> name | nil, reason  [-2, +1|2, e] */
static int l_place_name(lua_State *L) {
  QUERY_HEX(L, b, h);
  const char *name;
  keel_status st = keel_board_place_name(b, h, &name);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "place");
  lua_pushstring(L, name);
  return 1;
}

/* board:places() -> {{name=, hex=}, ...} by name  [-1, +1, e] */
static int l_places(lua_State *L) {
  keel_board *b = check_built(L, 1);
  size_t n = keel_board_count_places(b);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    const char *name;
    keel_hex h;
    keel_board_at_place(b, i, &name, &h);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name); lua_setfield(L, -2, "name");
    lua_pushinteger(L, h); lua_setfield(L, -2, "hex");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* board:get_cd(hex) -> level | nil, reason  [-2, +1|2, e] */
static int l_cd(lua_State *L) {
  QUERY_HEX(L, b, h);
  int lv;
  keel_status st = keel_board_get_cd(b, h, &lv);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "coast defence");
  lua_pushinteger(L, lv);
  return 1;
}

/* board:cds() -> { {hex=, level=}... }: every coast defence, as hexes() orders them  [-1, +1, e] */
static int l_cds(lua_State *L) {
  keel_board *b = check_built(L, 1);
  size_t n = keel_board_count_cds(b);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    keel_hex h;
    int lv;
    keel_board_at_cd(b, i, &h, &lv);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, h);
    lua_setfield(L, -2, "hex");
    lua_pushinteger(L, lv);
    lua_setfield(L, -2, "level");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* board:box_of(hex) -> box | nil, reason  [-2, +1|2, e] */
static int l_box(lua_State *L) {
  QUERY_HEX(L, b, h);
  keel_box x;
  keel_status st = keel_board_box_of(b, h, &x);
  if (st != KEEL_OK) return keel_lua_nilerr_nf(L, st, "box", "box: the board has no sea boxes");
  lua_pushinteger(L, x);
  return 1;
}

/* board:get_seaboxes() -> radius, origin | nil, reason  [-1, +2|2, e] */
static int l_seaboxes(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_boxgrid g;
  if (keel_board_get_seaboxes(b, &g) != KEEL_OK) return keel_lua_nilmsg(L, "seaboxes: the board has no sea boxes");
  lua_pushinteger(L, g.radius);
  lua_pushinteger(L, g.origin);
  return 2;
}

/* board:box_hexes(box) -> {hex, ...}  [-2, +1|2, e] (hexes of the box, on board or not) */
static int l_box_hexes(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_box x = keel_lua_checkhex(L, 2);
  keel_boxgrid g;
  if (keel_board_get_seaboxes(b, &g) != KEEL_OK) return keel_lua_nilerr(L, KEEL_E_NOT_FOUND, "box_hexes");
  return keel_lua_pushboxhexes(L, &g, x, "box_hexes");
}

/* board:get_zone(hex) -> name | false (none) | nil, reason  [-2, +1|2, e] */
static int l_zone(lua_State *L) {
  QUERY_HEX(L, b, h);
  size_t i;
  keel_status st = keel_board_get_zone(b, h, &i);
  if (st == KEEL_E_NOT_FOUND) { lua_pushboolean(L, 0); return 1; }
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "zone");
  lua_pushstring(L, keel_area_name(keel_board_get_areas(b), i));
  return 1;
}

/* board:zones() -> {name, ...} in index order  [-1, +1, e] */
static int l_zones(lua_State *L) {
  keel_lua_pushareanames(L, keel_board_get_areas(check_board(L, 1)));
  return 1;
}

/* board:zone_neighbors(name) -> {name, ...} | nil, reason  [-2, +1|2, e] */
static int l_zone_neighbors(lua_State *L) {
  keel_board *b = check_built(L, 1);
  const keel_areas *a = keel_board_get_areas(b);
  size_t i;
  keel_status st = keel_area_find(a, luaL_checkstring(L, 2), &i);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "zone");
  keel_lua_pushareaneighbors(L, a, i);
  return 1;
}

/* board:tags(hex) -> {name, ...} | nil, reason  [-2, +1|2, e] */
static int l_tags(lua_State *L) {
  QUERY_HEX(L, b, h);
  int small[64], *ids = small;
  size_t n;
  keel_status st = keel_board_tags(b, h, ids, 64, &n);
  if (st == KEEL_E_CAPACITY) {   /* many tags on one hex: ask again with room */
    ids = lua_newuserdatauv(L, 65536 * sizeof *ids, 0);
    st = keel_board_tags(b, h, ids, 65536, &n);
  }
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "tags");
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, keel_board_tag_name(b, ids[i]));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* board:has_tag(hex, name) -> boolean | nil, reason  [-3, +1|2, e] */
static int l_has_tag(lua_State *L) {
  QUERY_HEX(L, b, h);
  int id;
  if (!keel_board_contains(b, h)) return keel_lua_nilerr(L, KEEL_E_OFF_BOARD, "has_tag");
  if (keel_board_find_tag(b, luaL_checkstring(L, 3), &id) != KEEL_OK) {
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_pushboolean(L, keel_board_has_tag(b, h, id));
  return 1;
}

/* board:tagged(name) -> {hex, ...} in board order (empty for an unknown tag)  [-2, +1, e] */
static int l_tagged(lua_State *L) {
  keel_board *b = check_built(L, 1);
  int id;
  if (keel_board_find_tag(b, luaL_checkstring(L, 2), &id) != KEEL_OK) {
    lua_newtable(L);
    return 1;
  }
  size_t n;
  keel_board_tagged(b, id, NULL, 0, &n);
  keel_hex *buf = lua_newuserdatauv(L, (n ? n : 1) * sizeof *buf, 0);
  keel_status st = keel_board_tagged(b, id, buf, n, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "tagged");
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* board:water_neighbors(hex, coast?) -> {{hex=, coast=, dir=, side=}, ...} | nil, reason
 *   [-3, +1|2, e]  coast 0 or nil: leave by any coast */
static int l_water_neighbors(lua_State *L) {
  QUERY_HEX(L, b, h);
  lua_Integer coast = luaL_optinteger(L, 3, 0);
  if (coast < 0 || coast > KEEL_COAST_MAX)
    return luaL_argerror(L, 3, "coast 0..15 expected");
  keel_water_step steps[6];
  size_t n;
  keel_status st = keel_board_water_neighbors(b, h, (int)coast, steps, &n);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "water_neighbors");
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, steps[i].to); lua_setfield(L, -2, "hex");
    lua_pushinteger(L, steps[i].coast); lua_setfield(L, -2, "coast");
    lua_pushinteger(L, steps[i].dir); lua_setfield(L, -2, "dir");
    lua_pushinteger(L, steps[i].side); lua_setfield(L, -2, "side");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* board:riverine_neighbors(side) -> {side, ...} | nil, reason  [-2, +1|2, e] */
static int l_riverine_neighbors(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_side s;
  SIDE_ARG(L, b, 2, s);
  keel_side out[4];
  size_t n;
  keel_status st = keel_board_riverine_neighbors(b, s, out, &n);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "riverine_neighbors");
  keel_lua_pushhexes(L, out, n);
  return 1;
}

/* board:rect_hexes(from, to) -> {hex, ...} | nil, reason  [-3, +1|2, e]
 * the hexes of the offset rectangle from..to that are on the board, row by row */
static int l_rect_hexes(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_hex from, to;
  if (!get_hex(L, b, 2, &from) || !get_hex(L, b, 3, &to)) return 2;
  size_t n;
  keel_status st = keel_board_rect_hexes(b, from, to, NULL, 0, &n);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "rect_hexes");
  keel_hex *buf = lua_newuserdatauv(L, (n ? n : 1) * sizeof *buf, 0);
  if ((st = keel_board_rect_hexes(b, from, to, buf, n, &n)) != KEEL_OK) return keel_lua_fail(L, st, "rect_hexes");
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* board:riverine_sides() -> {side, ...} in side order  [-1, +1, e] */
static int l_riverine_sides(lua_State *L) {
  keel_board *b = check_built(L, 1);
  size_t n;
  keel_board_riverine_sides(b, NULL, 0, &n);
  keel_side *buf = lua_newuserdatauv(L, (n ? n : 1) * sizeof *buf, 0);
  keel_status st = keel_board_riverine_sides(b, buf, n, &n);
  if (st != KEEL_OK) return keel_lua_fail(L, st, "riverine_sides");
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

/* board:strait_passage(side) -> strait side | nil, reason  [-2, +1|2, e] */
static int l_strait_passage(lua_State *L) {
  keel_board *b = check_built(L, 1);
  keel_side s, t;
  SIDE_ARG(L, b, 2, s);
  keel_status st = keel_board_strait_passage(b, s, &t);
  if (st != KEEL_OK)
    return keel_lua_nilerr_nf(L, st, "strait_passage", "strait_passage: crossing this side passes no narrow strait");
  lua_pushinteger(L, t);
  return 1;
}

/* board:hexes() -> {hex, ...} in board (row-major offset) order  [-1, +1, e] */
static int l_hexes(lua_State *L) {
  keel_board *b = check_built(L, 1);
  size_t n = keel_board_count_cells(b), k = 0;
  lua_createtable(L, (int)keel_board_count_hexes(b), 0);
  for (size_t i = 0; i < n; i++) {
    keel_hex h;
    if (keel_board_at_cell(b, i, &h) != KEEL_OK) continue;
    lua_pushinteger(L, h);
    lua_rawseti(L, -2, (lua_Integer)++k);
  }
  return 1;
}

/* board:stats() -> {hexes=, cells=, bytes=, bytes_per_hex=}  [-1, +1, e] */
static int l_stats(lua_State *L) {
  keel_board *b = check_board(L, 1);
  size_t hexes = keel_board_count_hexes(b), bytes = keel_board_memory(b);
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)hexes); lua_setfield(L, -2, "hexes");
  lua_pushinteger(L, (lua_Integer)keel_board_count_cells(b)); lua_setfield(L, -2, "cells");
  lua_pushinteger(L, (lua_Integer)bytes); lua_setfield(L, -2, "bytes");
  lua_pushnumber(L, hexes ? (double)bytes / (double)hexes : 0.0);
  lua_setfield(L, -2, "bytes_per_hex");
  return 1;
}

/* board.load(path) / board.load_string(text, name?) -> Board | nil, error
 * (through scripts/keel/map.lua)  [-1|2, +1|2, e] */
static int call_map(lua_State *L, const char *fn) {
  int nargs = lua_gettop(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "keel.map");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, fn);
  lua_insert(L, 1);
  lua_pop(L, 1);
  lua_call(L, nargs, LUA_MULTRET);
  return lua_gettop(L);
}
/* board.load(path) -> Board | nil, error (through call_map)  [-1, +1|2, e] */
static int l_load(lua_State *L) { luaL_checkstring(L, 1); return call_map(L, "load"); }
/* board.load_string(text, name?) -> Board | nil, error  [-1|2, +1|2, e] */
static int l_load_string(lua_State *L) { luaL_checkstring(L, 1); return call_map(L, "load_string"); }

/* board:bind(name) -> function: method `name` bound to the board, called
 * as f(anything, args...) like board:name(args...) without checking the
 * board (the facade rules see it through)  [-2, +1, e] */
static int l_bind(lua_State *L) {
  check_board(L, 1);
  const char *name = luaL_checkstring(L, 2);
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__index");
  lua_getfield(L, -1, name);
  lua_CFunction fn = lua_tocfunction(L, -1);
  if (!fn || fn == l_bind || lua_getupvalue(L, -1, 1))   /* close has an upvalue of its own */
    return luaL_argerror(L, 2, lua_pushfstring(L, "no method '%s' to bind", name));
  lua_pushvalue(L, 1);
  lua_pushlightuserdata(L, (void *)&bound_key);
  lua_pushcclosure(L, fn, 2);
  return 1;
}

/* require "keel.board" -> module  [-0, +1, e] */
int keel_lua_open_board(lua_State *L) {
  static const luaL_Reg methods[] = {
    { "add_section", l_section }, { "set_default_terrain", l_default_terrain },
    { "set_terrain", l_set_terrain },
    { "fill", l_fill }, { "fill_row", l_fill_row },
    { "add_side", l_add_side }, { "side_name_id", l_side_name_id },
    { "set_coasts", l_set_coasts }, { "add_port", l_add_port }, { "add_place", l_add_place },
    { "set_cd", l_set_cd }, { "set_seaboxes", l_set_seaboxes }, { "add_zone", l_add_zone },
    { "set_zone", l_set_zone }, { "tag_id", l_tag_id }, { "add_tag", l_add_tag },
    { "add_strait_passage", l_add_strait_passage },
    { "finish", l_finish },
    { "hex", l_hex }, { "format", l_label }, { "side", l_side }, { "format_side", l_side_label },
    { "numbering", l_numbering },
    { "contains", l_contains }, { "get_terrain", l_terrain }, { "get_features", l_features },
    { "get_coasts", l_coasts }, { "get_port", l_port }, { "ports", l_ports }, { "find_place", l_place },
    { "place_name", l_place_name }, { "places", l_places }, { "get_cd", l_cd }, { "cds", l_cds }, { "box_of", l_box },
    { "get_seaboxes", l_seaboxes }, { "box_hexes", l_box_hexes }, { "get_zone", l_zone },
    { "zones", l_zones }, { "zone_neighbors", l_zone_neighbors }, { "tags", l_tags },
    { "has_tag", l_has_tag }, { "tagged", l_tagged }, { "water_neighbors", l_water_neighbors },
    { "riverine_neighbors", l_riverine_neighbors }, { "riverine_sides", l_riverine_sides },
    { "rect_hexes", l_rect_hexes },
    { "strait_passage", l_strait_passage },
    { "hexes", l_hexes }, { "stats", l_stats }, { "bind", l_bind },
    { NULL, NULL }
  };
  static const luaL_Reg fns[] = {
    { "new", l_new }, { "load", l_load }, { "load_string", l_load_string }, { NULL, NULL }
  };
  static const keel_lua_class cls = { .name = BOARD_MT, .methods = methods, .tostring = l_tostring, .release = release };   /* close: the recipe's */
  keel_lua_newclass(L, &cls, 0);
  luaL_newlib(L, fns);
  /* feature bits, terrain codes and port sizes for map loaders */
  static const struct { const char *k; lua_Integer v; } consts[] = {
    { "all-water", KEEL_SIDE_ALL_WATER }, { "partial-water", KEEL_SIDE_PARTIAL_WATER },
    { "all-land", KEEL_SIDE_ALL_LAND }, { "river", KEEL_SIDE_RIVER },
    { "major-river", KEEL_SIDE_MAJOR_RIVER }, { "great-river", KEEL_SIDE_GREAT_RIVER },
    { "canal", KEEL_SIDE_CANAL }, { "lake", KEEL_SIDE_LAKE },
    { "narrow-strait", KEEL_SIDE_NARROW_STRAIT }, { "estuary", KEEL_SIDE_ESTUARY },
    { "prohibited", KEEL_SIDE_PROHIBITED }, { "name_shift", KEEL_SIDE_NAME_SHIFT },
    { NULL, 0 }
  };
  lua_newtable(L);
  for (int i = 0; consts[i].k; i++) {
    lua_pushinteger(L, consts[i].v);
    lua_setfield(L, -2, consts[i].k);
  }
  lua_setfield(L, -2, "SIDE");
  lua_newtable(L);
  for (int t = 1; t < KEEL_TERRAIN_COUNT; t++) {
    lua_pushinteger(L, t);
    lua_setfield(L, -2, keel_terrain_name((keel_terrain)t));
  }
  lua_setfield(L, -2, "TERRAIN");
  lua_pushinteger(L, KEEL_COAST_MAX);
  lua_setfield(L, -2, "COAST_MAX");
  return 1;
}
