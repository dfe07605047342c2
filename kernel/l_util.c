/* l_util.c — helpers shared by the Lua bindings; see l_util.h. */
#include "l_util.h"
#include <string.h>

keel_hex keel_lua_checkhex(lua_State *L, int arg) {
  int isnum = 0;
  lua_Integer h = lua_tointegerx(L, arg, &isnum);
  if (!isnum) luaL_typeerror(L, arg, "hex (integer)");
  if (!keel_hex_is_valid((keel_hex)h))
    luaL_argerror(L, arg, "not a valid hex (use keel.hex.from_qr)");
  return (keel_hex)h;
}

keel_side keel_lua_checkside(lua_State *L, int arg) {
  int isnum = 0;
  lua_Integer s = lua_tointegerx(L, arg, &isnum);
  if (!isnum) luaL_typeerror(L, arg, "hexside (integer)");
  if (!keel_side_is_valid((keel_side)s))
    luaL_argerror(L, arg, "not a valid hexside (use keel.hex.side_between)");
  return (keel_side)s;
}

int keel_lua_fail(lua_State *L, keel_status st, const char *what) {
  return luaL_error(L, "%s: %s", what, keel_status_str(st));
}

int keel_lua_nilerr(lua_State *L, keel_status st, const char *what) {
  lua_pushnil(L);
  lua_pushfstring(L, "%s: %s", what, keel_status_str(st));
  return 2;
}

int keel_lua_nilmsg(lua_State *L, const char *reason) {
  lua_pushnil(L);
  lua_pushstring(L, reason);
  return 2;
}

int keel_lua_nilerr_nf(lua_State *L, keel_status st, const char *what, const char *not_found) {
  if (st == KEEL_E_NOT_FOUND) return keel_lua_nilmsg(L, not_found);
  return keel_lua_nilerr(L, st, what);
}

