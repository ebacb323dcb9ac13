/* outfile.c -- the tool's output files, never half-written: bytes go to a
 * temporary file created in the target's own directory, which is renamed
 * over the target only when everything was written.  Targets that are not
 * regular files (/dev/null, /dev/full, FIFOs, a terminal) are written in
 * place, since they cannot be replaced, and so is the file the standard
 * output already writes to (`-o /dev/stdout > file`).  A symbolic link's
 * target is replaced, not the link.  The temporary file gets the
 * target's mode without touching the process's umask.  One allocation a
 * file: the handle holds its paths and its buffer.  The file a rename
 * replaces is let go of through util/tuning.h (its pages dropped by the
 * system beside the run's end, where a run lets go beside it), and there
 * the file replacing it is written back as it is written.
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define _GNU_SOURCE /* O_PATH */
#else
/* realpath: POSIX.1-2008's, which glibc declares only with XSI */
#define _XOPEN_SOURCE 700
#endif
#include "outfile.h"

#include "util/tuning.h"

#include <stdarg.h>
#include <stdio.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(O_PATH)
#include <sys/vfs.h> /* fstatfs */
#endif

/* OUT_BUF: bytes buffered before a write; TEMP_EXTRA: what a temporary
 * path adds to its target's ("." before the base, "." and six letters
 * after, NUL). */
enum { OUT_BUF = 1 << 16, TEMP_EXTRA = 16 };

/* Bytes written before the first writeback started (tuning_write_back),
 * and between two: the first early, so that a file of a few MiB (the
 * 10 MB stretch's 1.2 MB CSV) is written back beside the writing, not in
 * the rename (0.15 ms there), and the let-go thread is started by then;
 * the others 8 MiB apart (a call for 8 MiB takes about 0.5 ms). */
#define WRITE_BACK_FIRST ((long long)1 << 20)
#define WRITE_BACK_STEP ((long long)8 << 20)

struct outfile {
  int fd;           /* the temporary file (or the target in place) */
  char *path;       /* target path; in names */
  char *tmp;        /* temporary path; in names; NULL when in place */
  size_t used;      /* bytes in buf */
  int failed_errno; /* first write error; 0 = none */
  int write_back;   /* start its writeback as it is written */
  long long written, written_back; /* bytes written; written back from 0 */
  unsigned char buf[OUT_BUF];      /* pending bytes */
  char names[];                    /* path, then room for the temporary path */
};

/* Records a failure in *err (the library's hp2x_err, which the tool's
 * messages print); returns code. */
__attribute__((format(printf, 3, 4))) static hp2x_status fail(hp2x_err *err,
                                                              hp2x_status code,
                                                              const char *fmt,
                                                              ...) {
  if (err && err->code == HP2X_OK) {
    err->code = code;
    err->line = 0;
    err->offset = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* Writes the path of a temporary file beside target "DIR/BASE" into t (of
 * size n): "DIR/.BASE." and six placeholder letters, which open_temp_file
 * overwrites. */
static void make_temp_template(char *t, size_t n, const char *path) {
  const char *slash = strrchr(path, '/');
  size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dir_len;
  memcpy(t, path, dir_len);
  snprintf(t + dir_len, n - dir_len, ".%s.%s", base, "tmpnam");
}

/* Opens f->path itself for writing (a target that is not a regular file,
 * or a link that realpath cannot follow to a name). */
static hp2x_status open_in_place(outfile *f, hp2x_err *err) {
  f->fd = open(f->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (f->fd < 0)
    return fail(err, HP2X_E_IO, "cannot open for writing: %s", strerror(errno));
  return HP2X_OK;
}

/* Writes f through a copy of descriptor `std`, the standard output or
 * error already open on the target: at its offset and in its mode (a
 * shell's `>>` appends), not replaced, or the shell's file would be left
 * empty. */
static hp2x_status open_std_output(outfile *f, int std, hp2x_err *err) {
  f->fd = fcntl(std, F_DUPFD_CLOEXEC, 3);
  if (f->fd < 0)
    return fail(err, HP2X_E_IO, "cannot open for writing: %s", strerror(errno));
  return HP2X_OK;
}

/* Writes six letters from `seed` over the template's last six. */
static void fill_temp_letters(char *tmp, uint64_t seed) {
  static const char letters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char *x = tmp + strlen(tmp) - 6;
  for (int i = 0; i < 6; i++) {
    x[i] = letters[seed % (sizeof letters - 1)];
    seed /= sizeof letters - 1;
  }
}

/* Creates f's temporary file beside f->path.  Its mode is the one the
 * target ends up with: an existing target's own (`keep_mode`), else what a
 * plain open gives a new file (0666 less the umask, which open applies
 * itself: the process's umask is never read or changed, so another
 * thread's files are not affected).  Names are tried until one is free
 * (O_EXCL), as mkstemp does; the seed mixes the time, the process and the
 * handle's address, so no state is shared between calls. */
static hp2x_status open_temp_file(outfile *f, const mode_t *keep_mode,
                                  hp2x_err *err) {
  size_t len = strlen(f->path);
  f->tmp = f->names + len + 1;
  make_temp_template(f->tmp, len + TEMP_EXTRA, f->path);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t seed = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^
                  ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)f;
  int e = EEXIST;
  for (int attempt = 0; attempt < 1000 && e == EEXIST; attempt++) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    fill_temp_letters(f->tmp, seed >> 16);
    f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                 keep_mode ? 0600 : 0666);
    e = f->fd < 0 ? errno : 0;
  }
  if (f->fd >= 0 && keep_mode && fchmod(f->fd, *keep_mode) != 0) {
    e = errno;
    close(f->fd);
    f->fd = -1;
    unlink(f->tmp);
  }
  if (f->fd < 0) {
    f->tmp = NULL;
    return fail(err, HP2X_E_IO,
                "cannot create a file in the output's directory: %s",
                strerror(e));
  }
  return HP2X_OK;
}

