/*
 * l_sandbox.c — keel.sandbox: limits on what one action of a script may
 * spend, and Lua states of their own for games.
 *
 *   keel.sandbox.limits{cpu=, budget=, memory=, string=, pattern_steps=}
 *   keel.sandbox.protect(fn, ...)          run fn as one action under them
 *   keel.sandbox.xprotect(fn, handler, ...)
 *   keel.sandbox.usage()                   memory and instructions used
 *   keel.sandbox.trust(prefix)             kernel code that may finish
 *                                          unwinding after a stop
 *   keel.sandbox.pcall(fn, ...)            pcall counting in catching[1]
 *   keel.sandbox.coroutine                 resume/wrap that follow the
 *                                          running thread (for the hook)
 *   keel.sandbox.new{...} -> Sandbox       a child state with its own memory
 *                                          limit: sb:call, sb:eval, sb:reset
 *
 * The CPU limit is a watchdog (kernel/sandbox.c): nothing runs per
 * instruction while an action is within it. When it passes, the signal
 * handler installs a count hook on the running thread; the hook raises on
 * every instruction of script code until the action has unwound, so a
 * script's own pcall cannot swallow the stop (after Redis's script_lua.c).
 * The instruction budget is a count hook that adds up instructions, for
 * replay checks that must stop at the same place on every machine. A memory
 * refusal that survives Lua's emergency collection stops the action the
 * same way; the owner of a child state then discards and rebuilds it.
 */
#include "l_sandbox.h"
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

int luaopen_keel(lua_State *L);
/* kernel/l_state.c */
keel_state *keel_lua_state_take(lua_State *L, int idx);
void keel_lua_state_push_borrowed(lua_State *L, keel_state *st);

#define GUARD_MT "keel.Guard"
#define SANDBOX_MT "keel.Sandbox"
#define TRUST_MAX 4

#define KEEP_MAX 8

/* The guard and what only this file needs: trusted source prefixes, and the
 * game states kept across a rebuild of the Lua state (keel.sandbox.keep). */
typedef struct {
  keel_guard guard;
  char trusted[TRUST_MAX][256];
  int ntrusted;
  struct { char name[32]; keel_state *st; } kept[KEEP_MAX];
} full_guard;

static void free_kept(full_guard *fb) {
  for (int i = 0; i < KEEP_MAX; i++) {
    if (fb->kept[i].st) keel_state_free(fb->kept[i].st);
    fb->kept[i].st = NULL;
    fb->kept[i].name[0] = '\0';
  }
}

static keel_guard **extra(lua_State *L) { return (keel_guard **)lua_getextraspace(L); }

static void guard_init(full_guard *fb) {
  memset(fb, 0, sizeof *fb);
  keel_guard *b = &fb->guard;
  b->string_max = (size_t)8 << 20;
  b->pattern_steps = 1000000;
  b->pattern_per_byte = 64;
  b->hook_count = 1000;
}

static void guard_attach(lua_State *L, keel_guard *b) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  b->main = lua_tothread(L, -1);
  lua_pop(L, 1);
  b->current = b->main;
  *extra(b->main) = b;
  if (L != b->main) *extra(L) = b;
}

/* __gc of the guard block  [-1, +0, e] */
static int guard_gc(lua_State *L) {
  full_guard *fb = luaL_checkudata(L, 1, GUARD_MT);
  keel_watchdog_free(fb->guard.wd);
  fb->guard.wd = NULL;
  free_kept(fb);
  return 0;
}

keel_guard *keel_lua_sandbox_guard(lua_State *L) {
  int t = lua_getfield(L, LUA_REGISTRYINDEX, KEEL_SANDBOX_REGKEY);
  if (t == LUA_TLIGHTUSERDATA || t == LUA_TUSERDATA) {
    keel_guard *b = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (*extra(L) == NULL) *extra(L) = b;
    return b;
  }
  lua_pop(L, 1);
  static const keel_lua_class guard_class = { .name = GUARD_MT, .gc = guard_gc };
  keel_lua_newclass(L, &guard_class, 0);
  full_guard *fb = keel_lua_newobject(L, sizeof *fb, 0, GUARD_MT);
  guard_init(fb);
  lua_setfield(L, LUA_REGISTRYINDEX, KEEL_SANDBOX_REGKEY);
  guard_attach(L, &fb->guard);
  return &fb->guard;
}

/* ---- stopping ------------------------------------------------------------- */

static void hook(lua_State *L, lua_Debug *ar);

static const char *stop_text(lua_State *L, const keel_guard *b) {
  switch (b->stop) {
    case KEEL_STOP_CPU:
      return lua_pushfstring(L, "CPU limit exceeded: the action ran longer than %f s", b->cpu);
    case KEEL_STOP_BUDGET:
      return lua_pushfstring(L, "instruction budget exceeded: the action ran over %I instructions",
                             (LUAI_UACINT)b->budget);
    case KEEL_STOP_MEMORY:
      return lua_pushfstring(L, "memory limit exceeded: the game's scripts may use %I bytes",
                             (LUAI_UACINT)b->mem.limit);
    default:
      return lua_pushliteral(L, "stopped");
  }
}

static int is_trusted(lua_State *L, lua_Debug *ar, const keel_guard *b);

/* The position in the script, as "file:line: ", into buf: the innermost
 * Lua function on the stack that is not kernel code (keel.sandbox.trust),
 * else the innermost Lua function. */