void keel_lua_pushareanames(lua_State *L, const keel_areas *a) {
  size_t n = keel_area_count(a);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, keel_area_name(a, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

void keel_lua_pushareaneighbors(lua_State *L, const keel_areas *a, size_t i) {
  size_t n = keel_area_count_neighbors(a, i);
  lua_createtable(L, (int)n, 0);
  for (size_t k = 0; k < n; k++) {
    lua_pushstring(L, keel_area_name(a, keel_area_neighbor(a, i, k)));
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
}

void keel_lua_pushsectionnames(lua_State *L, const keel_grid *g) {
  size_t n = keel_grid_count_sections(g);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, keel_grid_section_name(g, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

int keel_lua_pushboxhexes(lua_State *L, const keel_boxgrid *g, keel_box x, const char *what) {
  size_t cap = keel_max_disk_size(g->radius), n;
  keel_hex *buf = lua_newuserdatauv(L, cap * sizeof *buf, 0);
  keel_status st = keel_box_hexes(g, x, buf, cap, &n);
  if (st != KEEL_OK) return keel_lua_nilerr(L, st, what);
  keel_lua_pushhexes(L, buf, n);
  return 1;
}

void keel_lua_pushhexes(lua_State *L, const keel_hex *hexes, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)hexes[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

keel_hex *keel_lua_checkhexes(lua_State *L, int arg, size_t *n) {
  luaL_checktype(L, arg, LUA_TTABLE);
  size_t len = (size_t)luaL_len(L, arg);
  keel_hex *buf = lua_newuserdatauv(L, (len ? len : 1) * sizeof *buf, 0);
  for (size_t i = 0; i < len; i++) {
    lua_geti(L, arg, (lua_Integer)i + 1);
    int isnum = 0;
    lua_Integer h = lua_tointegerx(L, -1, &isnum);
    if (!isnum || !keel_hex_is_valid((keel_hex)h))
      luaL_error(L, "bad argument #%d (hex expected at index %d)", arg, (int)i + 1);
    buf[i] = (keel_hex)h;
    lua_pop(L, 1);
  }
  *n = len;
  return buf;
}

/* obj:close(): frees what the object owns, once (also __gc and __close)  [-1, +0, e] */
static int close_object(lua_State *L) {
  const keel_lua_class *c = lua_touserdata(L, lua_upvalueindex(1));
  void **owned = luaL_checkudata(L, 1, c->name);
  if (*owned) c->release(*owned);
  *owned = NULL;
  return 0;
}

/* The key, in a class's metatable, of its name (a light userdata: the
 * pointer the class was made with), for keel_lua_checkudata. */
static const char class_name_key = 0;

void *keel_lua_checkudata(lua_State *L, int arg, const char *name) {
  void *p = lua_touserdata(L, arg);
  if (p && lua_getmetatable(L, arg)) {
    lua_rawgetp(L, -1, &class_name_key);
    const char *n = lua_touserdata(L, -1);
    lua_pop(L, 2);
    if (n && (n == name || strcmp(n, name) == 0)) return p;
  }
  return luaL_checkudata(L, arg, name);   /* not a keel object of this class: its message */
}

void keel_lua_newclass(lua_State *L, const keel_lua_class *c, int nup) {
  luaL_newmetatable(L, c->name);
  lua_pushlightuserdata(L, (void *)c->name);
  lua_rawsetp(L, -2, &class_name_key);
  if (c->methods) {
    lua_newtable(L);
    for (int i = 0; i < nup; i++) lua_pushvalue(L, -2 - nup);   /* the upvalues, in order */
    luaL_setfuncs(L, c->methods, nup);
    if (c->release) {
      lua_pushlightuserdata(L, (void *)c);
      lua_pushcclosure(L, close_object, 1);
      lua_setfield(L, -2, "close");
    }
    lua_setfield(L, -2, "__index");
  }
  const struct { const char *field; lua_CFunction fn; } meta[] = {
    { "__gc", c->gc }, { "__close", c->close }, { "__tostring", c->tostring }
  };
  for (size_t i = 0; i < sizeof meta / sizeof *meta; i++) {
    if (meta[i].fn) lua_pushcfunction(L, meta[i].fn);
    else if (c->release && i < 2) { lua_pushlightuserdata(L, (void *)c); lua_pushcclosure(L, close_object, 1); }
    else continue;
    lua_setfield(L, -2, meta[i].field);
  }
  lua_pop(L, 1 + nup);
}

void *keel_lua_checkobject(lua_State *L, int arg, const char *name, const char *what) {
  void **owned = keel_lua_checkudata(L, arg, name);
  if (!*owned) luaL_argerror(L, arg, lua_pushfstring(L, "%s is closed", what));
  return *owned;
}

/* keel_lua_weaktable(L, key)  [-0, +1, m] */
void keel_lua_weaktable(lua_State *L, const char *key) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, key);
}

void *keel_lua_newobject(lua_State *L, size_t size, int nuv, const char *name) {
  void *p = lua_newuserdatauv(L, size, nuv);
  memset(p, 0, size);
  luaL_setmetatable(L, name);
  return p;
}

void keel_lua_optnumbering(lua_State *L, int idx, keel_numbering *n) {
  static const struct { const char *k; lua_Integer def, lo, hi; } f[] = {
    { "digits", 2, 1, 4 }, { "first_col", 1, 0, 9999 }, { "first_row", 1, 0, 9999 } };
  lua_Integer v[3];
  for (int i = 0; i < 3; i++) {
    v[i] = keel_lua_optfield_int(L, idx, f[i].k, f[i].def);
    if (v[i] < f[i].lo || v[i] > f[i].hi)
      luaL_error(L, "field '%s': an integer from %I to %I expected, got %I", f[i].k, f[i].lo, f[i].hi, v[i]);
  }
  n->digits = (int)v[0];
  n->first_col = (int)v[1];
  n->first_row = (int)v[2];
}

lua_Integer keel_lua_optfield_int(lua_State *L, int idx, const char *k, lua_Integer def) {
  lua_getfield(L, idx, k);
  lua_Integer v = def;
  if (!lua_isnil(L, -1)) {
    int isnum = 0;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum) luaL_error(L, "field '%s': integer expected, got %s", k, luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}
