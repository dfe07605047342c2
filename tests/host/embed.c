/* embed.c — a C program that embeds the whole rules engine: a Lua 5.4 state
 * of its own, keel.so opened through package.cpath (its path from
 * `pkg-config --variable=luacdir keel`), keel's scripts found beside it;
 * then the rules runtime as keel run uses it: the sandbox's limits, a
 * scenario loaded in the sandbox, its rule families and variants set up,
 * every order played, and the journal checked against the one expected.
 *
 *   cc embed.c $(pkg-config --cflags --libs lua5.4) \
 *      -DKEEL_CPATH="\"$(pkg-config --variable=luacdir keel)/?.so\"" -o embed
 *   ./embed scenarios/suez_1942.lua tests/golden/suez_1942.jsonl
 *
 * doc/embedding.md walks through it. Prints "N passed, N failed". */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KEEL_CPATH
#error "build with -DKEEL_CPATH=\"<dir of keel.so>/?.so\" (pkg-config --variable=luacdir keel)"
#endif

static int passed, failed;

static void check(int ok, const char *what) {
  if (ok) { passed++; printf("ok %s\n", what); }
  else { failed++; printf("FAIL %s\n", what); }
}

/* The whole file at path (NUL-terminated), or NULL. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *more = realloc(buf, cap *= 2);
      if (!more) { free(buf); buf = NULL; }
      buf = more;
    }
  }
  fclose(f);
  if (buf) { buf[n] = '\0'; *len = n; }
  return buf;
}

/* require(name) -> pushes the module  [-0, +1, e] */
static void require(lua_State *L, const char *name) {
  lua_getglobal(L, "require");
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
}

/* The engine at work, in one protected call: argv[1] is the scenario. */
static int play(lua_State *L) {
  const char *scenario = lua_tostring(L, 1);
  /* package.cpath: keel.so first */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "cpath");
  lua_pushfstring(L, "%s;%s", KEEL_CPATH, lua_tostring(L, -1));
  lua_setfield(L, -3, "cpath");
  lua_pop(L, 2);

  require(L, "keel");                           /* keel */
  lua_getfield(L, -1, "sandbox");               /* keel, keel.sandbox */
  lua_getfield(L, -1, "limits");
  lua_createtable(L, 0, 1);
  lua_pushinteger(L, 5);
  lua_setfield(L, -2, "cpu");                   /* every rule's action: 5 s of CPU at most */
  lua_call(L, 1, 0);
  lua_pop(L, 2);

  require(L, "keel.scenario");                  /* scenario */
  int sc = lua_gettop(L);
  lua_getfield(L, sc, "load");                  /* the file runs in the sandbox */
  lua_pushstring(L, scenario);
  lua_call(L, 1, 1);                            /* spec */
  lua_getfield(L, sc, "start");                 /* board, rule families, variants, forces */
  lua_insert(L, -2);
  lua_call(L, 1, 1);                            /* run */
  int run = lua_gettop(L);
  lua_getfield(L, run, "play_all");             /* every order, with its expectations */
  lua_pushvalue(L, run);
  lua_call(L, 1, 2);                            /* passed, failed */
  lua_getfield(L, run, "game");
  lua_getfield(L, -1, "journal_text");
  lua_insert(L, -2);
  lua_call(L, 1, 1);                            /* passed, failed, journal */
  lua_getfield(L, run, "game");
  lua_getfield(L, -1, "hash_hex");
  lua_insert(L, -2);
  lua_call(L, 1, 1);                            /* passed, failed, journal, hash */
  return 4;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: embed SCENARIO.lua EXPECTED.jsonl\n");
    return 2;
  }
  lua_State *L = luaL_newstate();
  if (!L) { fputs("embed: out of memory\n", stderr); return 1; }
  luaL_openlibs(L);
  lua_pushcfunction(L, play);
  lua_pushstring(L, argv[1]);
  if (lua_pcall(L, 1, 4, 0) != LUA_OK) {
    printf("FAIL the scenario plays: %s\n0 passed, 1 failed\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_Integer orders_ok = lua_tointeger(L, -4), orders_failed = lua_tointeger(L, -3);
  size_t len;
  const char *journal = lua_tolstring(L, -2, &len);
  printf("embed: %s: %lld order(s) as expected, %lld not; state %s\n", argv[1], (long long)orders_ok,
         (long long)orders_failed, lua_tostring(L, -1));
  check(orders_ok > 0 && orders_failed == 0, "every order of the scenario is played as it expects");
  size_t want_len = 0;
  char *want = read_file(argv[2], &want_len);
  check(want != NULL, "the expected journal can be read");
  check(want && want_len == len && memcmp(want, journal, len) == 0,
        "the journal is the expected one, byte for byte (keel run's)");
  free(want);

  /* the sandbox holds: a scenario file that reaches for io is refused */
  const char *probe =
    "local sandbox = require 'keel.sandbox'\n"
    "local env = sandbox.env {}\n"
    "local fn = assert(sandbox.load('return io.open', '=probe', env))\n"
    "return (pcall(fn))\n";
  int ok = luaL_dostring(L, probe) == LUA_OK && lua_isboolean(L, -1) && !lua_toboolean(L, -1);
  check(ok, "rule and scenario code runs in the sandbox: no io");
  lua_close(L);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
