/*
 * l_strlib.c — keel.strlib: Lua's string library with bounds, for scripts.
 *
 *   find, match, gmatch, gsub   the step-limited pattern engine (pattern.c):
 *                               a call stops when over its step budget
 *                               (pattern_steps + pattern_per_byte * #s) or
 *                               when the action is over its CPU limit
 *   rep, gsub                   refuse to build a string over `string_max`
 *                               (the limits hold inside actions only: the
 *                               host's code outside them is not bounded)
 *   format                      refuses '%p'; '%s' of a table prints a
 *                               stable id, never an address
 *   tostring                    "table: #7" instead of "table: 0x55..."
 *   reset_ids()                 number tables and functions from #1 again
 *                               (keel.lab_game: each game of a study the same
 *                               ids, whatever the state played before it)
 *   string                      the whole library so bounded, minus dump
 *   lock()                      point the string metatable at `string` and
 *                               lock it (getmetatable("") gives a message)
 *
 * The limits are the state's sandbox box (l_sandbox.h).
 */
#define _GNU_SOURCE
#include "l_sandbox.h"
#include "pattern.h"
#include <lualib.h>
#include <ctype.h>
#include <string.h>

#define IDS_KEY "keel.strlib.ids"
#define LOCKED_MSG "the string metatable is locked in keel scripts"

/* ---- stable ids instead of addresses ------------------------------------ */

static lua_Integer stable_id(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  keel_lua_weaktable(L, IDS_KEY);
  lua_pushvalue(L, idx);
  lua_Integer id;
  if (lua_rawget(L, -2) == LUA_TNUMBER) {
    id = lua_tointeger(L, -1);
    lua_pop(L, 2);
    return id;
  }
  lua_pop(L, 1);
  lua_rawgeti(L, -1, 0);   /* the counter, at key 0 */
  id = lua_tointeger(L, -1) + 1;
  lua_pop(L, 1);
  lua_pushinteger(L, id);
  lua_rawseti(L, -2, 0);
  lua_pushvalue(L, idx);
  lua_pushinteger(L, id);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  return id;
}

const char *keel_lua_sandbox_tostring(lua_State *L, int idx, size_t *len) {
  idx = lua_absindex(L, idx);
  if (luaL_callmeta(L, idx, "__tostring")) {
    if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
    return lua_tolstring(L, -1, len);
  }
  switch (lua_type(L, idx)) {
    case LUA_TNIL: case LUA_TBOOLEAN: case LUA_TNUMBER: case LUA_TSTRING:
      return luaL_tolstring(L, idx, len);
    default: {
      int tt = luaL_getmetafield(L, idx, "__name");
      const char *kind = tt == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, idx);
      lua_Integer id = stable_id(L, idx);
      lua_pushfstring(L, "%s: #%I", kind, (LUAI_UACINT)id);
      if (tt != LUA_TNIL) lua_remove(L, -2);
      return lua_tolstring(L, -1, len);
    }
  }
}

/* strlib.reset_ids() -> nothing: forget every id given; the next value
 * tostring sees is #1 again  [-0, +0, e] */
static int l_reset_ids(lua_State *L) {
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, IDS_KEY);
  return 0;
}

/* tostring(v) -> string  [-1, +1, e] */
static int l_tostring(lua_State *L) {
  luaL_checkany(L, 1);
  keel_lua_sandbox_tostring(L, 1, NULL);
  return 1;
}

/* ---- patterns ------------------------------------------------------------ */

static int poll_stop(void *ud) { return ((keel_guard *)ud)->stop != KEEL_STOP_NONE; }

static void setup(keel_pattern *m, keel_guard *b, const char *s, size_t ls,
                  const char *p, size_t lp) {
  /* limits hold inside actions (keel.sandbox.protect); the host's own code
   * outside any action runs unbounded, as with the stock library */
  uint64_t steps = b->depth == 0 ? UINT64_MAX
                 : (uint64_t)b->pattern_steps + (uint64_t)b->pattern_per_byte * ls;
  keel__pattern_init(m, s, ls, p, lp, steps);
  m->interrupted = poll_stop;
  m->ud = b;
}

