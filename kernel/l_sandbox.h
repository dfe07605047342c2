/*
 * l_sandbox.h — the control block ("guard") a Lua state's sandbox limits live
 * in, shared by kernel/l_sandbox.c (limits, hooks, child states, coroutine
 * wrappers) and kernel/l_strlib.c (bounded string functions).
 *
 * Every Lua state that opens keel has one guard. A state made by
 * keel.sandbox.new allocates through the guard (a memory limit is possible);
 * any other state gets a guard as a userdata in its registry (CPU limit and
 * instruction budget only). The main thread's extra space points to the
 * guard, and coroutines inherit that pointer, so a hook finds it at once.
 */
#ifndef KEEL_L_SANDBOX_H
#define KEEL_L_SANDBOX_H

#include "l_util.h"
#include <signal.h>
#include <stdint.h>

enum { KEEL_STOP_NONE = 0, KEEL_STOP_CPU, KEEL_STOP_BUDGET, KEEL_STOP_MEMORY };

typedef struct keel_guard {
  keel_memlimit mem;
  int owns_alloc;                 /* the state allocates through this guard */
  keel_watchdog *wd;              /* made on first use of a CPU limit */
  lua_State *main;                /* the state's main thread */
  lua_State *volatile current;    /* the thread running the action */
  volatile sig_atomic_t stop;     /* KEEL_STOP_*: the action must unwind */
  int depth;                      /* nesting of protected actions */
  lua_Number cpu;                 /* seconds per action, 0: off */
  lua_Integer budget;             /* instructions per action, 0: off */
  lua_Integer used;               /* instructions counted in this action */
  int hook_count;                 /* instructions between budget hooks */
  size_t string_max;              /* bytes a string function may build */
  lua_Integer pattern_steps;      /* base steps of one pattern call */
  lua_Integer pattern_per_byte;   /* and extra steps per subject byte */
  /* memory: the last refused request, pending until Lua retries it after
   * an emergency collection (cured, or refused again: out of memory) or
   * its caller gives it up (any other request that grows: out of memory) */
  const void *refused_ptr;
  size_t refused_size;
  int oom;                        /* memory ran out during this action */
  int oom_seen;                   /* ... or at any time since the state was built */
  int closing;                    /* nesting of coroutine closes (__close in __close) */
  uintptr_t stack_base;           /* the C stack where the action began */
  char where[160];                /* where the stop was raised first */
  char refused_where[160];        /* where the pending refusal was made */
} keel_guard;

/* The guard of the state L belongs to (made on first use). */
keel_guard *keel_lua_sandbox_guard(lua_State *L);
/* Raise the error of a stopped action, re-arming the stop hook on L. */
int keel_lua_sandbox_raise_stop(lua_State *L, keel_guard *b);
/* The safe tostring: "table: #7" instead of an address. [-0, +1, e] */
const char *keel_lua_sandbox_tostring(lua_State *L, int idx, size_t *len);

#define KEEL_SANDBOX_REGKEY "keel.sandbox.guard"

#endif
