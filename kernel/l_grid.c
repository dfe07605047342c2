/*
 * l_grid.c — keel.grid: printed labels and map sections (binding of grid.c).
 *
 *   local g = keel.grid.new { orientation = "flat", shift = "odd", digits = 2,
 *     first_col = 1, first_row = 1,
 *     sections = { { name = "15A", col = 0, row = 0, cols = 34, rows = 40 }, ... } }
 *   g:parse("15B:2407") -> hex | nil, reason
 */
#include "l_util.h"
#include <string.h>

#define GRID_MT "keel.Grid"

typedef struct { keel_grid *g; } grid_ud;

static keel_grid *check_grid(lua_State *L, int arg) { return keel_lua_checkobject(L, arg, GRID_MT, "grid"); }

static void release(void *g) { keel_grid_free(g); }

static const char *field_str(lua_State *L, int t, const char *k, const char *def) {
  lua_getfield(L, t, k);
  const char *s = def;
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "grid: field '%s' must be a string, got %s", k, luaL_typename(L, -1));
    s = lua_tostring(L, -1);
  }
  lua_pop(L, 1);   /* the string stays alive in the table */
  return s;
}

/* Explain a failed label parse: what was given, where, and what was expected. */
static int label_error(lua_State *L, keel_grid *g, keel_status st, const char *label,
                       size_t at, int side) {
  const keel_numbering *n = keel_grid_numbering(g);
  lua_pushnil(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  lua_pushfstring(L, "%s \"%s\": ", side ? "hexside label" : "label", label);
  luaL_addvalue(&b);
  switch (st) {
  case KEEL_E_SECTION: {
    lua_pushfstring(L, "unknown map section at character %d (known:", (int)at + 1);
    luaL_addvalue(&b);
    for (size_t i = 0; i < keel_grid_count_sections(g); i++) {
      luaL_addchar(&b, ' ');
      luaL_addstring(&b, keel_grid_section_name(g, i));
    }
    luaL_addchar(&b, ')');
    break;
  }
  case KEEL_E_OFF_BOARD:
    lua_pushfstring(L, "hex at character %d is outside its map section", (int)at + 1);
    luaL_addvalue(&b);
    break;
  case KEEL_E_NOT_ADJACENT:
    luaL_addstring(&b, "the two hexes are not adjacent; a hexside needs adjacent hexes");
    break;
  default:
    lua_pushfstring(L, "unexpected character at %d; expected %s[SECTION:]%s",
                    (int)at + 1, side ? "" : "", n->digits == 2 ? "CCRR" : "column and row digits");
    luaL_addvalue(&b);
    lua_pushfstring(L, " (%d digits each)%s", n->digits, side ? " twice, joined by '/'" : "");
    luaL_addvalue(&b);
    break;
  }
  luaL_pushresult(&b);
  return 2;
}

/* grid:parse(label) -> hex | nil, reason  [-2, +1|2, e] */
static int l_parse(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  const char *label = luaL_checkstring(L, 2);
  keel_hex h;
  size_t at = 0;
  keel_status st = keel_grid_parse(g, label, &h, &at);
  if (st != KEEL_OK) return label_error(L, g, st, label, at, 0);
  lua_pushinteger(L, h);
  return 1;
}

/* grid:format(hex) -> string | nil, reason  [-2, +1|2, e] */
static int l_label(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  keel_hex h = keel_lua_checkhex(L, 2);
  char buf[KEEL_LABEL_MAX];
  keel_status st = keel_grid_format(g, h, buf, sizeof buf);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "label");
  lua_pushstring(L, buf);
  return 1;
}

/* grid:parse_side("33:1223/1224") -> side | nil, reason  [-2, +1|2, e] */
static int l_parse_side(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  const char *label = luaL_checkstring(L, 2);
  keel_side s;
  size_t at = 0;
  keel_status st = keel_grid_parse_side(g, label, &s, &at);
  if (st != KEEL_OK) return label_error(L, g, st, label, at, 1);
  lua_pushinteger(L, s);
  return 1;
}

/* grid:format_side(side) -> string | nil, reason  [-2, +1|2, e] */
static int l_side_label(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  keel_side s = keel_lua_checkside(L, 2);
  char buf[2 * KEEL_LABEL_MAX];
  keel_status st = keel_grid_format_side(g, s, buf, sizeof buf);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "side_label");
  lua_pushstring(L, buf);
  return 1;
}

/* grid:section_of(hex) -> name | nil, reason  [-2, +1|2, e] */
static int l_section_of(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  keel_hex h = keel_lua_checkhex(L, 2);
  size_t i;
  keel_status st = keel_grid_section_of(g, h, &i);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, "section_of");
  const char *name = keel_grid_section_name(g, i);
  lua_pushstring(L, name ? name : "");
  return 1;
}

