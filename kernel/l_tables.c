/*
 * l_tables.c — keel.tables' C half: the one step of a table resolution that
 * walks a Lua table (the rest is scripts/keel/tables.lua, which
 * require "keel.tables" gives). No kernel object: it reads Lua tables only.
 *
 *   keel.tables.sum_modifiers(ctx, amounts, per) -> total | nil
 *
 * The total of a dice table's modifiers under a plain context (a table
 * without a metatable: a read-only proxy reads through one), from the
 * context's keys (a walk in C: no Lua call per key, no table made):
 * amounts[name] is each modifier's amount, per[name] true for a `+#`/`-#`
 * one. A key of ctx holding true adds its amount, an integer n adds amount
 * times n (wrapping as Lua's integers do), false adds nothing. nil when
 * Table:modifiers_for, which walks the modifiers in table order, must
 * decide: a ctx that is no plain table, a value it refuses (true for a `#` modifier, anything but a
 * boolean or an integer), or a boolean under a name that is no modifier.
 */
#include "l_util.h"

/* keel.tables.sum_modifiers(ctx, amounts, per) -> total|nil  [-3, +1, e] */
static int l_sum_modifiers(lua_State *L) {
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_settop(L, 3);
  if (!lua_istable(L, 1) || lua_getmetatable(L, 1)) {   /* no plain table */
    lua_pushnil(L);
    return 1;
  }
  lua_Unsigned total = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {            /* key at 4, value at 5 */
    int vt = lua_type(L, 5);
    lua_pushvalue(L, 4);
    if (lua_rawget(L, 2) == LUA_TNIL) {            /* no modifier of that name */
      lua_settop(L, 4);
      if (vt == LUA_TBOOLEAN) break;               /* a typo, as like as not */
      continue;
    }
    lua_Integer amount = lua_tointeger(L, 6);
    if (vt == LUA_TBOOLEAN) {
      if (lua_toboolean(L, 5)) {
        lua_pushvalue(L, 4);
        if (lua_rawget(L, 3) != LUA_TNIL) break;   /* true for a `#` modifier */
        total += (lua_Unsigned)amount;
      }
    } else if (lua_isinteger(L, 5)) {
      total += (lua_Unsigned)amount * (lua_Unsigned)lua_tointeger(L, 5);
    } else {
      break;
    }
    lua_settop(L, 4);
  }
  if (lua_gettop(L) > 3) lua_pushnil(L);           /* left the walk early */
  else lua_pushinteger(L, (lua_Integer)total);
  return 1;
}

/* require "keel.tables" (the C half) -> module  [-0, +1, e] */
int keel_lua_open_tables(lua_State *L) {
  static const luaL_Reg fns[] = { { "sum_modifiers", l_sum_modifiers }, { NULL, NULL } };
  luaL_newlib(L, fns);
  return 1;
}
