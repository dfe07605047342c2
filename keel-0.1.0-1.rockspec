-- keel-0.1.0-1.rockspec — `luarocks make` builds keel with its Makefile
-- (`make rock`) and installs the Lua module keel.so, its Lua scripts (the
-- modules keel.* and the rule families, as modules of the tree) and the
-- keel command (`make rock-install`). Lua 5.4 and LPeg are Debian's:
-- liblua5.4-dev, lua-lpeg-dev (the keel command links LPeg in; keel.so
-- requires the lpeg module at run time). tests/install.sh runs it into a
-- scratch tree: luarocks --lua-version 5.4 --tree DIR make
rockspec_format = "3.0"
package = "keel"
version = "0.1.0-1"
source = {
  url = "git+file:///keel",   -- `luarocks make` builds the tree it is run in
  tag = "v0.1.0",
}
description = {
  summary = "A naval wargame rules kernel: C with Lua 5.4 rules, variants and scenarios",
  detailed = [[
keel runs naval wargame rules written as Lua scripts in a sandbox: rule
families, house-rule variants and scenarios, every game journaled and
replayable byte for byte. The module `keel` (keel.so) and its scripts.]],
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5" }
external_dependencies = {
  -- Debian's LPeg for Lua 5.4 (lua-lpeg-dev)
  LPEG = { header = "lua5.4/lua-lpeg.h", library = "lua5.4-lpeg" },
}
build = {
  type = "make",
  build_target = "rock",
  build_variables = {
    CC = "$(CC)", CFLAGS = "$(CFLAGS)", LUA_INC = "$(LUA_INCDIR)",
    LPEG_A = "$(LPEG_LIBDIR)/liblua5.4-lpeg.a",
  },
  install_target = "rock-install",
  install_variables = {
    ROCK_LIBDIR = "$(LIBDIR)", ROCK_LUADIR = "$(LUADIR)", ROCK_BINDIR = "$(BINDIR)",
  },
}
