/*
 * main.c — the `keel` command line tool: a Lua state with the standard
 * libraries, LPeg and keel preloaded, which hands argv to scripts/keel/cli.lua.
 * Every command lives in Lua (keel.cli); this file only boots the state and
 * turns the result into an exit status. It also gives the state its memory
 * (small blocks from free lists: below).
 */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <lua-lpeg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int luaopen_keel(lua_State *L);

/* ---- the Lua state's memory ------------------------------------------------
 * Lua makes and drops small objects by the thousand in a game (tables,
 * closures, strings): blocks of up to 256 bytes come from free lists, one
 * per 16-byte size class, carved from 64 KiB chunks (a freed block goes
 * back to its list; the chunks go at exit), bigger ones from malloc. Lua
 * always tells the size of a block it frees or resizes, so blocks carry no
 * header. Sanitizer builds take every block from malloc (they watch each). */
#if defined(__SANITIZE_ADDRESS__)
#define POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL 0
#endif
#endif
#ifndef POOL
#define POOL 1
#endif

#define POOL_MAX 256
#define POOL_STEP 16
#define POOL_CHUNK ((size_t)64 << 10)

typedef struct block { struct block *next; } block;
static block *free_list[POOL_MAX / POOL_STEP];
static char *chunk_at, *chunk_end;
static block *chunks;   /* every chunk, linked through its first block, freed at exit */

/* a block of size class c ((c + 1) * 16 bytes), or NULL */
static void *pool_get(size_t c) {
  block *b = free_list[c];
  if (b) { free_list[c] = b->next; return b; }
  size_t size = (c + 1) * POOL_STEP;
  if (chunk_at == NULL || (size_t)(chunk_end - chunk_at) < size) {
    char *chunk = malloc(POOL_CHUNK);
    if (!chunk) return NULL;
    ((block *)chunk)->next = chunks;
    chunks = (block *)chunk;
    chunk_at = chunk + POOL_STEP;
    chunk_end = chunk + POOL_CHUNK;
  }
  void *p = chunk_at;
  chunk_at += size;
  return p;
}

static void pool_put(void *p, size_t size) {
  block *b = p;
  size_t c = (size - 1) / POOL_STEP;
  b->next = free_list[c];
  free_list[c] = b;
}

/* the lua_Alloc of keel's Lua state */
static void *state_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (!POOL) {
    if (nsize == 0) { free(ptr); return NULL; }
    return realloc(ptr, nsize);
  }
  if (ptr == NULL) osize = 0;   /* osize is then the kind of object made */
  if (nsize == 0) {
    if (ptr) { if (osize <= POOL_MAX) pool_put(ptr, osize); else free(ptr); }
    return NULL;
  }
  if (ptr && osize > POOL_MAX && nsize > POOL_MAX) return realloc(ptr, nsize);
  if (ptr && osize <= POOL_MAX && nsize <= POOL_MAX && (osize - 1) / POOL_STEP == (nsize - 1) / POOL_STEP)
    return ptr;   /* the same size class */
  void *q = nsize <= POOL_MAX ? pool_get((nsize - 1) / POOL_STEP) : malloc(nsize);
  if (q == NULL) return NULL;
  if (ptr) {
    memcpy(q, ptr, osize < nsize ? osize : nsize);
    if (osize <= POOL_MAX) pool_put(ptr, osize); else free(ptr);
  }
  return q;
}

static void pool_free(void) {
  while (chunks) { block *next = chunks->next; free(chunks); chunks = next; }
  chunk_at = chunk_end = NULL;
  memset(free_list, 0, sizeof free_list);
}

/* What luaL_newstate adds to a state, for ours: a panic that says why, and
 * warnings that are off until "@on" (and off again at "@off"). */

/* the panic function: the error at the top, said  [-0, +0, m] */
static int panic(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "keel: PANIC: unprotected error in call to Lua API (%s)\n",
          msg ? msg : "error object is not a string");
  return 0;   /* Lua aborts */
}

static void warn_off(void *ud, const char *msg, int tocont);
static void warn_on(void *ud, const char *msg, int tocont);

/* "@on" / "@off" (a one-piece message starting with '@'): 1, else 0 */
static int warn_control(lua_State *L, const char *msg, int tocont) {
  if (tocont || msg[0] != '@') return 0;
  if (strcmp(msg + 1, "off") == 0) lua_setwarnf(L, warn_off, L);
  else if (strcmp(msg + 1, "on") == 0) lua_setwarnf(L, warn_on, L);
  return 1;
}

static void warn_off(void *ud, const char *msg, int tocont) { warn_control(ud, msg, tocont); }

/* the rest of a message in pieces */
static void warn_more(void *ud, const char *msg, int tocont) {
  fputs(msg, stderr);
  if (tocont) { lua_setwarnf(ud, warn_more, ud); return; }
  fputs("\n", stderr);
  fflush(stderr);
  lua_setwarnf(ud, warn_on, ud);
}

static void warn_on(void *ud, const char *msg, int tocont) {
  if (warn_control(ud, msg, tocont)) return;
  fputs("Lua warning: ", stderr);
  warn_more(ud, msg, tocont);
}

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
  lua_State *L = lua_newstate(state_alloc, NULL);
  if (L == NULL) { fputs("keel: cannot create a Lua state: out of memory\n", stderr); return 1; }
  lua_atpanic(L, panic);
  lua_setwarnf(L, warn_off, L);
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
  pool_free();
  return status;
}
