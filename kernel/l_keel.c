/*
 * l_keel.c — luaopen_keel: the `keel` module table, its versions, the
 * location of keel's Lua scripts, and the per-area bindings under it
 * (keel.hex, keel.grid, ...), one per kernel/l_*.c file (build/modules.h).
 */
#define _GNU_SOURCE
#include "l_util.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int luaopen_keel(lua_State *L);

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The scripts folder: $KEEL_SCRIPTS; else, beside the binary or shared
 * object holding this code, ../scripts (a build tree), ../share/keel/scripts
 * (bin/keel installed) or ../../../share/keel/scripts (lib/lua/5.4/keel.so),
 * or a LuaRocks tree's module folder, ../share/lua/5.4 (bin/keel) or
 * ../../../share/lua/5.4 (lib/lua/5.4/keel.so: `luarocks make` installs the
 * scripts as modules there, keel-VERSION.rockspec); else the configured
 * install location. The folder is named by its real
 * path (links, "." and ".." resolved) whenever it exists: journals and saves
 * name keel's own rule files "<keel>/..." by it, so a KEEL_SCRIPTS given
 * through a symlink or as a relative path names them as the real folder
 * does, and the same game gives the same journal. */
static void push_script_dir(lua_State *L) {
  static const char *const candidates[] = {
    "/../scripts", "/../share/keel/scripts", "/../../../share/keel/scripts",
    "/../share/lua/5.4", "/../../../share/lua/5.4", NULL
  };
  const char *env = getenv("KEEL_SCRIPTS");
  char path[PATH_MAX], probe[PATH_MAX + 64], found[PATH_MAX];
  if (env && *env) {
    lua_pushstring(L, is_dir(env) && realpath(env, found) ? found : env);
    return;
  }
  Dl_info info;
  const char *self = NULL;
  if (dladdr((void *)luaopen_keel, &info) && info.dli_fname) self = info.dli_fname;
  /* the program itself, started through PATH, is named as argv[0] was
   * ("keel"): its file is /proc/self/exe */
  if (self && !strchr(self, '/')) self = "/proc/self/exe";
  if (self && realpath(self, path)) {
    char *slash = strrchr(path, '/');
    if (slash) {
      *slash = '\0';
      for (int i = 0; candidates[i]; i++) {
        snprintf(probe, sizeof probe, "%s%s/keel", path, candidates[i]);
        if (is_dir(probe) && realpath(probe, found)) {
          found[strlen(found) - 5] = '\0';   /* drop "/keel" */
          lua_pushstring(L, found);
          return;
        }
      }
    }
  }
  lua_pushstring(L, KEEL_SHAREDIR "/scripts");
}

/* Prepend "<dir>/?.lua" to package.path once, so require "keel.x" finds
 * scripts/keel/x.lua. */
static void add_package_path(lua_State *L, int dir) {
  lua_getglobal(L, "package");
  if (!lua_istable(L, -1)) { lua_pop(L, 1); return; }
  lua_getfield(L, -1, "path");
  const char *old = lua_tostring(L, -1);
  lua_pushfstring(L, "%s/?.lua;", lua_tostring(L, dir));
  if (!old || !strstr(old, lua_tostring(L, -1))) {
    lua_pushstring(L, old ? old : "");
    lua_concat(L, 2);
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
  } else {
    lua_pop(L, 3);
  }
}

static void push_lpeg_version(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lpeg");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_pushliteral(L, "unavailable");
    return;
  }
  lua_getfield(L, -1, "version");
  if (lua_isfunction(L, -1)) lua_call(L, 0, 1);   /* LPeg 1.0: a function */
  lua_remove(L, -2);
}

/* keel.clock() -> seconds on a monotonic wall clock (a float), for hosts'
 * progress lines and benchmarks; rules never see it (the sandbox offers
 * only the geometry modules).  [-0, +1, -] */
static int l_clock(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec / 1e9);
  return 1;
}

/* require "keel" -> the module table  [-0, +1, e] */
KEEL_API int luaopen_keel(lua_State *L) {
  lua_newtable(L);
  int mod = lua_gettop(L);
  lua_pushstring(L, keel_version());
  lua_setfield(L, mod, "version");
  lua_pushliteral(L, LUA_RELEASE);
  lua_setfield(L, mod, "lua_version");
  push_lpeg_version(L);
  lua_setfield(L, mod, "lpeg_version");
  push_script_dir(L);
  add_package_path(L, lua_gettop(L));
  lua_setfield(L, mod, "script_dir");
  lua_pushcfunction(L, l_clock);
  lua_setfield(L, mod, "clock");
#define KEEL_MODULE(name) \
  keel_lua_open_##name(L); \
  lua_setfield(L, mod, #name);
#include "modules.h"
#undef KEEL_MODULE
  return 1;
}