/* Whether fd's filesystem is one known to be local, where a rename over an
 * open file is one step: on NFS or AFS the client renames an open target
 * aside first (to a hidden .nfs name), so the output's name would be missing a
 * moment and a failed second step would lose the old file.  Unknown: not local.
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(O_PATH)
static int fs_type_in(int fd, const unsigned long *types, size_t n) {
  struct statfs fs;
  if (fstatfs(fd, &fs) != 0) return 0;
  for (size_t i = 0; i < n; i++)
    if ((unsigned long)fs.f_type == types[i]) return 1;
  return 0;
}

static int on_local_filesystem(int fd) {
  static const unsigned long local[] = {
      0xEF53,     /* ext2/3/4 */
      0x58465342, /* xfs */
      0x9123683E, /* btrfs */
      0xF2F52010, /* f2fs */
      0x01021994, /* tmpfs */
      0x794C7630, /* overlayfs (containers' root) */
  };
  return fs_type_in(fd, local, sizeof local / sizeof local[0]);
}

/* Whether a rename over a file on fd's filesystem writes the new file back
 * there and then: ext4 (auto_da_alloc) and btrfs. */
static int renames_write_back(int fd) {
  static const unsigned long eager[] = {0xEF53, 0x9123683E};
  return fs_type_in(fd, eager, sizeof eager / sizeof eager[0]);
}
#endif

/* Whether a temporary file fd, replacing a file, is written back as it is
 * written (write_back_some): where the run lets go beside it
 * (tuning_lets_go_beside), on ext4 and btrfs only.  On ext4
 * (auto_da_alloc) and btrfs the rename over a file would start the
 * writeback of all of it there and then: the 500 MB stretch's CSV, 61 MB,
 * took 3-15 ms of rename, and the replaced file's close then waited
 * behind its writing (bench/RESULTS.md, 14ag).  On tmpfs there is
 * nothing to write back, and on overlayfs (a container's root) the call
 * does nothing, its files' pages being the upper filesystem's (14ah):
 * neither is asked. */
static int writes_back_beside(int fd) {
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(O_PATH)
  return tuning_lets_go_beside() && renames_write_back(fd);
#else
  (void)fd;
  return 0;
#endif
}

/* The name the link at p names (a relative one from the link's
 * directory), malloc'd; NULL when p is no link or out of memory. */
static char *link_names(const char *p) {
  struct stat st;
  char to[4096];
  ssize_t n;
  if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) ||
      (n = readlink(p, to, sizeof to - 1)) < 0)
    return NULL;
  to[n] = '\0';
  const char *slash = strrchr(p, '/');
  size_t dir = to[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
  char *next = malloc(dir + (size_t)n + 1);
  if (next) {
    memcpy(next, p, dir);
    memcpy(next + dir, to, (size_t)n + 1);
  }
  return next;
}

