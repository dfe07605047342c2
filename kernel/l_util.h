/*
 * l_util.h — helpers shared by the Lua bindings (kernel/l_*.c).
 *
 * Bindings only check arguments, convert, and push results. Misuse raises
 * ("bad argument #2 to 'neighbor' (direction 0..5 expected, got 9)"); an
 * expected outcome (a hex off the board) returns nil and a reason.
 */
#ifndef KEEL_L_UTIL_H
#define KEEL_L_UTIL_H

#include "keel.h"
#include <lua.h>
#include <lauxlib.h>

/* Each binding file defines one opener: it pushes the module table. */
#define KEEL_MODULE(name) int keel_lua_open_##name(lua_State *L);
#include "modules.h"
#undef KEEL_MODULE

/* Check that argument `arg` is a valid packed hex and return it. */
keel_hex keel_lua_checkhex(lua_State *L, int arg);
/* Check that argument `arg` is a valid packed hexside. */
keel_side keel_lua_checkside(lua_State *L, int arg);
/* Raise "<what>: <status phrase>" for a status other than KEEL_OK. */
int keel_lua_fail(lua_State *L, keel_status st, const char *what);
/* Push nil and "<what>: <status phrase>"; returns 2. */
int keel_lua_nilerr(lua_State *L, keel_status st, const char *what);
/* Push an array of hexes as a new table. */
void keel_lua_pushhexes(lua_State *L, const keel_hex *hexes, size_t n);
/* Read an array of hexes from table at `arg`; returns a lua-owned buffer
 * (userdata left on the stack) holding *n hexes. */
keel_hex *keel_lua_checkhexes(lua_State *L, int arg, size_t *n);
/* Register a userdata class: metatable `name` (a dotted type name such as
 * "keel.Grid") with `methods` in __index, `close` (may be NULL) as both __gc
 * and __close, and `tostring` as __tostring. Leaves the stack as it was. */
void keel_lua_newclass(lua_State *L, const char *name, const luaL_Reg *methods,
                       lua_CFunction close, lua_CFunction tostring);
/* Optional integer field of a table at `idx`. */
/* The keel_board of a keel.Board userdata (l_board.c); raises when closed. */
keel_board *keel_lua_checkboard(lua_State *L, int arg);

lua_Integer keel_lua_optfield_int(lua_State *L, int idx, const char *k, lua_Integer def);

#endif