static void check(lua_State *L, keel_guard *b, keel_pattern *m, keel_status st) {
  if (st == KEEL_OK) return;
  if (b->stop) keel_lua_sandbox_raise_stop(L, b);
  luaL_error(L, "%s", m->message);
}

static void push_onecapture(lua_State *L, const keel_pattern *m, int i,
                            const char *s, const char *e) {
  if (i >= m->level) {
    if (i != 0) luaL_error(L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(L, s, (size_t)(e - s));   /* the whole match */
    return;
  }
  ptrdiff_t l = m->capture[i].len;
  if (l == KEEL_CAP_UNFINISHED) luaL_error(L, "unfinished capture");
  if (l == KEEL_CAP_POSITION)
    lua_pushinteger(L, (lua_Integer)(m->capture[i].init - m->s) + 1);
  else
    lua_pushlstring(L, m->capture[i].init, (size_t)l);
}

static int push_captures(lua_State *L, const keel_pattern *m, const char *s,
                         const char *e) {
  int n = (m->level == 0 && s) ? 1 : m->level;
  luaL_checkstack(L, n, "too many captures");
  for (int i = 0; i < n; i++) push_onecapture(L, m, i, s, e);
  return n;
}

/* 5.4's posrelatI: a start position made absolute, at least 1 */
static size_t start_pos(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

static int find_aux(lua_State *L, int find, int plain) {
  keel_guard *b = lua_touserdata(L, lua_upvalueindex(1));
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_pos(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (plain || keel__pattern_is_plain(p, lp))) {
    const char *hit = lp == 0 ? s + init : memmem(s + init, ls - init, p, lp);
    if (hit) {
      lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
      lua_pushinteger(L, (lua_Integer)(hit - s + lp));
      return 2;
    }
  } else {
    keel_pattern m;
    setup(&m, b, s, ls, p, lp);
    int anchor = lp > 0 && p[0] == '^';
    size_t at = init;
    do {
      ptrdiff_t e;
      check(L, b, &m, keel__pattern_match(&m, at, (size_t)anchor, &e));
      if (e >= 0) {
        if (find) {
          lua_pushinteger(L, (lua_Integer)at + 1);
          lua_pushinteger(L, (lua_Integer)e);
          return push_captures(L, &m, NULL, NULL) + 2;
        }
        return push_captures(L, &m, s + at, s + e);
      }
    } while (at++ < ls && !anchor);
  }
  luaL_pushfail(L);
  return 1;
}

/* string.find(s, pattern [, init [, plain]]) -> i, j, captures... | nil  [-4, +?, e] */
static int l_find(lua_State *L) { return find_aux(L, 1, lua_toboolean(L, 4)); }
/* string.match(s, pattern [, init]) -> captures... | nil  [-3, +?, e] */
static int l_match(lua_State *L) { return find_aux(L, 0, 0); }

typedef struct gmatch_state { size_t at; ptrdiff_t last; } gmatch_state;

/* the iterator of string.gmatch -> captures... | nothing  [-0, +?, e] */
static int gmatch_next(lua_State *L) {
  keel_guard *b = lua_touserdata(L, lua_upvalueindex(4));
  size_t ls, lp;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
  keel_pattern m;
  setup(&m, b, s, ls, p, lp);
  for (size_t at = g->at; at <= ls; at++) {
    ptrdiff_t e;
    check(L, b, &m, keel__pattern_match(&m, at, 0, &e));
    if (e >= 0 && e != g->last) {
      g->at = (size_t)e;
      g->last = e;
      return push_captures(L, &m, s + at, s + e);
    }
  }
  g->at = ls + 1;
  return 0;
}

/* string.gmatch(s, pattern [, init]) -> iterator  [-3, +1, e] */
static int l_gmatch(lua_State *L) {
  size_t ls;
  luaL_checklstring(L, 1, &ls);
  luaL_checkstring(L, 2);
  size_t init = start_pos(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) init = ls + 1;
  lua_settop(L, 2);
  gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
  g->at = init;
  g->last = -1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, gmatch_next, 4);
  return 1;
}

static void check_size(lua_State *L, keel_guard *b, size_t n, const char *fname) {
  if (b->depth > 0 && n > b->string_max)
    luaL_error(L, "%s: the result would be over the sandbox's limit of %I bytes",
               fname, (LUAI_UACINT)b->string_max);
}

static void add_replacement(lua_State *L, const keel_pattern *m, luaL_Buffer *buf,
                            const char *s, const char *e) {
  size_t l;
  const char *r = lua_tolstring(L, 3, &l);
  const char *end = r + l;
  while (r < end) {
    const char *pc = memchr(r, '%', (size_t)(end - r));
    if (pc == NULL) { luaL_addlstring(buf, r, (size_t)(end - r)); break; }
    luaL_addlstring(buf, r, (size_t)(pc - r));
    pc++;
    if (pc < end && *pc == '%') {
      luaL_addchar(buf, '%');
    } else if (pc < end && *pc == '0') {
      luaL_addlstring(buf, s, (size_t)(e - s));
    } else if (pc < end && isdigit((unsigned char)*pc)) {
      push_onecapture(L, m, *pc - '1', s, e);
      luaL_tolstring(L, -1, NULL);
      lua_remove(L, -2);
      luaL_addvalue(buf);
    } else {
      luaL_error(L, "invalid use of '%%' in replacement string");
    }
    r = pc + 1;
  }
}

/* 1 when the match was replaced by something new */
static int add_value(lua_State *L, const keel_pattern *m, luaL_Buffer *buf,
                     const char *s, const char *e, int tr) {
  switch (tr) {
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      int n = push_captures(L, m, s, e);
      lua_call(L, n, 1);
      break;
    }
    case LUA_TTABLE:
      push_onecapture(L, m, 0, s, e);
      lua_gettable(L, 3);
      break;
    default:
      add_replacement(L, m, buf, s, e);
      return 1;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(buf, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(buf);
  return 1;
}

/* string.gsub(s, pattern, repl [, n]) -> string, count  [-4, +2, e] */
static int l_gsub(lua_State *L) {
  keel_guard *b = lua_touserdata(L, lua_upvalueindex(1));
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  int tr = lua_type(L, 3);
  lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING ||
                   tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                   "string/function/table");
  int anchor = lp > 0 && p[0] == '^';
  keel_pattern m;
  setup(&m, b, s, ls, p, lp);
  luaL_Buffer buf;
  luaL_buffinit(L, &buf);
  size_t at = 0;
  ptrdiff_t last = -1;
  lua_Integer n = 0;
  int changed = 0;
  while (n < max_n) {
    ptrdiff_t e;
    check(L, b, &m, keel__pattern_match(&m, at, (size_t)anchor, &e));
    if (e >= 0 && e != last) {
      n++;
      changed = add_value(L, &m, &buf, s + at, s + e, tr) | changed;
      at = (size_t)e;
      last = e;
    } else if (at < ls) {
      luaL_addchar(&buf, s[at++]);
    } else {
      break;
    }
    check_size(L, b, luaL_bufflen(&buf), "string.gsub");
    if (anchor) break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&buf, s + at, ls - at);
    check_size(L, b, luaL_bufflen(&buf), "string.gsub");
    luaL_pushresult(&buf);
  }
  lua_pushinteger(L, n);
  return 2;
}