/* grid:sections() -> { name, ... } in the order added  [-1, +1, e] */
static int l_sections(lua_State *L) {
  keel_lua_pushsectionnames(L, check_grid(L, 1));
  return 1;
}

/* grid:numbering() -> { orientation, shift, digits, first_col, first_row }  [-1, +1, e] */
static int l_numbering(lua_State *L) {
  const keel_numbering *n = keel_grid_numbering(check_grid(L, 1));
  lua_createtable(L, 0, 5);
  lua_pushstring(L, n->pointy ? "pointy" : "flat"); lua_setfield(L, -2, "orientation");
  lua_pushstring(L, n->shift_even ? "even" : "odd"); lua_setfield(L, -2, "shift");
  lua_pushinteger(L, n->digits); lua_setfield(L, -2, "digits");
  lua_pushinteger(L, n->first_col); lua_setfield(L, -2, "first_col");
  lua_pushinteger(L, n->first_row); lua_setfield(L, -2, "first_row");
  return 1;
}

/* tostring(grid) -> "keel.Grid (N sections)"  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  keel_grid *g = check_grid(L, 1);
  lua_pushfstring(L, "keel.Grid (%d sections)", (int)keel_grid_count_sections(g));
  return 1;
}

/* keel.grid.new(spec) -> Grid  [-1, +1, e] */
static int l_new(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  grid_ud *u = keel_lua_newobject(L, sizeof *u, 0, GRID_MT);
  keel_numbering n;
  const char *orient = field_str(L, 1, "orientation", "flat");
  const char *shift = field_str(L, 1, "shift", "odd");
  if (strcmp(orient, "flat") && strcmp(orient, "pointy"))
    return luaL_error(L, "grid: orientation must be \"flat\" or \"pointy\", got \"%s\"", orient);
  if (strcmp(shift, "odd") && strcmp(shift, "even"))
    return luaL_error(L, "grid: shift must be \"odd\" or \"even\", got \"%s\"", shift);
  n.pointy = !strcmp(orient, "pointy");
  n.shift_even = !strcmp(shift, "even");
  keel_lua_optnumbering(L, 1, &n);
  keel_status st = keel_grid_new(&n, &u->g);
  if (st != KEEL_OK)
    return luaL_error(L, "grid: digits must be 1..4 and first_col/first_row >= 0 (%s)",
                      keel_status_str(st));
  lua_getfield(L, 1, "sections");
  if (!lua_isnil(L, -1)) {
    luaL_checktype(L, -1, LUA_TTABLE);
    int secs = lua_gettop(L);
    for (lua_Integer i = 1; lua_geti(L, secs, i) != LUA_TNIL; i++) {
      int s = lua_gettop(L);
      if (!lua_istable(L, s)) return luaL_error(L, "grid: sections[%I] must be a table", i);
      const char *name = field_str(L, s, "name", NULL);
      if (!name) return luaL_error(L, "grid: sections[%I] needs a name", i);
      st = keel_grid_add_section(u->g, name, keel_lua_optfield_int(L, s, "col", 0),
                                 keel_lua_optfield_int(L, s, "row", 0),
                                 keel_lua_optfield_int(L, s, "cols", 0),
                                 keel_lua_optfield_int(L, s, "rows", 0));
      if (st == KEEL_E_DUPLICATE) return luaL_error(L, "grid: section \"%s\" is defined twice", name);
      if (st == KEEL_E_ARG)
        return luaL_error(L, "grid: section \"%s\": name must be 1-15 of A-Z a-z 0-9 _ -, and its "
                          "%s offset must be even (an odd one would flip the %s shift)",
                          name, n.pointy ? "row" : "column", n.pointy ? "row" : "column");
      if (st != KEEL_OK) return luaL_error(L, "grid: section \"%s\": %s", name, keel_status_str(st));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 1;
}

/* require "keel.grid" -> module  [-0, +1, e] */
int keel_lua_open_grid(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"parse", l_parse}, {"format", l_label}, {"parse_side", l_parse_side},
    {"format_side", l_side_label}, {"section_of", l_section_of}, {"sections", l_sections},
    {"numbering", l_numbering}, {NULL, NULL}
  };
  static const keel_lua_class cls = { .name = GRID_MT, .methods = methods, .tostring = l_tostring, .release = release };
  keel_lua_newclass(L, &cls, 0);
  lua_newtable(L);
  lua_pushcfunction(L, l_new);
  lua_setfield(L, -2, "new");
  return 1;
}
