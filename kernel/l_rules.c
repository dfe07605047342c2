/*
 * l_rules.c — keel.rules' C half: a ctx's query, the hottest call of the
 * rules runtime (the rest is scripts/keel/rules.lua, which require
 * "keel.rules" gives). No kernel object: it reads and writes Lua tables.
 *
 *   keel.rules.new_query(ctx, queries, running, rec, catching, general, rs)
 *     -> query
 *
 * query(me, name, ...) is ctx:query(name, ...) of one ctx (upvalue 1, set
 * once the ctx is made) asked by a rule's code where no script can catch
 * an error. It does what keel.rules' Lua would do for such a query
 * (doc/performance.md, "A rule call runs protected, a query between rules
 * need not"), without a Lua call of its own, a vararg frame or one for the
 * results. running holds the frames of the rules running, the innermost
 * last; rs is the set's rule stack counters: the first rs[1] of them are
 * pushed, rs[2] is the frame of the rule that ran last.
 *   q = queries[name], the query resolved and its frame: { rule, fn, ctx, rec };
 *   n = #running + 1; running[n] = q; rs[2] = q;
 *   fn(ctx, ...) unprotected (an error goes on to the enclosing rule call,
 *   whose handler names running[n]); on its return, if rs[1] >= n (the
 *   query, or kernel code for it, pushed its rule: keel.rules' sync)
 *   rec.pop() and rs[1] = n - 1; running[n] = nil; fn's results.
 * Every other case goes to general(me, name, ...) (Lua): a ctx other than
 * this one, a query not resolved yet (or none), no rule running (an entry
 * point's call), or catching[1] > 0 (a script pcall, xpcall or coroutine
 * body running: the query runs protected).
 */
#include "l_util.h"

enum { U_CTX = 1, U_QUERIES, U_RUNNING, U_REC, U_CATCHING, U_GENERAL, U_RS, U_COUNT = U_RS };
enum { RS_PUSHED = 1, RS_LAST };
#define UP(i) lua_upvalueindex(i)

/* whatever the call before returned: all of it  [-0, +0, -] */
static int all_results(lua_State *L, int status, lua_KContext n) {
  (void)status; (void)n;
  return lua_gettop(L);
}

/* the query at depth n returned: pop its rule if it was pushed, n - 1 rules
 * running; fn's results are the whole stack  [-0, +0, e] */
static int answered(lua_State *L, int status, lua_KContext n) {
  (void)status;
  int top = lua_gettop(L);
  lua_rawgeti(L, UP(U_RS), RS_PUSHED);
  if (lua_tointeger(L, -1) >= (lua_Integer)n) {
    lua_getfield(L, UP(U_REC), "pop");
    lua_call(L, 0, 0);
    lua_pushinteger(L, (lua_Integer)n - 1);
    lua_rawseti(L, UP(U_RS), RS_PUSHED);
  }
  lua_pushnil(L);
  lua_rawseti(L, UP(U_RUNNING), (lua_Integer)n);
  lua_settop(L, top);
  return top;
}

/* query(me, name, ...) -> what the query's function returns  [-(n+2), +?, e] */
static int l_query(lua_State *L) {
  int top = lua_gettop(L);
  if (top >= 2 && lua_rawequal(L, 1, UP(U_CTX))) {
    int q = top + 1;
    lua_pushvalue(L, 2);
    if (lua_rawget(L, UP(U_QUERIES)) == LUA_TTABLE) {
      lua_Integer n = (lua_Integer)lua_rawlen(L, UP(U_RUNNING));
      lua_rawgeti(L, UP(U_CATCHING), 1);
      if (n > 0 && lua_tointeger(L, q + 1) <= 0) {
        n++;
        lua_pushvalue(L, q);                  /* the query's frame */
        lua_rawseti(L, UP(U_RUNNING), n);
        lua_pushvalue(L, q);
        lua_rawseti(L, UP(U_RS), RS_LAST);
        lua_rawgeti(L, q, 2);                 /* fn */
        lua_copy(L, -1, 1);
        lua_rawgeti(L, q, 3);                 /* its ctx */
        lua_copy(L, -1, 2);
        lua_settop(L, top);
        lua_callk(L, top - 1, LUA_MULTRET, (lua_KContext)n, answered);
        return answered(L, LUA_OK, (lua_KContext)n);
      }
    }
    lua_settop(L, top);
  }
  lua_pushvalue(L, UP(U_GENERAL));
  lua_insert(L, 1);
  lua_callk(L, top, LUA_MULTRET, 0, all_results);
  return lua_gettop(L);
}

/* keel.rules.new_query(ctx, queries, running, rec, catching, general, rs)
 * -> query (its upvalues, in this order)  [-7, +1, e] */
static int l_new_query(lua_State *L) {
  luaL_checktype(L, U_QUERIES, LUA_TTABLE);
  luaL_checktype(L, U_RUNNING, LUA_TTABLE);
  luaL_checktype(L, U_REC, LUA_TTABLE);
  luaL_checktype(L, U_CATCHING, LUA_TTABLE);
  luaL_checktype(L, U_GENERAL, LUA_TFUNCTION);
  luaL_checktype(L, 7, LUA_TTABLE);   /* U_RS, the last */
  lua_settop(L, 7);
  lua_pushcclosure(L, l_query, U_COUNT);
  return 1;
}

/* the C half of keel.rules  [-0, +1, e] */
int keel_lua_open_rules(lua_State *L) {
  static const luaL_Reg fns[] = { { "new_query", l_new_query }, { NULL, NULL } };
  luaL_newlib(L, fns);
  return 1;
}
