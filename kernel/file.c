/*
 * file.c — the kernel's files: whole-file reads bounded by a size limit,
 * and atomic writes (temporary file beside the target, fsync, rename,
 * fsync the directory), so a crash leaves the old file or the new one.
 * Saves (save.c), the journal writer and keel.state.write_file use these.
 * On KEEL_E_IO and KEEL_E_NOT_FOUND, errno holds the reason of the call
 * that failed (what a caller shows: "Permission denied", "No space left
 * on device"; keel_file_reason).
 *
 * Only regular files are replaced. A write to a character device or a FIFO
 * (/dev/null, /dev/stdout on a terminal or a pipe) goes into it, never
 * waiting for a reader; to a symlink, to what it points at (the link stays);
 * any other kind (a directory, a block device, a socket, a link to nothing)
 * is refused. A read takes a regular file only, refused at once otherwise
 * (a FIFO is opened without waiting for a writer): KEEL_E_NOT_REGULAR.
 */
#include "array.h"
#include "keel.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EINTR) continue; return 0; }
    p += w;
    n -= (size_t)w;
  }
  return 1;
}

/* Open "<path>.tmp" as a new file of our own: O_CREAT|O_EXCL never opens
 * what is there already (a file or a symlink someone planted, or a save
 * killed mid-write left), so a planted link is never followed; what is
 * there is removed (a link itself, never its target) and the create tried
 * again. -1 with errno set when that does not succeed. */
static int open_fresh(const char *tmp) {
  for (int tries = 0; tries < 8; tries++) {
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
    if (unlink(tmp) != 0 && errno != ENOENT) return -1;
  }
  errno = EEXIST;
  return -1;
}

/* Write into what is at path, a character device or a FIFO, as it is: no
 * temporary file, no rename, nothing created or truncated. A FIFO without a
 * reader fails at once (ENXIO) instead of waiting for one. */
static keel_status write_into(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return KEEL_E_IO;
  struct stat sb;
  if (fstat(fd, &sb) != 0) { int why = errno; close(fd); errno = why; return KEEL_E_IO; }
  if (!S_ISCHR(sb.st_mode) && !S_ISFIFO(sb.st_mode)) { close(fd); return KEEL_E_NOT_REGULAR; }
  int flags = fcntl(fd, F_GETFL);
  int ok = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 && write_all(fd, data, len);
  int why = ok ? 0 : errno;
  if (close(fd) != 0 && ok) { ok = 0; why = errno; }
  if (!ok) { errno = why; return KEEL_E_IO; }
  return KEEL_OK;
}

static keel_status write_replacing(const char *path, const char *data, size_t len);

keel_status keel_file_write_atomic(const char *path, const char *data, size_t len) {
  if (!path || !*path || (!data && len)) return KEEL_E_ARG;
  struct stat is, at;
  int linked = lstat(path, &is) == 0 && S_ISLNK(is.st_mode);
  if (stat(path, &at) == 0) {
    if (S_ISDIR(at.st_mode)) { errno = EISDIR; return KEEL_E_IO; }
    if (S_ISCHR(at.st_mode) || S_ISFIFO(at.st_mode)) return write_into(path, data, len);
    if (!S_ISREG(at.st_mode)) return KEEL_E_NOT_REGULAR;
    if (linked) {
      /* a link to a regular file: the file is replaced, the link stays */
      char *real = realpath(path, NULL);
      if (!real) return KEEL_E_IO;
      keel_status rc = write_replacing(real, data, len);
      int why = errno;
      free(real);
      errno = why;
      return rc;
    }
  } else if (linked) {
    errno = ENOENT;   /* a link to nothing: nothing of ours to write to */
    return KEEL_E_IO;
  }
  return write_replacing(path, data, len);
}