/* The name a dangling link at `path` leads to, read link by link,
 * malloc'd: the file to make there through a temporary file renamed into
 * place, as for any new file, so that a failed run leaves nothing behind.
 * NULL after 40 links or when out of memory. */
static char *dangling_target(const char *path) {
  char *p = strdup(path);
  for (int hop = 0; p && hop < 40; hop++) {
    struct stat st;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char *next = link_names(p);
    free(p);
    p = next;
  }
  free(p);
  return NULL;
}

/* N when `path`, or a link it leads through, is spelt /dev/fd/N or
 * /proc/self/fd/N (/dev/stdout names /proc/self/fd/1), else -1. */
static int fd_spelt(const char *path) {
  static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
  char *p = strdup(path);
  int fd = -1;
  for (int hop = 0; p && fd < 0 && hop < 8; hop++) {
    for (size_t i = 0; i < 2 && fd < 0; i++) {
      size_t n = strlen(dirs[i]);
      const char *d = p + n;
      if (strncmp(p, dirs[i], n) == 0 && *d &&
          strspn(d, "0123456789") == strlen(d) && strlen(d) < 6)
        fd = atoi(d);
    }
    char *next = fd < 0 ? link_names(p) : NULL;
    free(p);
    p = next;
  }
  free(p);
  return fd;
}

/* The file an output named `path` goes to: a symbolic link's target (its
 * resolved path, malloc'd in *real), so that the link itself stays and
 * the file it names is replaced, as writing through it would; else path.
 * A link that names no file yet leads to the name it would make.  A link
 * realpath cannot follow to a name but that opens (/proc/self/fd/N of a
 * pipe) is written through in place. */
static const char *output_target(const char *path, char **real,
                                 int *through_link) {
  struct stat lst;
  *real = NULL;
  *through_link = 0;
  if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode)) return path;
  *real = realpath(path, NULL);
  if (!*real && stat(path, &lst) != 0 && errno == ENOENT)
    *real = dangling_target(path);
  if (*real) return *real;
  *through_link = 1;
  return path;
}

int outfile_std_output(const char *path, const struct stat *st) {
  int spelt = fd_spelt(path);
  int fds[] = {1, 2, spelt > 2 ? spelt : -1};
  for (size_t i = 0; i < 3; i++) {
    struct stat o;
    int fl = fds[i] < 0 ? -1 : fcntl(fds[i], F_GETFL);
    if (fl != -1 && (fl & O_ACCMODE) != O_RDONLY && fstat(fds[i], &o) == 0 &&
        o.st_dev == st->st_dev && o.st_ino == st->st_ino)
      return fds[i];
  }
  return -1;
}

hp2x_status outfile_open(const char *path, outfile **out, hp2x_err *err) {
  *out = NULL;
  char *real;
  int through_link;
  const char *target = output_target(path, &real, &through_link);
  size_t len = strlen(target);
  outfile *f = malloc(sizeof *f + 2 * len + 1 + TEMP_EXTRA);
  if (!f) {
    free(real);
    return fail(err, HP2X_E_NOMEM, "out of memory");
  }
  f->fd = -1;
  f->tmp = NULL;
  f->used = 0;
  f->failed_errno = 0;
  f->write_back = 0;
  f->written = f->written_back = 0;
  f->path = memcpy(f->names, target, len + 1);
  free(real);
  struct stat st;
  int exists = stat(f->path, &st) == 0;
  mode_t keep_mode = exists ? st.st_mode & 07777 : 0;
  int std = exists ? outfile_std_output(path, &st) : -1;
  hp2x_status s = std >= 0 ? open_std_output(f, std, err)
                  : through_link || (exists && !S_ISREG(st.st_mode))
                      ? open_in_place(f, err)
                      : open_temp_file(f, exists ? &keep_mode : NULL, err);
  if (s != HP2X_OK) {
    outfile_abort(f);
    return s;
  }
  f->write_back = exists && f->tmp && writes_back_beside(f->fd);
  *out = f;
  return HP2X_OK;
}

const char *outfile_temp_path(const outfile *f) { return f ? f->tmp : NULL; }

/* Has the system start writing back f's bytes as they are written (whole
 * pages; the first MiB, then each WRITE_BACK_STEP), when f replaces a
 * file (write_back). */
