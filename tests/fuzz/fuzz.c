/*
 * tests/fuzz/fuzz.c — one libFuzzer harness for every keel fuzz target.
 *
 * KEEL_FUZZ_TARGET names the target (map, tables, save, bindings, ...): a
 * function of tests/fuzz/targets.lua that takes the input as a string. The
 * harness embeds keel's Lua as bin/keel does, and feeds libFuzzer coverage
 * of the Lua code it runs as well as of the C: a line hook hashes each
 * (chunk, line) edge into an extra-counters array, so the fuzzer learns
 * which inputs reach new lines of the LPeg grammars and loaders in Lua.
 *
 * Any error escaping a target is a finding (targets refuse bad input
 * themselves and raise only "FUZZ: ..." when keel misbehaves): the harness
 * prints it and aborts, and libFuzzer saves the input. Built and run by
 * `make fuzz` (clang, -fsanitize=fuzzer,address,undefined).
 */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <lua-lpeg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int luaopen_keel(lua_State *L);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EDGES (1u << 16)
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t lua_edges[EDGES];

static lua_State *L;
static int target_ref = LUA_NOREF;
static uintptr_t prev_loc;

static void line_hook(lua_State *l, lua_Debug *ar) {
  if (!lua_getinfo(l, "S", ar)) return;
  uintptr_t loc = ((uintptr_t)ar->source * 31u) ^ ((uintptr_t)ar->currentline * 2654435761u);
  uint8_t *c = &lua_edges[(loc ^ prev_loc) & (EDGES - 1)];
  if (*c != 255) (*c)++;
  prev_loc = loc >> 1;
}

static int boot(lua_State *l) {
  const char *target = lua_tostring(l, 1);
  luaL_openlibs(l);
  luaL_getsubtable(l, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(l, luaopen_lpeg);
  lua_setfield(l, -2, "lpeg");
  lua_pushcfunction(l, luaopen_keel);
  lua_setfield(l, -2, "keel");
  lua_pop(l, 1);
  luaL_requiref(l, "keel", luaopen_keel, 0);   /* sets package.path */
  lua_pop(l, 1);
  /* tests/fuzz/?.lua: the targets */
  lua_getglobal(l, "package");
  lua_getfield(l, -1, "path");
  lua_pushfstring(l, "%s/?.lua;%s", KEEL_FUZZ_DIR, lua_tostring(l, -1));
  lua_setfield(l, -3, "path");
  lua_pop(l, 2);
  lua_getglobal(l, "require");
  lua_pushliteral(l, "targets");
  lua_call(l, 1, 1);
  lua_getfield(l, -1, target);
  if (!lua_isfunction(l, -1)) return luaL_error(l, "no fuzz target '%s' in tests/fuzz/targets.lua", target);
  return 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  const char *target = getenv("KEEL_FUZZ_TARGET");
  if (target == NULL) { fputs("keel fuzz: set KEEL_FUZZ_TARGET (a function of tests/fuzz/targets.lua: bindings, journal, lab, map, save, scenario, serve, tables)\n", stderr); exit(2); }
  L = luaL_newstate();
  if (L == NULL) { fputs("keel fuzz: out of memory\n", stderr); exit(2); }
  lua_pushcfunction(L, boot);
  lua_pushstring(L, target);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    fprintf(stderr, "keel fuzz: %s\n", lua_tostring(L, -1));
    exit(2);
  }
  target_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_sethook(L, line_hook, LUA_MASKLINE, 0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static unsigned runs;
  prev_loc = 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, target_ref);
  lua_pushlstring(L, (const char *)data, size);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "keel fuzz: %s: %s\n", getenv("KEEL_FUZZ_TARGET"), msg ? msg : "(error object)");
    abort();
  }
  if (++runs % 256 == 0) lua_gc(L, LUA_GCCOLLECT);
  return 0;
}