/* The atomic write proper: path is a regular file or nothing (no link). */
static keel_status write_replacing(const char *path, const char *data, size_t len) {
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 16);
  char *dir = malloc(pl + 2);
  if (!tmp || !dir) { free(tmp); free(dir); return KEEL_E_NOMEM; }
  /* One temporary name per file: a save killed mid-write leaves at most one
   * "<path>.tmp" behind, and the next save replaces it (one writer per file). */
  snprintf(tmp, pl + 16, "%s.tmp", path);
  const char *slash = strrchr(path, '/');
  if (slash == path) strcpy(dir, "/");
  else if (slash) { memcpy(dir, path, (size_t)(slash - path)); dir[slash - path] = '\0'; }
  else strcpy(dir, ".");
  /* the file keeps its mode; a new one gets 0644 less the umask */
  mode_t mode;
  struct stat old;
  if (stat(path, &old) == 0 && S_ISREG(old.st_mode)) {
    mode = old.st_mode & 07777;
  } else {
    mode_t mask = umask(022);
    umask(mask);
    mode = 0644 & ~mask;
  }
  keel_status rc = KEEL_E_IO;
  int why = 0;              /* errno of the first call that failed */
  int fd = open_fresh(tmp);
  if (fd < 0) why = errno;
  if (fd >= 0) {
    int ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
    if (!ok) why = errno;
    if (close(fd) != 0 && ok) { ok = 0; why = errno; }
    /* what was made meanwhile at path, if not a regular file, is not replaced */
    struct stat now;
    if (ok && lstat(path, &now) == 0 && !S_ISREG(now.st_mode)) { ok = 0; why = 0; rc = KEEL_E_NOT_REGULAR; }
    if (ok && rename(tmp, path) != 0) { ok = 0; why = errno; }
    if (ok) {
      int dfd = open(dir, O_RDONLY | O_DIRECTORY);
      if (dfd >= 0) { fsync(dfd); close(dfd); }
      rc = KEEL_OK;
    } else {
      unlink(tmp);
    }
  }
  free(tmp);
  free(dir);
  if (rc != KEEL_OK) errno = why;
  return rc;
}

keel_status keel_file_read(const char *path, size_t max, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  /* O_NONBLOCK: a FIFO opens at once (no waiting for a writer), to be refused */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? KEEL_E_NOT_FOUND : KEEL_E_IO;
  struct stat sb;
  if (fstat(fd, &sb) != 0) { int why = errno; close(fd); errno = why; return KEEL_E_IO; }
  if (S_ISDIR(sb.st_mode)) { close(fd); errno = EISDIR; return KEEL_E_IO; }
  if (!S_ISREG(sb.st_mode)) { close(fd); return KEEL_E_NOT_REGULAR; }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    int why = errno; close(fd); errno = why; return KEEL_E_IO;
  }
  if ((uint64_t)sb.st_size > max) { close(fd); return KEEL_E_CAPACITY; }
  size_t cap = 0, n = 0, first = (size_t)sb.st_size + 2;
  char *p = NULL;
  /* the size is known: one allocation of it (and a byte to spare, so that
   * the read that meets its end needs no more); a file that grows meanwhile
   * grows the buffer, up to max */
  if (!KEEL_RESERVE_FROM(p, cap, first, first)) {
    close(fd);
    return KEEL_E_NOMEM;
  }
  for (;;) {
    if (n + 1 >= cap) {
      if (cap > max + 1) { free(p); close(fd); return KEEL_E_CAPACITY; }
      if (!KEEL_RESERVE(p, cap, cap + 1)) { free(p); close(fd); return KEEL_E_NOMEM; }
    }
    ssize_t r = read(fd, p + n, cap - 1 - n);
    if (r < 0) {
      if (errno == EINTR) continue;
      int why = errno;
      free(p);
      close(fd);
      errno = why;
      return KEEL_E_IO;
    }
    if (r == 0) break;
    n += (size_t)r;
    if (n > max) { free(p); close(fd); return KEEL_E_CAPACITY; }
  }
  close(fd);
  p[n] = '\0';
  *out = p;
  *len = n;
  return KEEL_OK;
}

const char *keel_file_reason(keel_status s, int err) {
  return (s == KEEL_E_IO || s == KEEL_E_NOT_FOUND) && err != 0 ? strerror(err) : keel_status_str(s);
}