static void write_back_some(outfile *f) {
  long long step = f->written_back ? WRITE_BACK_STEP : WRITE_BACK_FIRST;
  if (!f->write_back || f->written - f->written_back < step) return;
  long long to = f->written & ~(long long)4095;
  tuning_write_back(f->fd, f->written_back, to);
  f->written_back = to;
}

/* Writes len bytes at b to the file; -1 with f->failed_errno set on
 * error. */
static int write_all(outfile *f, const unsigned char *b, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t n = write(f->fd, b + off, len - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      f->failed_errno = errno;
      return -1;
    }
    off += (size_t)n;
  }
  f->written += (long long)len;
  write_back_some(f);
  return 0;
}

/* Writes the buffered bytes out; -1 with f->failed_errno set on error. */
static int flush_buffer(outfile *f) {
  assert(f->used <= OUT_BUF);
  if (write_all(f, f->buf, f->used) != 0) return -1;
  f->used = 0;
  return 0;
}

int outfile_write(void *file, const void *buf, size_t len) {
  outfile *f = file;
  if (f->failed_errno) {
    errno = f->failed_errno;
    return -1;
  }
  const unsigned char *b = buf;
  if (len >= OUT_BUF) { /* a block goes out as it is, not copied */
    if (flush_buffer(f) != 0 || write_all(f, b, len) != 0) {
      errno = f->failed_errno;
      return -1;
    }
    return 0;
  }
  while (len) {
    size_t room = OUT_BUF - f->used;
    size_t n = len < room ? len : room;
    memcpy(f->buf + f->used, b, n);
    f->used += n;
    b += n;
    len -= n;
    if (f->used == OUT_BUF && flush_buffer(f) != 0) {
      errno = f->failed_errno;
      return -1;
    }
  }
  return 0;
}

hp2x_status outfile_finish(outfile *f, hp2x_err *err) {
  if (f->fd < 0) return HP2X_OK; /* finished already */
  int e = 0;
  if (f->failed_errno || flush_buffer(f) != 0) e = f->failed_errno;
  if (close(f->fd) != 0 && !e) e = errno;
  f->fd = -1;
  if (!e) return HP2X_OK;
  f->failed_errno = e;
  return fail(err, HP2X_E_IO, "write failed: %s", strerror(e));
}

/* Replaced files smaller than this are let go of in the rename: their
 * few pages cost less than a thread's start. */
#define HOLD_LEAST_BYTES ((off_t)1 << 20)

/* The seam for holding the file a rename replaces: on Linux, when the run
 * lets go beside it (tuning_lets_go_beside: only then is there a gain), a
 * reference to it opened without reading it (O_PATH: no permission
 * needed, nothing opened but the name's file), kept when it is a regular
 * file of one link and HOLD_LEAST_BYTES or more on a local filesystem, so
 * that the rename does not make the system let go of its cached pages
 * there and then: the close does (tuning_let_go_file).  Elsewhere (and
 * under PORTABLE=1) none, and the rename lets go of it as before. */
int outfile_hold_replaced(const char *path) {
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(O_PATH)
  if (!tuning_lets_go_beside()) return -1;
  int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 &&
      (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
       st.st_size < HOLD_LEAST_BYTES || !on_local_filesystem(fd))) {
    close(fd);
    fd = -1;
  }
  return fd;
#else
  (void)path;
  return -1;
#endif
}

hp2x_status outfile_commit(outfile *f, hp2x_err *err) {
  hp2x_status st = outfile_finish(f, err);
  if (st == HP2X_OK && f->failed_errno) /* a finish that failed before */
    st = fail(err, HP2X_E_IO, "write failed: %s", strerror(f->failed_errno));
  if (st == HP2X_OK && f->tmp) {
    int replaced = outfile_hold_replaced(f->path);
    if (rename(f->tmp, f->path) != 0)
      st =
          fail(err, HP2X_E_IO, "cannot rename into place: %s", strerror(errno));
    tuning_let_go_file(replaced);
  }
  if (st != HP2X_OK && f->tmp) unlink(f->tmp);
  free(f);
  return st;
}

void outfile_abort(outfile *f) {
  if (!f) return;
  if (f->fd >= 0) close(f->fd);
  if (f->tmp) unlink(f->tmp);
  free(f);
}