/* string.rep(s, n [, sep]) -> string  [-3, +1, e] */
static int l_rep(lua_State *L) {
  keel_guard *b = lua_touserdata(L, lua_upvalueindex(1));
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || (l == 0 && lsep == 0)) {
    lua_pushliteral(L, "");
    return 1;
  }
  size_t unit = l + lsep;
  size_t max = b->depth > 0 ? b->string_max : (size_t)0x7fffffff * 4;
  if (unit < l || (size_t)n > (max + lsep) / unit)
    return luaL_error(L, "string.rep: the result would be over the sandbox's limit of %I bytes "
                      "(asked for %I copies of %I bytes)", (LUAI_UACINT)b->string_max,
                      (LUAI_UACINT)n, (LUAI_UACINT)l);
  size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
  luaL_Buffer buf;
  char *out = luaL_buffinitsize(L, &buf, total);
  for (lua_Integer i = 0; i < n; i++) {
    memcpy(out, s, l);
    out += l;
    if (i + 1 < n && lsep) {
      memcpy(out, sep, lsep);
      out += lsep;
    }
  }
  luaL_pushresultsize(&buf, total);
  return 1;
}

/* string.format(fmt, ...) -> string  [-?, +1, e]; upvalue 2 is the stock one */
static int l_format(lua_State *L) {
  size_t lf;
  const char *f = luaL_checklstring(L, 1, &lf);
  const char *end = f + lf;
  int top = lua_gettop(L), arg = 1;
  for (const char *c = f; c < end; c++) {
    if (*c != '%') continue;
    if (++c < end && *c == '%') continue;
    arg++;
    while (c < end && strchr("-+ #0", *c) && *c) c++;
    while (c < end && (isdigit((unsigned char)*c) || *c == '.')) c++;
    if (c >= end) break;
    if (*c == 'p')
      return luaL_error(L, "string.format: '%%p' is not available in keel scripts "
                        "(addresses change from run to run; tostring gives a stable id)");
    if (*c == 's' && arg <= top) {
      int t = lua_type(L, arg);
      if (t != LUA_TSTRING && t != LUA_TNUMBER) {
        keel_lua_sandbox_tostring(L, arg, NULL);
        lua_replace(L, arg);
      }
    }
  }
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_insert(L, 1);
  lua_call(L, top, 1);
  return 1;
}