static void record_where(lua_State *L, keel_guard *b, char *buf, size_t size) {
  lua_Debug ar;
  buf[0] = '\0';
  for (int level = 0; level < 16 && lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    if (buf[0] == '\0') snprintf(buf, size, "%s:%d: ", ar.short_src, ar.currentline);
    if (!is_trusted(L, &ar, b)) {
      snprintf(buf, size, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
}

int keel_lua_sandbox_raise_stop(lua_State *L, keel_guard *b) {
  lua_sethook(L, hook, LUA_MASKCOUNT, 1);
  if (b->where[0] == '\0') record_where(L, b, b->where, sizeof b->where);
  lua_pushstring(L, b->where);
  stop_text(L, b);
  lua_concat(L, 2);
  return lua_error(L);
}

static int is_trusted(lua_State *L, lua_Debug *ar, const keel_guard *b) {
  const full_guard *fb = (const full_guard *)b;
  if (fb->ntrusted == 0 || !lua_getinfo(L, "S", ar)) return 0;
  for (int i = 0; i < fb->ntrusted; i++)
    if (strncmp(ar->source, fb->trusted[i], strlen(fb->trusted[i])) == 0) return 1;
  return 0;
}

static keel_guard *guard_of_thread(lua_State *L) {
  keel_guard *b = *extra(L);
  if (b) return b;
  if (lua_getfield(L, LUA_REGISTRYINDEX, KEEL_SANDBOX_REGKEY) != LUA_TNIL)
    b = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return b;
}

static void hook(lua_State *L, lua_Debug *ar) {
  keel_guard *b = guard_of_thread(L);
  if (b == NULL) { lua_sethook(L, NULL, 0, 0); return; }
  if (b->stop) {
    if (b->depth > 0 && is_trusted(L, ar, b)) return;   /* kernel code unwinds */
    keel_lua_sandbox_raise_stop(L, b);
    return;
  }
  if (b->depth > 0 && b->budget > 0) {
    b->used += lua_gethookcount(L);
    if (b->used >= b->budget) {
      b->stop = KEEL_STOP_BUDGET;
      if (!is_trusted(L, ar, b)) keel_lua_sandbox_raise_stop(L, b);
      else lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    }
    return;
  }
  lua_sethook(L, NULL, 0, 0);   /* left from an earlier action */
}

/* The watchdog's callback: runs in a signal handler. */
static void fire(void *ud) {
  keel_guard *b = ud;
  if (b->depth == 0) return;
  b->stop = KEEL_STOP_CPU;
  lua_State *cur = b->current;
  if (cur) lua_sethook(cur, hook, LUA_MASKCOUNT, 1);
  if (b->main && b->main != cur) lua_sethook(b->main, hook, LUA_MASKCOUNT, 1);
}

/* Memory ran out: the action stops as it does at its CPU limit (no pcall
 * can swallow it), and the owner rebuilds the state after the call. */
static void out_of_memory(keel_guard *b) {
  b->oom = 1;
  b->oom_seen = 1;
  b->refused_ptr = NULL;
  b->refused_size = 0;
  if (b->depth > 0 && b->stop == KEEL_STOP_NONE) {
    if (b->where[0] == '\0') memcpy(b->where, b->refused_where, sizeof b->where);
    b->stop = KEEL_STOP_MEMORY;
    if (b->current) lua_sethook(b->current, hook, LUA_MASKCOUNT, 1);
  }
}

/* The allocator of child states. A refused request stays pending until
 * Lua retries it after its emergency collection: cured if the retry
 * succeeds, out of memory if it is refused again. A caller that asks once
 * and gives up (luaL_Buffer, LPeg: they raise "not enough memory", which a
 * pcall could catch) shows it by asking for something else next, or by
 * ending the action: out of memory too. */
static void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  keel_guard *b = ud;
  size_t old = ptr ? osize : 0;
  int retry = b->refused_size != 0 && ptr == b->refused_ptr && nsize == b->refused_size;
  if (b->refused_size != 0 && nsize > old && !retry) out_of_memory(b);
  void *q = keel_sandbox_alloc(&b->mem, ptr, osize, nsize);
  if (q == NULL && nsize > 0) {
    if (retry) {
      out_of_memory(b);
    } else {
      b->refused_ptr = ptr;
      b->refused_size = nsize;
      b->refused_where[0] = '\0';
      if (b->depth > 0 && b->current) record_where(b->current, b, b->refused_where, sizeof b->refused_where);
    }
  } else if (nsize > old) {
    b->refused_size = 0;
    b->refused_ptr = NULL;
  }
  return q;
}

/* ---- actions -------------------------------------------------------------- */

static keel_guard *upguard(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static void begin_action(lua_State *L, keel_guard *b) {
  b->stop = KEEL_STOP_NONE;
  b->used = 0;
  b->oom = 0;
  b->refused_ptr = NULL;
  b->refused_size = 0;
  b->closing = 0;
  b->where[0] = '\0';
  b->current = L;
  b->stack_base = (uintptr_t)__builtin_frame_address(0);
  if (b->cpu > 0) {
    if (b->wd == NULL) {
      keel_status st = keel_watchdog_new(fire, b, &b->wd);
      if (st != KEEL_OK) keel_lua_fail(L, st, "cannot start the CPU watchdog");
    }
    keel_status st = keel_watchdog_start(b->wd, (uint64_t)(b->cpu * 1e9));
    if (st != KEEL_OK) keel_lua_fail(L, st, "cannot start the CPU watchdog");
  }
  if (b->budget > 0) {
    int count = b->budget < b->hook_count ? (int)b->budget : b->hook_count;
    lua_sethook(L, hook, LUA_MASKCOUNT, count);
  }
}

/* Returns the stop kind of the action that ended. */
static int end_action(lua_State *L, keel_guard *b, lua_State *outer_current) {
  if (b->wd) keel_watchdog_stop(b->wd);
  int stop = b->stop;
  b->stop = KEEL_STOP_NONE;
  if (lua_gethook(L) == hook) lua_sethook(L, NULL, 0, 0);
  if (b->main != L && lua_gethook(b->main) == hook) lua_sethook(b->main, NULL, 0, 0);
  b->current = outer_current;
  if (b->refused_size != 0) out_of_memory(b);   /* a refusal its caller gave up */
  if (stop == KEEL_STOP_NONE && b->oom) stop = KEEL_STOP_MEMORY;
  if (stop == KEEL_STOP_MEMORY && b->where[0] == '\0') memcpy(b->where, b->refused_where, sizeof b->where);
  return stop;
}

static const char *const kind_names[] = { NULL, "cpu", "budget", "memory" };

/* The handler of xprotect runs without the stop, so that it can look at the
 * stack; the stop comes back before the error goes on unwinding.  [-?, +1, m] */
static int call_handler(lua_State *L) {
  keel_guard *b = upguard(L);
  sig_atomic_t saved = b->stop;
  int had_budget = lua_gethook(L) == hook;
  b->stop = KEEL_STOP_NONE;
  lua_sethook(L, NULL, 0, 0);
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_insert(L, 1);
  int st = lua_pcall(L, lua_gettop(L) - 1, 1, 0);
  (void)st;   /* the handler's own error becomes the error value */
  if (saved != KEEL_STOP_NONE) b->stop = saved;   /* else keep a stop the handler met (memory) */
  if (saved || had_budget) lua_sethook(L, hook, LUA_MASKCOUNT, saved ? 1 : b->hook_count);
  return 1;
}

/* The handler at index `handler` wrapped by call_handler, made once per
 * handler: kept in a table of the registry with weak keys (a rule set's
 * handler is the same for every action it runs; a closure per action was
 * garbage for the collector)  [-0, +0, m] */
static void wrap_handler(lua_State *L, keel_guard *b, int handler) {
  keel_lua_weaktable(L, "keel.sandbox.wrapped");
  lua_pushvalue(L, handler);
  if (lua_rawget(L, -2) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushlightuserdata(L, b);
    lua_pushvalue(L, handler);
    lua_pushcclosure(L, call_handler, 2);
    lua_pushvalue(L, handler);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_replace(L, handler);
  lua_pop(L, 1);
}

static int protect_aux(lua_State *L, int first, int handler) {
  keel_guard *b = upguard(L);
  int nargs = lua_gettop(L) - first;
  int outer = b->depth == 0;
  lua_State *saved_current = b->current;
  if (handler) wrap_handler(L, b, handler);
  if (outer) begin_action(L, b);
  b->depth++;
  int st = lua_pcall(L, nargs, LUA_MULTRET, handler);
  b->depth--;
  int stop;
  if (outer) {
    stop = end_action(L, b, saved_current);
  } else {
    stop = b->stop;
    if (stop == KEEL_STOP_NONE && st == LUA_ERRMEM) stop = KEEL_STOP_MEMORY;
  }
  if (st == LUA_OK && stop == KEEL_STOP_NONE) {
    lua_pushboolean(L, 1);
    lua_insert(L, first);
    return lua_gettop(L) - first + 1;
  }
  if (stop == KEEL_STOP_NONE && st == LUA_ERRMEM) stop = KEEL_STOP_MEMORY;
  lua_pushboolean(L, 0);
  if (st == LUA_OK || (stop == KEEL_STOP_MEMORY && lua_type(L, -2) != LUA_TTABLE)) {
    /* swallowed then returned, or Lua's bare "not enough memory": say why */
    lua_pushstring(L, b->where);
    int saved = b->stop;
    b->stop = stop;
    stop_text(L, b);
    b->stop = saved;
    lua_concat(L, 2);
  } else {
    lua_pushvalue(L, -2);
  }
  if (stop != KEEL_STOP_NONE) lua_pushstring(L, kind_names[stop]);
  else lua_pushliteral(L, "error");
  return 3;
}

/* keel.sandbox.protect(fn, ...) -> true, ... | false, err, kind  [-(n+1), +?, e] */
static int l_protect(lua_State *L) {
  luaL_checkany(L, 1);
  return protect_aux(L, 1, 0);
}

/* keel.sandbox.xprotect(fn, handler, ...) -> true, ... | false, err, kind  [-(n+2), +?, e] */
static int l_xprotect(lua_State *L) {
  luaL_checkany(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  lua_copy(L, 2, 1);
  lua_replace(L, 2);   /* handler, fn, args... */
  return protect_aux(L, 2, 1);
}

/* keel.sandbox.stopping() -> kind | nil  [-0, +1, m] */
static int l_stopping(lua_State *L) {
  keel_guard *b = upguard(L);
  if (b->stop == KEEL_STOP_NONE) lua_pushnil(L);
  else lua_pushstring(L, kind_names[b->stop]);
  return 1;
}

/* keel.sandbox.stop_message() -> message | nil: while the running action is
 * stopping (its CPU limit, budget or memory: also a refused allocation its
 * caller gave up, which no pcall may swallow), the text of that stop,
 * "file:line: memory limit exceeded: ..."; nil otherwise  [-0, +1, e] */
static int l_stop_message(lua_State *L) {
  keel_guard *b = upguard(L);
  int kind = b->stop;
  if (kind == KEEL_STOP_NONE && (b->oom || b->refused_size != 0)) kind = KEEL_STOP_MEMORY;
  if (b->depth == 0 || kind == KEEL_STOP_NONE) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushstring(L, b->where[0] || kind != KEEL_STOP_MEMORY ? b->where : b->refused_where);
  sig_atomic_t saved = b->stop;
  b->stop = kind;
  stop_text(L, b);
  b->stop = saved;
  lua_concat(L, 2);
  return 1;
}

/* ---- limits ------------------------------------------------------------------ */

static void push_limits(lua_State *L, const keel_guard *b) {
  lua_createtable(L, 0, 6);
  lua_pushnumber(L, b->cpu);
  lua_setfield(L, -2, "cpu");
  lua_pushinteger(L, b->budget);
  lua_setfield(L, -2, "budget");
  if (b->owns_alloc) {
    lua_pushinteger(L, (lua_Integer)b->mem.limit);
    lua_setfield(L, -2, "memory");
  }
  lua_pushinteger(L, (lua_Integer)b->string_max);
  lua_setfield(L, -2, "string");
  lua_pushinteger(L, b->pattern_steps);
  lua_setfield(L, -2, "pattern_steps");
  lua_pushinteger(L, b->pattern_per_byte);
  lua_setfield(L, -2, "pattern_per_byte");
}

static lua_Integer opt_count(lua_State *L, int t, const char *k, lua_Integer def) {
  int tt = lua_getfield(L, t, k);
  lua_Integer v = def;
  if (tt == LUA_TBOOLEAN && !lua_toboolean(L, -1)) v = 0;
  else if (tt != LUA_TNIL) {
    int ok = 0;
    v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < 0) luaL_error(L, "bad limit '%s' (a whole number >= 0 expected)", k);
  }
  lua_pop(L, 1);
  return v;
}

static void set_limits(lua_State *L, keel_guard *b, int t) {
  if (b->depth > 0) luaL_error(L, "sandbox limits cannot change during an action");
  int tt = lua_getfield(L, t, "cpu");
  if (tt == LUA_TBOOLEAN && !lua_toboolean(L, -1)) b->cpu = 0;
  else if (tt != LUA_TNIL) {
    int ok = 0;
    lua_Number v = lua_tonumberx(L, -1, &ok);
    if (!ok || !(v >= 0) || v > 1e6) luaL_error(L, "bad limit 'cpu' (seconds >= 0 expected)");
    b->cpu = v;
  }
  lua_pop(L, 1);
  b->budget = opt_count(L, t, "budget", b->budget);
  lua_Integer mem = opt_count(L, t, "memory", -1);
  if (mem >= 0) {
    if (!b->owns_alloc && mem > 0)
      luaL_error(L, "a memory limit needs a state made by keel.sandbox.new");
    b->mem.limit = (size_t)mem;
  }
  lua_Integer s = opt_count(L, t, "string", (lua_Integer)b->string_max);
  if (s == 0) luaL_error(L, "bad limit 'string' (at least 1 byte)");
  b->string_max = (size_t)s;
  b->pattern_steps = opt_count(L, t, "pattern_steps", b->pattern_steps);
  b->pattern_per_byte = opt_count(L, t, "pattern_per_byte", b->pattern_per_byte);
}

/* keel.sandbox.limits([t]) -> the limits before  [-1, +1, e] */
static int l_limits(lua_State *L) {
  keel_guard *b = upguard(L);
  push_limits(L, b);
  if (!lua_isnoneornil(L, 1)) {
    luaL_checktype(L, 1, LUA_TTABLE);
    set_limits(L, b, 1);
  }
  return 1;
}

static void push_usage(lua_State *L, const keel_guard *b) {
  lua_createtable(L, 0, 5);
  if (b->owns_alloc) {
    lua_pushinteger(L, (lua_Integer)b->mem.used);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)b->mem.peak);
    lua_setfield(L, -2, "memory_peak");
    lua_pushinteger(L, (lua_Integer)b->mem.refusals);
    lua_setfield(L, -2, "memory_refusals");
  } else {
    lua_pushinteger(L, (lua_Integer)lua_gc(L, LUA_GCCOUNT, 0) * 1024);
    lua_setfield(L, -2, "memory");
  }
  lua_pushinteger(L, b->used);
  lua_setfield(L, -2, "instructions");
  lua_pushboolean(L, b->owns_alloc);
  lua_setfield(L, -2, "own_state");
}

/* keel.sandbox.usage() -> {memory=, memory_peak=, instructions=, ...}  [-0, +1, e] */
static int l_usage(lua_State *L) {
  push_usage(L, upguard(L));
  return 1;
}

/* keel.sandbox.trust(prefix) -> nothing: code whose chunk name starts with
 * prefix may run to the end of its cleanup after a stop  [-1, +0, e] */
static int l_trust(lua_State *L) {
  full_guard *fb = (full_guard *)upguard(L);
  size_t n;
  const char *p = luaL_checklstring(L, 1, &n);
  luaL_argcheck(L, n > 1 && n < sizeof fb->trusted[0], 1, "a chunk-name prefix expected");
  for (int i = 0; i < fb->ntrusted; i++)
    if (strcmp(fb->trusted[i], p) == 0) return 0;
  if (fb->ntrusted == TRUST_MAX) return luaL_error(L, "too many trusted prefixes");
  memcpy(fb->trusted[fb->ntrusted++], p, n + 1);
  return 0;
}

/* keel.sandbox.keep(name, state) -> nothing: the game state (a keel.State)
 * now belongs to the sandbox and outlives this Lua state; the State goes on
 * using it  [-2, +0, e] */
static int l_keep(lua_State *L) {
  full_guard *fb = (full_guard *)upguard(L);
  size_t n;
  const char *name = luaL_checklstring(L, 1, &n);
  luaL_argcheck(L, n > 0 && n < sizeof fb->kept[0].name, 1, "a short name expected");
  int slot = -1;
  for (int i = 0; i < KEEP_MAX; i++) {
    if (fb->kept[i].st && strcmp(fb->kept[i].name, name) == 0)
      return luaL_error(L, "keep: a state named '%s' is kept already", name);
    if (!fb->kept[i].st && slot < 0) slot = i;
  }
  if (slot < 0) return luaL_error(L, "keep: at most %d states", KEEP_MAX);
  keel_state *st = keel_lua_state_take(L, 2);
  if (!st) return luaL_argerror(L, 2, "an open keel.State that is not kept already");
  fb->kept[slot].st = st;
  memcpy(fb->kept[slot].name, name, n + 1);
  return 0;
}

/* keel.sandbox.kept(name) -> State | nil: a kept game state, for a Lua
 * state rebuilt after running out of memory  [-1, +1, e] */
static int l_kept(lua_State *L) {
  full_guard *fb = (full_guard *)upguard(L);
  const char *name = luaL_checkstring(L, 1);
  for (int i = 0; i < KEEP_MAX; i++) {
    if (fb->kept[i].st && strcmp(fb->kept[i].name, name) == 0) {
      keel_lua_state_push_borrowed(L, fb->kept[i].st);
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

/* ---- coroutines that keep track of the running thread ------------------ */

/* Resume co with narg values from L; the results (or the error, returned
 * as -1) end on L's top. */
static int resume_tracked(lua_State *L, keel_guard *b, lua_State *co, int narg) {
  if (b->stop) keel_lua_sandbox_raise_stop(L, b);
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
    lua_pushliteral(L, "cannot resume dead coroutine");
    return -1;
  }
  if (b->depth > 0 && b->budget > 0 && lua_gethook(co) != hook)
    lua_sethook(co, hook, LUA_MASKCOUNT, b->hook_count);
  lua_xmove(L, co, narg);
  lua_State *prev = b->current;
  b->current = co;
  int nres = 0;
  int st = lua_resume(co, L, narg, &nres);
  b->current = prev;
  if (b->stop) {
    if (st == LUA_OK || st == LUA_YIELD) lua_pop(co, nres);
    keel_lua_sandbox_raise_stop(L, b);
  }
  if (st == LUA_OK || st == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1);
  return -1;
}

/* Closing a coroutine runs its __close handlers on the C stack of the
 * closer, and Lua 5.4.4 does not count those calls against its C-call
 * limit (lua_resetthread starts from the coroutine's own count), so a
 * chain of coroutines each closing the next from a __close overflows the C
 * stack. The nesting is bounded twice: by count (the same everywhere), and
 * by the C stack used since the action began (a chain padded with other
 * nested calls between the closes). */
#define CLOSE_NEST_MAX 100
#define CLOSE_STACK_MAX ((uintptr_t)1 << 20)

static int close_too_deep(const keel_guard *b) {
  if (b->closing >= CLOSE_NEST_MAX) return 1;
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  return b->depth > 0 && b->stack_base > here && b->stack_base - here > CLOSE_STACK_MAX;
}

/* Close a coroutine's to-be-closed variables: their __close runs in co. */
static int reset_tracked(lua_State *L, keel_guard *b, lua_State *co) {
  if (close_too_deep(b))
    return luaL_error(L, "coroutine.close: coroutines closed from __close nested too deep (C stack overflow)");
  lua_State *prev = b->current;
  b->current = co;
  if (b->stop) lua_sethook(co, hook, LUA_MASKCOUNT, 1);
  else if (b->depth > 0 && b->budget > 0) lua_sethook(co, hook, LUA_MASKCOUNT, b->hook_count);
  b->closing++;
  int st = lua_resetthread(co);
  b->closing--;
  b->current = prev;
  return st;
}

/* coroutine.close(co) -> true | false, err  [-1, +?, e] */
static int co_close(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  keel_guard *b = upguard(L);
  int st = lua_status(co);
  if (co == L || (st == LUA_OK && lua_getstack(co, 0, &(lua_Debug){0})))
    return luaL_error(L, "cannot close a %s coroutine", co == L ? "running" : "normal");
  st = reset_tracked(L, b, co);   /* dead with an error: gives that error */
  if (b->stop) keel_lua_sandbox_raise_stop(L, b);
  if (st == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_xmove(co, L, 1);
  return 2;
}

/* coroutine.resume(co, ...) -> true, ... | false, err  [-(n+1), +?, e] */
static int co_resume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  int r = resume_tracked(L, upguard(L), co, lua_gettop(L) - 1);
  if (r < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

/* a coroutine.wrap function: resumes its coroutine with its arguments  [-?, +?, e] */
static int co_wrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(2));
  int r = resume_tracked(L, upguard(L), co, lua_gettop(L));
  if (r >= 0) return r;
  int st = lua_status(co);
  if (st != LUA_OK && st != LUA_YIELD) {   /* an error in the coroutine */
    st = reset_tracked(L, upguard(L), co);   /* close its to-be-closed variables */
    lua_xmove(co, L, 1);
  }
  if (st != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* coroutine.wrap(fn) -> function  [-1, +1, e] */
static int co_wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, co_wrapped, 2);
  return 1;
}

/* Push a coroutine library whose resume and wrap track the running thread. */
static void push_coroutine_lib(lua_State *L, keel_guard *b) {
  lua_newtable(L);
  luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 0);
  static const char *const keep[] = {
    "create", "yield", "status", "running", "isyieldable", NULL
  };
  for (int i = 0; keep[i]; i++) {
    lua_getfield(L, -1, keep[i]);
    lua_setfield(L, -3, keep[i]);
  }
  lua_pop(L, 1);
  lua_pushlightuserdata(L, b);
  lua_pushcclosure(L, co_resume, 1);
  lua_setfield(L, -2, "resume");
  lua_pushlightuserdata(L, b);
  lua_pushcclosure(L, co_wrap, 1);
  lua_setfield(L, -2, "wrap");
  lua_pushlightuserdata(L, b);
  lua_pushcclosure(L, co_close, 1);
  lua_setfield(L, -2, "close");
}

/* ---- a pcall for scripts that counts the script pcalls running ------------ */

/* catching[1] += d, catching the table at upvalue 1 */
static void count_catching(lua_State *L, lua_Integer d) {
  lua_rawgeti(L, lua_upvalueindex(1), 1);
  lua_Integer n = lua_tointeger(L, -1) + d;
  lua_pop(L, 1);
  lua_pushinteger(L, n);
  lua_rawseti(L, lua_upvalueindex(1), 1);
}

/* what pcall returns (as Lua's own), its count taken back  [-0, +?, -] */
static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
  count_catching(L, -1);
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

/* keel.sandbox.pcall(f, ...) -> true, ... | false, err: Lua's pcall (a C
 * function like it: the caller's frame stays on the stack, also in tail
 * position), counting in keel.sandbox.catching[1] the pcalls running
 * (keel.rules runs a query unprotected only where no script can catch
 * its error)  [-(n+1), +?, e] */
static int l_script_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  count_catching(L, 1);
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
  return finish_pcall(L, status, 0);
}

/* ---- child states ---------------------------------------------------------- */

typedef struct sandbox {
  full_guard *guard;          /* malloc'd: the child's allocator uses it */
  lua_State *C;
  lua_Integer rebuilds;
  char *path, *cpath;     /* the host's package paths */
  lua_CFunction lpeg;     /* the host's preloaded LPeg, if any */
} sandbox;

static sandbox *check_sandbox(lua_State *L, int arg) {
  sandbox *sb = luaL_checkudata(L, arg, SANDBOX_MT);
  if (sb->guard == NULL) luaL_error(L, "the sandbox is closed");
  return sb;
}

/* Runs in the child: open the libraries, LPeg and keel; lock strings;
 * replace coroutine.resume/wrap by the tracking ones. */
static int child_boot(lua_State *C) {
  sandbox *sb = lua_touserdata(C, 1);
  luaL_openlibs(C);
  luaL_getsubtable(C, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  if (sb->lpeg) {
    lua_pushcfunction(C, sb->lpeg);
    lua_setfield(C, -2, "lpeg");
  }
  lua_pushcfunction(C, luaopen_keel);
  lua_setfield(C, -2, "keel");
  lua_pop(C, 1);
  lua_getglobal(C, "package");
  if (sb->path) { lua_pushstring(C, sb->path); lua_setfield(C, -2, "path"); }
  if (sb->cpath) { lua_pushstring(C, sb->cpath); lua_setfield(C, -2, "cpath"); }
  lua_pop(C, 1);
  luaL_requiref(C, "keel", luaopen_keel, 0);
  lua_getfield(C, -1, "strlib");
  lua_getfield(C, -1, "lock");
  lua_call(C, 0, 0);
  lua_pop(C, 2);
  lua_getglobal(C, "coroutine");
  push_coroutine_lib(C, &sb->guard->guard);
  lua_getfield(C, -1, "resume");
  lua_setfield(C, -3, "resume");
  lua_getfield(C, -1, "wrap");
  lua_setfield(C, -3, "wrap");
  lua_pop(C, 2);
  return 0;
}

static void close_child(sandbox *sb) {
  if (sb->C) {
    lua_close(sb->C);
    sb->C = NULL;
  }
}

static void build_child(lua_State *L, sandbox *sb) {
  keel_guard *b = &sb->guard->guard;
  close_child(sb);
  b->refused_ptr = NULL;
  b->refused_size = 0;
  b->oom = 0;
  b->oom_seen = 0;
  b->stop = KEEL_STOP_NONE;
  b->depth = 0;
  lua_State *C = lua_newstate(guard_alloc, b);
  if (C == NULL)
    luaL_error(L, "cannot make a sandbox: its memory limit (%I bytes) is too small",
               (LUAI_UACINT)b->mem.limit);
  b->main = C;
  b->current = C;
  *extra(C) = b;
  lua_pushlightuserdata(C, b);
  lua_setfield(C, LUA_REGISTRYINDEX, KEEL_SANDBOX_REGKEY);
  lua_pushcfunction(C, child_boot);
  lua_pushlightuserdata(C, sb);
  if (lua_pcall(C, 1, 0, 0) != LUA_OK) {
    lua_pushstring(L, lua_tostring(C, -1));
    lua_close(C);
    b->main = b->current = NULL;
    if (b->mem.limit)
      luaL_error(L, "cannot make a sandbox: %s (memory limit %I bytes)", lua_tostring(L, -1),
                 (LUAI_UACINT)b->mem.limit);
    luaL_error(L, "cannot make a sandbox: %s", lua_tostring(L, -1));
  }
  sb->C = C;
}

static char *dup_field(lua_State *L, const char *k) {
  char *out = NULL;
  lua_getglobal(L, "package");
  if (lua_istable(L, -1) && lua_getfield(L, -1, k) == LUA_TSTRING) {
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    out = malloc(n + 1);
    if (out) memcpy(out, s, n + 1);
    lua_pop(L, 1);
  } else if (lua_istable(L, -1)) {
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return out;
}

/* Copy the value at from[idx] onto to's stack. Plain data only. */
static int copy_value(lua_State *from, int idx, lua_State *to, int depth, const char **why) {
  idx = lua_absindex(from, idx);
  if (!lua_checkstack(to, 3) || !lua_checkstack(from, 3)) { *why = "stack overflow"; return 0; }
  switch (lua_type(from, idx)) {
    case LUA_TNONE: case LUA_TNIL: lua_pushnil(to); return 1;
    case LUA_TBOOLEAN: lua_pushboolean(to, lua_toboolean(from, idx)); return 1;
    case LUA_TNUMBER:
      if (lua_isinteger(from, idx)) lua_pushinteger(to, lua_tointeger(from, idx));
      else lua_pushnumber(to, lua_tonumber(from, idx));
      return 1;
    case LUA_TSTRING: {
      size_t n;
      const char *s = lua_tolstring(from, idx, &n);
      lua_pushlstring(to, s, n);
      return 1;
    }
    case LUA_TTABLE: {
      if (depth > 64) { *why = "a table nested too deep (or a cycle)"; return 0; }
      lua_newtable(to);
      lua_pushnil(from);
      while (lua_next(from, idx)) {
        if (!copy_value(from, -2, to, depth + 1, why) ||
            !copy_value(from, -1, to, depth + 1, why)) {
          lua_pop(from, 2);
          return 0;
        }
        lua_rawset(to, -3);
        lua_pop(from, 1);
      }
      return 1;
    }
    default:
      *why = lua_typename(from, lua_type(from, idx));
      return 0;
  }
}

typedef struct call_args {
  lua_State *host;
  int first, n;
  const char *module, *fname;   /* module == NULL: fname is source code */
  const char *chunkname;
} call_args;

static int child_traceback(lua_State *C) {
  if (lua_type(C, 1) != LUA_TSTRING) return 1;   /* tables pass through */
  luaL_traceback(C, C, lua_tostring(C, 1), 1);
  return 1;
}

/* Runs in the child, protected: copy the arguments in, find the function,
 * call it. */
static int child_call(lua_State *C) {
  call_args *ca = lua_touserdata(C, 1);
  lua_settop(C, 0);
  if (ca->module) {
    lua_getglobal(C, "require");
    lua_pushstring(C, ca->module);
    lua_call(C, 1, 1);
    if (lua_getfield(C, -1, ca->fname) != LUA_TFUNCTION)
      return luaL_error(C, "%s.%s is not a function", ca->module, ca->fname);
    lua_remove(C, -2);
  } else if (luaL_loadbufferx(C, ca->fname, strlen(ca->fname), ca->chunkname, "t") != LUA_OK) {
    return lua_error(C);
  }
  for (int i = 0; i < ca->n; i++) {
    const char *why = NULL;
    if (!copy_value(ca->host, ca->first + i, C, 0, &why))
      return luaL_error(C, "cannot pass argument %d into the sandbox (%s)", i + 1, why);
  }
  lua_call(C, ca->n, LUA_MULTRET);
  return lua_gettop(C);
}

static int finish_call(lua_State *L, sandbox *sb, int st) {
  lua_State *C = sb->C;
  keel_guard *b = &sb->guard->guard;
  int oom = st == LUA_ERRMEM || b->oom_seen;
  int n;
  if (st == LUA_OK) {
    int top = lua_gettop(C);
    luaL_checkstack(L, top + 1, "too many results");
    lua_pushboolean(L, 1);
    for (int i = 2; i <= top; i++) {
      const char *why = NULL;
      if (!copy_value(C, i, L, 0, &why)) {
        lua_pushfstring(L, "<%s>", why);
      }
    }
    n = top;
  } else {
    lua_pushboolean(L, 0);
    const char *why = NULL;
    if (st == LUA_ERRMEM)
      lua_pushfstring(L, "memory limit exceeded: the game's scripts may use %I bytes",
                      (LUAI_UACINT)b->mem.limit);
    else if (!copy_value(C, -1, L, 0, &why))
      lua_pushfstring(L, "error object: <%s>", why);
    lua_pushstring(L, oom ? "memory" : "error");
    n = 3;
  }
  lua_settop(C, 0);
  if (oom) {   /* discard the state and build a fresh one */
    sb->rebuilds++;
    build_child(L, sb);
  }
  return n;
}

static int run_in_child(lua_State *L, sandbox *sb, call_args *ca) {
  if (sb->C == NULL) build_child(L, sb);
  lua_State *C = sb->C;
  lua_settop(C, 0);
  lua_pushcfunction(C, child_traceback);
  lua_pushcfunction(C, child_call);
  lua_pushlightuserdata(C, ca);
  int st = lua_pcall(C, 1, LUA_MULTRET, 1);
  return finish_call(L, sb, st);
}

/* sb:call(module, fname, ...) -> true, ... | false, err, kind  [-(n+3), +?, e] */
static int sb_call(lua_State *L) {
  sandbox *sb = check_sandbox(L, 1);
  call_args ca = { L, 4, lua_gettop(L) - 3, luaL_checkstring(L, 2),
                   luaL_checkstring(L, 3), NULL };
  return run_in_child(L, sb, &ca);
}

/* sb:eval(source [, chunkname], ...) -> true, ... | false, err, kind  [-(n+3), +?, e] */
static int sb_eval(lua_State *L) {
  sandbox *sb = check_sandbox(L, 1);
  const char *src = luaL_checkstring(L, 2);
  const char *name = luaL_optstring(L, 3, "=(sandbox)");
  int n = lua_gettop(L) - 3;
  call_args ca = { L, 4, n < 0 ? 0 : n, NULL, src, name };
  return run_in_child(L, sb, &ca);
}

/* sb:reset() -> nothing: a fresh child state  [-1, +0, e] */
static int sb_reset(lua_State *L) {
  sandbox *sb = check_sandbox(L, 1);
  sb->rebuilds++;
  build_child(L, sb);
  return 0;
}

/* sb:usage() -> {memory=, memory_peak=, rebuilds=, ...}  [-1, +1, e] */
static int sb_usage(lua_State *L) {
  sandbox *sb = check_sandbox(L, 1);
  push_usage(L, &sb->guard->guard);
  lua_pushinteger(L, sb->rebuilds);
  lua_setfield(L, -2, "rebuilds");
  return 1;
}

/* sb:limits([t]) -> the limits before  [-2, +1, e] */
static int sb_limits(lua_State *L) {
  sandbox *sb = check_sandbox(L, 1);
  keel_guard *b = &sb->guard->guard;
  push_limits(L, b);
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    set_limits(L, b, 2);
  }
  return 1;
}

/* sandbox:close() (also __gc and __close)  [-1, +0, e] */
static int sb_gc(lua_State *L) {
  sandbox *sb = luaL_checkudata(L, 1, SANDBOX_MT);
  close_child(sb);
  if (sb->guard) {
    keel_watchdog_free(sb->guard->guard.wd);
    free_kept(sb->guard);
    free(sb->guard);
    sb->guard = NULL;
  }
  free(sb->path);
  free(sb->cpath);
  sb->path = sb->cpath = NULL;
  return 0;
}

/* tostring(sandbox) -> "keel.Sandbox (N of M bytes)"  [-1, +1, e] */
static int sb_tostring(lua_State *L) {
  sandbox *sb = luaL_checkudata(L, 1, SANDBOX_MT);
  if (sb->guard == NULL) lua_pushliteral(L, "keel.Sandbox (closed)");
  else lua_pushfstring(L, "keel.Sandbox (%I of %I bytes)",
                       (LUAI_UACINT)sb->guard->guard.mem.used, (LUAI_UACINT)sb->guard->guard.mem.limit);
  return 1;
}

/* keel.sandbox.new{memory=, cpu=, budget=, string=, ...} -> Sandbox  [-1, +1, e] */
static int l_new(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) luaL_checktype(L, 1, LUA_TTABLE);
  else { lua_settop(L, 0); lua_newtable(L); }
  sandbox *sb = keel_lua_newobject(L, sizeof *sb, 0, SANDBOX_MT);
  sb->guard = malloc(sizeof *sb->guard);
  if (sb->guard == NULL) return luaL_error(L, "cannot make a sandbox: out of memory");
  guard_init(sb->guard);
  sb->guard->guard.owns_alloc = 1;
  sb->guard->guard.mem.limit = (size_t)64 << 20;
  set_limits(L, &sb->guard->guard, 1);
  sb->path = dup_field(L, "path");
  sb->cpath = dup_field(L, "cpath");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_getfield(L, -1, "lpeg");
  sb->lpeg = lua_tocfunction(L, -1);
  lua_pop(L, 2);
  build_child(L, sb);
  return 1;
}

/* require "keel.sandbox" -> module  [-0, +1, e] */
int keel_lua_open_sandbox(lua_State *L) {
  keel_guard *b = keel_lua_sandbox_guard(L);
  static const luaL_Reg methods[] = {
    { "call", sb_call }, { "eval", sb_eval }, { "reset", sb_reset },
    { "usage", sb_usage }, { "limits", sb_limits }, { "close", sb_gc },
    { NULL, NULL }
  };
  static const keel_lua_class cls = { .name = SANDBOX_MT, .methods = methods, .gc = sb_gc, .close = sb_gc, .tostring = sb_tostring };
  keel_lua_newclass(L, &cls, 0);
  static const luaL_Reg funcs[] = {
    { "protect", l_protect }, { "xprotect", l_xprotect }, { "limits", l_limits },
    { "usage", l_usage }, { "trust", l_trust }, { "stopping", l_stopping },
    { "stop_message", l_stop_message },
    { "keep", l_keep }, { "kept", l_kept },
    { NULL, NULL }
  };
  lua_newtable(L);
  lua_pushlightuserdata(L, b);
  luaL_setfuncs(L, funcs, 1);
  lua_pushcfunction(L, l_new);
  lua_setfield(L, -2, "new");
  push_coroutine_lib(L, b);
  lua_setfield(L, -2, "coroutine");
  lua_createtable(L, 1, 1);   /* catching: [1] script pcalls and more (keel.sandbox) */
  lua_pushinteger(L, 0);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "catching");
  lua_pushcclosure(L, l_script_pcall, 1);
  lua_setfield(L, -2, "pcall");
  return 1;
}
