/* tests/tags/wrong.c — functions whose stack tags are wrong, each in one way,
 * for tools/check_stack_tags.lua (tests/run.sh compares its report with
 * wrong.expected). Never compiled. */
#include <lauxlib.h>

static int helper_arg(lua_State *L, int arg) { return (int)luaL_checkinteger(L, arg + 1); }
static int two(lua_State *L, int ok) {
  if (!ok) { lua_pushnil(L); lua_pushliteral(L, "no"); return 2; }
  return 1;
}
#define GET(L, i) luaL_checkinteger(L, i)

/* f(a) -> a  [-1, +1, e] */
static int returns_two(lua_State *L) {
  luaL_checkinteger(L, 1);
  return two(L, 0);
}

/* f(a, b) -> x  [-2, +1, e] */
static int reads_three(lua_State *L) {
  helper_arg(L, 2);
  return 1;
}

/* f(a, b, c) -> x  [-3, +1, e] */
static int reads_one_by_macro(lua_State *L) {
  lua_pushinteger(L, GET(L, 1));
  return 1;
}

/* f() -> string  [-0, +1, -] */
static int allocates(lua_State *L) {
  lua_pushliteral(L, "x");
  return 1;
}

/* f() -> nothing  [-0, +0, m] */
static int raises(lua_State *L) {
  return luaL_error(L, "always");
}

static int untagged(lua_State *L) { (void)L; return 0; }

/* f(a) -> a | nil, why  [-1, +1|2, e] */
static int right(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  if (n < 0) return two(L, 0);
  lua_pushinteger(L, n);
  return 1;
}

/* f(...) -> ...  [-?, +?, e] */
static int any(lua_State *L) { return lua_gettop(L); }