/* ---- the library ---------------------------------------------------------- */

/* Push the bounded string library: the stock functions but dump, with the
 * bounded ones in their place. */
static void push_string_lib(lua_State *L, keel_guard *b) {
  lua_newtable(L);
  int lib = lua_gettop(L);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 0);   /* the stock library */
  int stock = lua_gettop(L);
  static const char *const keep[] = {
    "byte", "char", "len", "lower", "upper", "reverse", "sub", "pack",
    "packsize", "unpack", NULL
  };
  for (int i = 0; keep[i]; i++) {
    lua_getfield(L, stock, keep[i]);
    lua_setfield(L, lib, keep[i]);
  }
  static const luaL_Reg bounded[] = {
    { "find", l_find }, { "match", l_match }, { "gmatch", l_gmatch },
    { "gsub", l_gsub }, { "rep", l_rep }, { NULL, NULL }
  };
  for (int i = 0; bounded[i].name; i++) {
    lua_pushlightuserdata(L, b);
    lua_pushcclosure(L, bounded[i].func, 1);
    lua_setfield(L, lib, bounded[i].name);
  }
  lua_pushlightuserdata(L, b);
  lua_getfield(L, stock, "format");
  lua_pushcclosure(L, l_format, 2);
  lua_setfield(L, lib, "format");
  lua_settop(L, lib);
}

/* strlib.lock() -> nothing: string methods use the bounded library and
 * getmetatable("") returns a message  [-0, +0, e] */
static int l_lock(lua_State *L) {
  lua_pushliteral(L, "");
  if (!lua_getmetatable(L, -1)) return luaL_error(L, "strings have no metatable");
  lua_getfield(L, lua_upvalueindex(1), "string");
  lua_setfield(L, -2, "__index");
  lua_pushliteral(L, LOCKED_MSG);
  lua_setfield(L, -2, "__metatable");
  return 0;
}

/* require "keel.strlib" -> module  [-0, +1, e] */
int keel_lua_open_strlib(lua_State *L) {
  keel_guard *b = keel_lua_sandbox_guard(L);
  lua_newtable(L);
  int mod = lua_gettop(L);
  push_string_lib(L, b);
  lua_pushvalue(L, -1);
  lua_setfield(L, mod, "string");
  static const char *const names[] = { "find", "match", "gmatch", "gsub", "rep", "format", NULL };
  for (int i = 0; names[i]; i++) {
    lua_getfield(L, -1, names[i]);
    lua_setfield(L, mod, names[i]);
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_tostring);
  lua_setfield(L, mod, "tostring");
  lua_pushcfunction(L, l_reset_ids);
  lua_setfield(L, mod, "reset_ids");
  lua_pushvalue(L, mod);
  lua_pushcclosure(L, l_lock, 1);
  lua_setfield(L, mod, "lock");
  lua_pushliteral(L, LOCKED_MSG);
  lua_setfield(L, mod, "locked_message");
  return 1;
}
