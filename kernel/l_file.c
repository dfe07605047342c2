/*
 * l_file.c — keel.file: whole files for host code (binding of file.c).
 *
 *   local text, err = keel.file.read(path [, max_bytes [, last]])
 *   local ok, err = keel.file.write(path, text)      -- atomic
 *   local real, kind = keel.file.find_real(path)     -- no links, no . or ..
 *
 * The one way keel's host-side Lua (maps, tables, rule files, scenarios,
 * journals, saves' rule files, the CLI) reads or writes a whole file: a
 * read is bounded (keel.file.MAX unless the caller says less), so a path
 * a journal or scenario names never fills the memory;
 * a write goes to a temporary file and is renamed over the target. Only a
 * regular file is read or replaced (file.c: a FIFO or a device is refused
 * at once for a read, written into for a write). On failure: nil and
 * "<path>: <why>" (the system's reason, or the bound; an empty path names
 * no file).
 * Scripts in a sandbox never get this module.
 */
#include "l_util.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files read by keel.file.read are at most this large unless told less. */
#define FILE_MAX ((lua_Integer)256 << 20)

/* nil and why, for an empty path: it names no file (a user's input, as a
 * request's or an option's, not a caller's mistake)  [-0, +2, e] */
static int no_name(lua_State *L, const char *what) {
  lua_pushnil(L);
  lua_pushfstring(L, "an empty path names no file to %s", what);
  return 2;
}

/* keel.file.read(path [, max [, last]]) -> text | nil, reason; `last` (a
 * text read before) itself when the file's text is the same: a comparison
 * instead of a new string  [-3, +1|2, e] */
static int l_read(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (!*path) return no_name(L, "read");
  lua_Integer max = luaL_optinteger(L, 2, FILE_MAX);
  luaL_argcheck(L, max >= 0 && max <= FILE_MAX, 2, "a size from 0 to keel.file.MAX expected");
  char *text;
  size_t len;
  keel_status s = keel_file_read(path, (size_t)max, &text, &len);
  int why = errno;
  if (s == KEEL_E_NOMEM) return keel_lua_fail(L, s, "read");
  if (s != KEEL_OK) {
    lua_pushnil(L);
    if (s == KEEL_E_CAPACITY)
      lua_pushfstring(L, "%s: larger than %I bytes; refusing to read it", path, max);
    else
      lua_pushfstring(L, "%s: %s", path, keel_file_reason(s, why));
    return 2;
  }
  size_t last_len;
  const char *last = lua_type(L, 3) == LUA_TSTRING ? lua_tolstring(L, 3, &last_len) : NULL;
  if (last && last_len == len && memcmp(last, text, len) == 0) lua_pushvalue(L, 3);
  else lua_pushlstring(L, text, len);
  free(text);
  return 1;
}

/* keel.file.write(path, data) -> true | nil, reason  [-2, +1|2, e]; atomic */
static int l_write(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  size_t len;
  const char *data = luaL_checklstring(L, 2, &len);
  if (!*path) return no_name(L, "write");
  keel_status s = keel_file_write_atomic(path, data, len);
  int why = errno;
  if (s == KEEL_E_NOMEM) return keel_lua_fail(L, s, "write");
  if (s != KEEL_OK) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: cannot write (%s)", path, keel_file_reason(s, why));
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* What is at a real path: "file", "folder", "other" (a device, a FIFO, a
 * socket) or "none" (nothing yet). */
static const char *kind_of(const char *real) {
  struct stat sb;
  if (stat(real, &sb) != 0) return "none";
  return S_ISREG(sb.st_mode) ? "file" : S_ISDIR(sb.st_mode) ? "folder" : "other";
}

/* keel.file.find_real(path) -> real, kind | nil, reason: the absolute path
 * with every link, "." and ".." resolved (realpath), and what is there. A
 * path that names nothing yet resolves through its folder (its last name
 * kept, which may not be "." or ".."); a link to nowhere is refused (a
 * write would follow it)  [-1, +1|2, e] */
static int l_find_real(lua_State *L) {
  size_t len;
  const char *path = luaL_checklstring(L, 1, &len);
  char real[PATH_MAX];
  if (len == 0 || strlen(path) != len) {
    lua_pushnil(L);
    lua_pushfstring(L, "'%s': not a path", path);
    return 2;
  }
  if (realpath(path, real)) {
    lua_pushstring(L, real);
    lua_pushstring(L, kind_of(real));
    return 2;
  }
  int why = errno;
  struct stat sb;
  if (why == ENOENT && lstat(path, &sb) == 0) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: a link to nothing", path);
    return 2;
  }
  if (why != ENOENT) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(why));
    return 2;
  }
  /* nothing there yet: its folder resolved, then its last name */
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(why));
    return 2;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (!slash) luaL_addstring(&b, ".");
  else if (slash == path) luaL_addstring(&b, "/");
  else luaL_addlstring(&b, path, (size_t)(slash - path));
  luaL_pushresult(&b);
  const char *dir = lua_tostring(L, -1);
  if (!realpath(dir, real)) {
    why = errno;
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(why));
    return 2;
  }
  lua_pushstring(L, real);
  if (strcmp(real, "/") != 0) lua_pushliteral(L, "/");
  else lua_pushliteral(L, "");
  lua_pushstring(L, base);
  lua_concat(L, 3);
  lua_pushliteral(L, "none");
  return 2;
}

/* the keel.file table  [-0, +1, e] */
int keel_lua_open_file(lua_State *L) {
  static const luaL_Reg fns[] = { { "read", l_read }, { "write", l_write }, { "find_real", l_find_real },
                                  { NULL, NULL } };
  luaL_newlib(L, fns);
  lua_pushinteger(L, FILE_MAX);
  lua_setfield(L, -2, "MAX");
  return 1;
}
