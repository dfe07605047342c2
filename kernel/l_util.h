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

/* luaL_checkudata, fast for the classes made by keel_lua_newclass (their
 * metatable names the class); anything else gets luaL_checkudata's answer. */
void *keel_lua_checkudata(lua_State *L, int arg, const char *name);

/* Check that argument `arg` is a valid packed hex and return it. */
keel_hex keel_lua_checkhex(lua_State *L, int arg);
/* Check that argument `arg` is a valid packed hexside. */
keel_side keel_lua_checkside(lua_State *L, int arg);
/* Raise "<what>: <status phrase>" for a status other than KEEL_OK. */
int keel_lua_fail(lua_State *L, keel_status st, const char *what);
/* Push nil and "<what>: <status phrase>"; returns 2. */
int keel_lua_nilerr(lua_State *L, keel_status st, const char *what);
/* Push nil and `reason`; returns 2. */
int keel_lua_nilmsg(lua_State *L, const char *reason);
/* keel_lua_nilerr, but with `not_found` as the whole reason for
 * KEEL_E_NOT_FOUND; returns 2. */
int keel_lua_nilerr_nf(lua_State *L, keel_status st, const char *what, const char *not_found);
/* Push an array of hexes as a new table. */
void keel_lua_pushhexes(lua_State *L, const keel_hex *hexes, size_t n);
/* Push the names of all the areas, in the order added, as a new table. */
void keel_lua_pushareanames(lua_State *L, const keel_areas *a);
/* Push the names of the neighbours of area i, in the order added. */
void keel_lua_pushareaneighbors(lua_State *L, const keel_areas *a, size_t i);
/* Push the names of the grid's map sections, in the order added. */
void keel_lua_pushsectionnames(lua_State *L, const keel_grid *g);
/* The hexes of box x of g as a new table, or nil and "<what>: <reason>";
 * returns 1 or 2. */
int keel_lua_pushboxhexes(lua_State *L, const keel_boxgrid *g, keel_box x, const char *what);
/* Read an array of hexes from table at `arg`; returns a lua-owned buffer
 * (userdata left on the stack) holding *n hexes. */
keel_hex *keel_lua_checkhexes(lua_State *L, int arg, size_t *n);
/* The one userdata recipe. A class is a metatable registered under `name`
 * (a dotted type name such as "keel.Grid", also its __name): `methods` go
 * in __index (each with the nup values on top of the stack as upvalues,
 * popped), `gc`, `close` and `tostring` become __gc, __close and
 * __tostring (NULL: none). An object is a zeroed userdata with nuv user
 * values and the class's metatable.
 *
 * Most objects own one kernel object, a pointer in their first field.
 * Such a class gives `release` (frees it) instead of gc and close: the
 * recipe's own close frees it once and is __gc, __close and the method
 * close (the class descriptor must be static: the close holds it).
 * keel_lua_checkobject gives the pointer an object of class `name` owns,
 * or raises "<what> is closed". */
typedef struct keel_lua_class {
  const char *name;
  const luaL_Reg *methods;
  lua_CFunction gc, close, tostring;
  void (*release)(void *owned);
} keel_lua_class;
void keel_lua_newclass(lua_State *L, const keel_lua_class *c, int nup);
void *keel_lua_newobject(lua_State *L, size_t size, int nuv, const char *name);
/* Push the table with weak keys kept in the registry under the key `key`
 * (made on first use).  [-0, +1, m] */
void keel_lua_weaktable(lua_State *L, const char *key);
void *keel_lua_checkobject(lua_State *L, int arg, const char *name, const char *what);
/* The keel_board of a keel.Board userdata (l_board.c); raises when closed. */
keel_board *keel_lua_checkboard(lua_State *L, int arg);
/* The keel_state of a keel.State userdata (l_state.c); raises when closed. */
keel_state *keel_lua_checkstate(lua_State *L, int arg);
/* Optional integer field of a table at `idx`. */
lua_Integer keel_lua_optfield_int(lua_State *L, int idx, const char *k, lua_Integer def);
/* The digits and first_col/first_row fields of a numbering table at `idx`
 * (orientation and shift are read by the caller), range-checked so that no
 * script value is truncated on the way to C's int. */
void keel_lua_optnumbering(lua_State *L, int idx, keel_numbering *n);

#endif
