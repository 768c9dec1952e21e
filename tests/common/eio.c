/* An LD_PRELOAD library that makes one step of a write fail with EIO, the
 * way a failing disk or a network file system does, for tests/faults.rs.
 *
 * A step is any call that changes the file system: opening a file for
 * writing, write, fsync, rename, unlink, mkdir, rmdir, truncate, chmod, link.
 * Writes to standard input, output and error are not steps.
 *
 *   GSD_EIO_AT=N    the Nth step fails, every other one runs;
 *   GSD_EIO_FROM=N  the Nth step and every later one fail (so an undo
 *                   fails too);
 *   GSD_EIO_LOG=F   at exit, "<steps> <failed>" is written to F.
 *
 * The variables are read once, and LD_PRELOAD is removed from the
 * environment, so a child process runs unharmed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long fail_at, fail_from, steps, failed;
static char log_path[4096];

__attribute__((constructor)) static void eio_init(void) {
  const char *v;
  if ((v = getenv("GSD_EIO_AT"))) fail_at = atol(v);
  if ((v = getenv("GSD_EIO_FROM"))) fail_from = atol(v);
  if ((v = getenv("GSD_EIO_LOG"))) snprintf(log_path, sizeof log_path, "%s", v);
  unsetenv("LD_PRELOAD");
}

__attribute__((destructor)) static void eio_fini(void) {
  char line[64];
  int fd, n;
  if (!log_path[0]) return;
  fd = (int)syscall(SYS_openat, AT_FDCWD, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  n = snprintf(line, sizeof line, "%ld %ld\n", steps, failed);
  syscall(SYS_write, fd, line, (size_t)n);
  syscall(SYS_close, fd);
}

/* Count a step; true when it is to fail (errno is then EIO). */
static int fails(void) {
  long n = __atomic_add_fetch(&steps, 1, __ATOMIC_SEQ_CST);
  if ((fail_at && n == fail_at) || (fail_from && n >= fail_from)) {
    __atomic_add_fetch(&failed, 1, __ATOMIC_SEQ_CST);
    errno = EIO;
    return 1;
  }
  return 0;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static int writes(int flags) {
  return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0;
}

#define OPEN_LIKE(name, ...)                                         \
  int name(__VA_ARGS__, int flags, ...) {                            \
    mode_t mode = 0;                                                 \
    if (flags & (O_CREAT | O_TMPFILE)) {                             \
      va_list ap;                                                    \
      va_start(ap, flags);                                           \
      mode = va_arg(ap, mode_t);                                     \
      va_end(ap);                                                    \
    }                                                                \
    if (writes(flags) && fails()) return -1;
OPEN_LIKE(open, const char *path)
  return REAL(open)(path, flags, mode);
}
OPEN_LIKE(open64, const char *path)
  return REAL(open64)(path, flags, mode);
}
OPEN_LIKE(openat, int dir, const char *path)
  return REAL(openat)(dir, path, flags, mode);
}
OPEN_LIKE(openat64, int dir, const char *path)
  return REAL(openat64)(dir, path, flags, mode);
}

ssize_t write(int fd, const void *buf, size_t n) {
  if (fd > 2 && fails()) return -1;
  return REAL(write)(fd, buf, n);
}
ssize_t pwrite(int fd, const void *buf, size_t n, off_t at) {
  if (fails()) return -1;
  return REAL(pwrite)(fd, buf, n, at);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t at) {
  if (fails()) return -1;
  return REAL(pwrite64)(fd, buf, n, at);
}
ssize_t writev(int fd, const struct iovec *iov, int count) {
  if (fd > 2 && fails()) return -1;
  return REAL(writev)(fd, iov, count);
}
int fsync(int fd) { return fails() ? -1 : REAL(fsync)(fd); }
int fdatasync(int fd) { return fails() ? -1 : REAL(fdatasync)(fd); }
int ftruncate(int fd, off_t len) { return fails() ? -1 : REAL(ftruncate)(fd, len); }
int ftruncate64(int fd, off64_t len) { return fails() ? -1 : REAL(ftruncate64)(fd, len); }
int rename(const char *a, const char *b) { return fails() ? -1 : REAL(rename)(a, b); }
int renameat(int da, const char *a, int db, const char *b) {
  return fails() ? -1 : REAL(renameat)(da, a, db, b);
}
int renameat2(int da, const char *a, int db, const char *b, unsigned int f) {
  return fails() ? -1 : REAL(renameat2)(da, a, db, b, f);
}
int unlink(const char *p) { return fails() ? -1 : REAL(unlink)(p); }
int unlinkat(int d, const char *p, int f) { return fails() ? -1 : REAL(unlinkat)(d, p, f); }
int rmdir(const char *p) { return fails() ? -1 : REAL(rmdir)(p); }
int mkdir(const char *p, mode_t m) { return fails() ? -1 : REAL(mkdir)(p, m); }
int mkdirat(int d, const char *p, mode_t m) { return fails() ? -1 : REAL(mkdirat)(d, p, m); }
int chmod(const char *p, mode_t m) { return fails() ? -1 : REAL(chmod)(p, m); }
int fchmod(int fd, mode_t m) { return fails() ? -1 : REAL(fchmod)(fd, m); }
int link(const char *a, const char *b) { return fails() ? -1 : REAL(link)(a, b); }
int symlink(const char *a, const char *b) { return fails() ? -1 : REAL(symlink)(a, b); }
