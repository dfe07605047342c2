---@meta keel
-- LuaLS definitions for keel.file (kernel/l_file.c). Kept in step with it.
-- Host code only: scripts in a sandbox never get keel.file.

---@class keel
---@field file keel.filelib

---@class keel.filelib
---@field MAX integer the most a read takes unless told less (256 MiB)
local filelib = {}

--- A whole regular file, at most `max` bytes (default keel.file.MAX): a path
--- a journal or scenario names never fills the memory, and one that is not a
--- regular file (a FIFO, /dev/stdin, /dev/zero) is refused at once.
--- `last`, a text read before: when the file's text is the same, that very
--- string comes back (compared in C, no new string made of it).
---@param path string
---@param max? integer
---@param last? string
---@return string|nil text, string? reason "<path>: <why>" (the system's reason, or the bound)
function filelib.read(path, max, last) end

--- Write a whole file atomically (a temporary file beside it, fsync,
--- rename, fsync the folder): the old file or the new one, never half.
--- Only a regular file is replaced: a character device or a FIFO is
--- written into (a FIFO without a reader refused at once), a symlink's
--- target is written (the link stays); a folder or a link to nothing is
--- refused. An empty path names no file.
---@param path string
---@param data string
---@return true|nil ok, string? reason "<path>: cannot write (<why>)"
function filelib.write(path, data) end

--- A path as the system finds it: absolute, every link, "." and ".."
--- resolved (realpath), and what is there: "file", "folder", "other" (a
--- device, a FIFO, a socket) or "none". A path that names nothing yet
--- resolves through its folder (its last name kept: not "." or ".."); a
--- link to nothing is refused, as a write would follow it. What keel serve
--- confines client paths with.
---@param path string
---@return string|nil real, string kind_or_reason "file"|"folder"|"other"|"none", or "<path>: <why>"
function filelib.find_real(path) end
