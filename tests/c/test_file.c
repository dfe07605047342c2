/*
 * test_file.c — kernel/file.c against what is not a regular file: the
 * atomic writer writes into a FIFO or a character device, writes a
 * symlink's target and keeps the link, refuses the rest, and never
 * replaces any of them; a read refuses a FIFO or a device at once.
 *
 * Every path written is inside a fresh temporary folder: the character
 * device is reached through a link made there to /dev/null, so that even a
 * writer that replaced what it was given would replace the link, never
 * the machine's /dev/null (tests may run as root).
 */
#include "check.h"
#include "keel.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/keel-file-XXXXXX";

/* A call that would block for good (an open(2) of a FIFO waiting for its
 * other end) is cut off after 2 s instead: the alarm's signal interrupts it
 * (no SA_RESTART), so a regression fails the test instead of hanging it. */
static void on_alarm(int sig) { (void)sig; }
static void deadline(unsigned seconds) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  alarm(seconds);
}

static void in_dir(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static int is_kind(const char *path, mode_t kind, int follow) {
  struct stat sb;
  if ((follow ? stat(path, &sb) : lstat(path, &sb)) != 0) return 0;
  return (sb.st_mode & S_IFMT) == kind;
}

/* no "<path>.tmp" left beside path */
static int no_tmp(const char *path) {
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  struct stat sb;
  return lstat(tmp, &sb) != 0;
}

TEST(file_write_into_fifo_with_reader) {
  char fifo[300];
  in_dir(fifo, sizeof fifo, "fifo");
  CHECK(mkfifo(fifo, 0600) == 0);
  int rd = open(fifo, O_RDONLY | O_NONBLOCK);   /* a reader, so the write goes through */
  CHECK(rd >= 0);
  CHECK_OK(keel_file_write_atomic(fifo, "through\n", 8));
  char buf[32] = { 0 };
  CHECK_INT(read(rd, buf, sizeof buf), 8);
  CHECK(memcmp(buf, "through\n", 8) == 0);
  close(rd);
  CHECK(is_kind(fifo, S_IFIFO, 0));              /* still the FIFO, not a regular file */
  CHECK(no_tmp(fifo));
  unlink(fifo);
}

TEST(file_write_fifo_without_reader_fails_at_once) {
  char fifo[300];
  in_dir(fifo, sizeof fifo, "lonely");
  CHECK(mkfifo(fifo, 0600) == 0);
  errno = 0;
  deadline(2);
  CHECK_INT(keel_file_write_atomic(fifo, "x", 1), KEEL_E_IO);   /* no waiting for a reader */
  CHECK_INT(errno, ENXIO);
  alarm(0);
  CHECK(is_kind(fifo, S_IFIFO, 0));
  CHECK(no_tmp(fifo));
  unlink(fifo);
}

TEST(file_write_into_character_device_through_link) {
  char link[300];
  in_dir(link, sizeof link, "null");
  CHECK(symlink("/dev/null", link) == 0);
  CHECK_OK(keel_file_write_atomic(link, "gone\n", 5));
  CHECK(is_kind(link, S_IFLNK, 0));              /* the link stays a link */
  CHECK(is_kind(link, S_IFCHR, 1));              /* to the device */
  CHECK(is_kind("/dev/null", S_IFCHR, 0));
  CHECK(no_tmp(link));
  unlink(link);
}

TEST(file_write_symlink_writes_target_keeps_link) {
  char target[300], link[300];
  in_dir(target, sizeof target, "target.save");
  in_dir(link, sizeof link, "link.save");
  CHECK_OK(keel_file_write_atomic(target, "old\n", 4));
  CHECK(chmod(target, 0600) == 0);
  CHECK(symlink("target.save", link) == 0);      /* relative, as links often are */
  CHECK_OK(keel_file_write_atomic(link, "new!\n", 5));
  CHECK(is_kind(link, S_IFLNK, 0));
  char *data; size_t len;
  CHECK_OK(keel_file_read(target, 100, &data, &len));
  CHECK(len == 5 && memcmp(data, "new!\n", 5) == 0);
  free(data);
  struct stat sb;
  CHECK(stat(target, &sb) == 0 && (sb.st_mode & 07777) == 0600);   /* the target keeps its mode */
  CHECK(no_tmp(link));
  CHECK(no_tmp(target));
  unlink(link);
  unlink(target);
}

TEST(file_write_dangling_link_directory_refused) {
  char link[300], sub[300];
  in_dir(link, sizeof link, "dangling");
  in_dir(sub, sizeof sub, "sub");
  CHECK(symlink("nowhere", link) == 0);
  errno = 0;
  CHECK_INT(keel_file_write_atomic(link, "x", 1), KEEL_E_IO);
  CHECK_INT(errno, ENOENT);
  CHECK(is_kind(link, S_IFLNK, 0));
  char nowhere[300];
  in_dir(nowhere, sizeof nowhere, "nowhere");
  CHECK(access(nowhere, F_OK) != 0);             /* nothing made through it */
  CHECK(mkdir(sub, 0700) == 0);
  errno = 0;
  CHECK_INT(keel_file_write_atomic(sub, "x", 1), KEEL_E_IO);
  CHECK_INT(errno, EISDIR);
  CHECK(is_kind(sub, S_IFDIR, 0));
  CHECK(no_tmp(sub));
  unlink(link);
  rmdir(sub);
}

TEST(file_read_refuses_fifo_and_device_at_once) {
  char fifo[300], link[300];
  in_dir(fifo, sizeof fifo, "feed");
  in_dir(link, sizeof link, "zero");
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK(symlink("/dev/zero", link) == 0);
  char *data = (char *)1; size_t len = 7;
  /* the open itself would wait for a writer; refused without one */
  deadline(2);
  CHECK_INT(keel_file_read(fifo, 100, &data, &len), KEEL_E_NOT_REGULAR);
  alarm(0);
  CHECK(data == NULL && len == 0);
  CHECK_INT(keel_file_read(link, 100, &data, &len), KEEL_E_NOT_REGULAR);
  CHECK_STR(keel_file_reason(KEEL_E_NOT_REGULAR, 0), "not a regular file");
  CHECK_STR(keel_status_str(KEEL_E_NOT_REGULAR), "not a regular file");
  CHECK(is_kind(fifo, S_IFIFO, 0));
  unlink(fifo);
  unlink(link);
}

TEST(file_read_regular_through_link) {
  char target[300], link[300];
  in_dir(target, sizeof target, "map.txt");
  in_dir(link, sizeof link, "map-link.txt");
  CHECK_OK(keel_file_write_atomic(target, "hexes\n", 6));
  CHECK(symlink(target, link) == 0);
  char *data; size_t len;
  CHECK_OK(keel_file_read(link, 100, &data, &len));
  CHECK(len == 6 && memcmp(data, "hexes\n", 6) == 0);
  free(data);
  unlink(link);
  unlink(target);
}

int main(void) {
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
  RUN(file_write_into_fifo_with_reader);
  RUN(file_write_fifo_without_reader_fails_at_once);
  RUN(file_write_into_character_device_through_link);
  RUN(file_write_symlink_writes_target_keeps_link);
  RUN(file_write_dangling_link_directory_refused);
  RUN(file_read_refuses_fifo_and_device_at_once);
  RUN(file_read_regular_through_link);
  rmdir(dir);
  return check_report();
}
