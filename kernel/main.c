/*
 * main.c — the `keel` command line tool: a Lua state with the standard
 * libraries, LPeg and keel preloaded, which hands argv to scripts/keel/cli.lua.
 * Every command lives in Lua (keel.cli); this file only boots the state and
 * turns the result into an exit status.
 */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <lua-lpeg.h>
#include <stdio.h>

int luaopen_keel(lua_State *L);

/* message handler: msg -> msg with a traceback  [-1, +1, e] */
static int traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) msg = luaL_tolstring(L, 1, NULL);
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* boot(argc, argv) -> exit status of keel.cli.main  [-2, +1, e] */
static int boot(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = (char **)lua_touserdata(L, 2);
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_lpeg);
  lua_setfield(L, -2, "lpeg");
  lua_pushcfunction(L, luaopen_keel);
  lua_setfield(L, -2, "keel");
  lua_pop(L, 1);
  luaL_requiref(L, "keel", luaopen_keel, 0);   /* sets package.path */
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "keel.cli");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "main");
  lua_createtable(L, argc, 0);
  for (int i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_call(L, 1, 1);
  return 1;
}

int main(int argc, char **argv) {
  lua_State *L = luaL_newstate();
  if (L == NULL) { fputs("keel: cannot create a Lua state: out of memory\n", stderr); return 1; }
  lua_pushcfunction(L, traceback);
  lua_pushcfunction(L, boot);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  int status = 1;
  if (lua_pcall(L, 2, 1, 1) != LUA_OK) {
    fprintf(stderr, "keel: %s\n", lua_tostring(L, -1));
  } else {
    status = (int)luaL_optinteger(L, -1, 0);
  }
  lua_close(L);
  return status;
}
