/*
 * od-sandbox: the kernel's wall under od's modes, on Linux.
 *
 * od starts this small program in place of an agent; it restricts itself, then
 * execs the agent, which keeps the restriction (and the pid, the process group,
 * the environment, the pipes) for its whole life, and so does everything the
 * agent starts. Bun cannot run code between fork and exec, hence a helper;
 * C, because the calls below need a single-threaded process and must cost
 * nothing beside the agent (about a millisecond, see `npm run bench`).
 *
 *   od-sandbox --probe
 *       prints "landlock=<ABI> protect=<0|1>": the Landlock ABI this kernel
 *       offers (0: none) and whether -p can work here (a private mount
 *       namespace in a user namespace of one's own).
 *   od-sandbox --reap KEY=VALUE
 *       the sentinel (src/core/os/sentinel.ts): reads stdin until od's end of
 *       it closes (however od dies), then ends every process of this user whose
 *       environment holds KEY=VALUE (od's owner mark): SIGTERM, and SIGKILL to
 *       what is left after half a second, for at most a second and a half.
 *   od-sandbox [-w PATH]... [-p PATH]... -- PROGRAM [ARG]...
 *       -w PATH  PROGRAM may write beneath PATH (a folder), or to PATH (a file);
 *                nowhere else. A PATH that does not exist is skipped.
 *       -p PATH  PATH stays read-only even beneath a -w folder (a read-only
 *                bind mount of it over itself, in a mount namespace of the
 *                agent's own): the .git of a working directory in edit mode.
 *
 * Writes elsewhere fail as the agent sees them: EACCES (Landlock) or EROFS (-p).
 * Reading and running programs are not restricted. With Landlock ABI 6 the
 * agent cannot signal processes outside its sandbox either (od, the user's).
 * A sandboxed process cannot mount or unmount (Landlock), so -p cannot be undone.
 *
 * Exit status when the sandbox cannot be made: 125, with the reason on stderr.
 * When PROGRAM cannot be run: 127 (not found) or 126, as a shell says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Landlock's interface, written out so that older kernel headers build it too (the numbers are the same on every architecture). */
#define SYS_ll_create_ruleset 444
#define SYS_ll_add_rule 445
#define SYS_ll_restrict_self 446
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define FS_WRITE_FILE (1ULL << 1)
#define FS_REMOVE_DIR (1ULL << 4)
#define FS_REMOVE_FILE (1ULL << 5)
#define FS_MAKE_CHAR (1ULL << 6)
#define FS_MAKE_DIR (1ULL << 7)
#define FS_MAKE_REG (1ULL << 8)
#define FS_MAKE_SOCK (1ULL << 9)
#define FS_MAKE_FIFO (1ULL << 10)
#define FS_MAKE_BLOCK (1ULL << 11)
#define FS_MAKE_SYM (1ULL << 12)
#define FS_REFER (1ULL << 13)    /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define SCOPE_SIGNAL (1ULL << 1) /* ABI 6 */

struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#define MAX_PATHS 256

static void die(const char *what, const char *path) {
  fprintf(stderr, "od-sandbox: %s%s%s: %s\n", what, path ? " " : "", path ? path : "", strerror(errno));
  exit(125);
}

static int landlock_abi(void) {
  long abi = syscall(SYS_ll_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : (int)abi;
}

/* Every write-like right this ABI knows: what the ruleset handles, and so denies unless a rule grants it. */
static uint64_t write_rights(int abi) {
  uint64_t rights = FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG | FS_MAKE_SOCK |
                    FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM;
  if (abi >= 2) rights |= FS_REFER;
  if (abi >= 3) rights |= FS_TRUNCATE;
  if (abi >= 5) rights |= FS_IOCTL_DEV;
  return rights;
}

static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  int saved = errno;
  close(fd);
  errno = saved;
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A mount namespace of our own, in a user namespace of our own (no privilege needed), our ids mapped to themselves. */
static int own_mount_namespace(void) {
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return -1;
  char map[64];
  if (write_file("/proc/self/setgroups", "deny") != 0) return -1;
  snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
  if (write_file("/proc/self/uid_map", map) != 0) return -1;
  snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
  if (write_file("/proc/self/gid_map", map) != 0) return -1;
  /* Our mounts stay ours; the host's still reach us. */
  return mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL);
}

/* PATH read-only: bound over itself, then remounted read-only, keeping the flags a user namespace may not clear. */
static int protect(const char *path) {
  struct statvfs vfs;
  if (statvfs(path, &vfs) != 0) return -1;
  unsigned long keep = 0;
  if (vfs.f_flag & ST_NOSUID) keep |= MS_NOSUID;
  if (vfs.f_flag & ST_NODEV) keep |= MS_NODEV;
  if (vfs.f_flag & ST_NOEXEC) keep |= MS_NOEXEC;
  if (vfs.f_flag & ST_NOATIME) keep |= MS_NOATIME;
  if (vfs.f_flag & ST_NODIRATIME) keep |= MS_NODIRATIME;
  if (vfs.f_flag & ST_RELATIME) keep |= MS_RELATIME;
  if (mount(path, path, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
  return mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | keep, NULL);
}

/* Whether -p can work here: tried in this (throwaway) process, on a folder every system has. */
static int can_protect(void) {
  return own_mount_namespace() == 0 && protect("/tmp") == 0;
}

static void allow(int ruleset, const char *path, uint64_t rights) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return;
    die("cannot open", path);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) die("cannot stat", path);
  /* A file takes only the rights that concern a file. */
  struct ll_path_beneath_attr rule = {
      .allowed_access = S_ISDIR(st.st_mode) ? rights : rights & (FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV),
      .parent_fd = fd,
  };
  if (syscall(SYS_ll_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) != 0) die("cannot allow", path);
  close(fd);
}

/* Whether the NUL-separated environment in buf (n bytes) holds entry as a whole entry. */
static int holds(const char *buf, size_t n, const char *entry) {
  size_t len = strlen(entry);
  for (size_t at = 0; at < n;) {
    size_t end = at;
    while (end < n && buf[end] != '\0') end++;
    if (end - at == len && memcmp(buf + at, entry, len) == 0) return 1;
    at = end + 1;
  }
  return 0;
}

/* Signals every process of ours (this one aside) that carries mark; returns how many there were. */
static int signal_marked(const char *mark, int sig) {
  static char buf[1 << 17];
  DIR *proc = opendir("/proc");
  if (!proc) return 0;
  int found = 0;
  uid_t uid = getuid();
  pid_t self = getpid();
  struct dirent *d;
  while ((d = readdir(proc)) != NULL) {
    if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
    pid_t pid = (pid_t)atoi(d->d_name);
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d", (int)pid);
    if (pid == self || stat(path, &st) != 0 || st.st_uid != uid) continue;
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue; /* gone meanwhile, or not ours to read */
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (n > 0 && holds(buf, (size_t)n, mark)) {
      found++;
      kill(pid, sig);
    }
  }
  closedir(proc);
  return found;
}

static long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* The sentinel: waits for EOF on stdin, then the reap of reap.ts (SIGTERM, then SIGKILL), polled every 20 ms. */
static int sentinel(const char *mark) {
  char sink[512];
  int flags = fcntl(0, F_GETFL);
  if (flags >= 0) fcntl(0, F_SETFL, flags & ~O_NONBLOCK); /* wait in read(), never spin */
  for (;;) {
    ssize_t n = read(0, sink, sizeof sink);
    if (n == 0 || (n < 0 && errno != EINTR)) break; /* EOF, or an error that will not pass: od is gone either way */
  }
  long start = now_ms();
  for (;;) {
    long elapsed = now_ms() - start;
    if (elapsed >= 1500) return 0;
    if (signal_marked(mark, elapsed >= 500 ? SIGKILL : SIGTERM) == 0) return 0;
    struct timespec poll = {0, 20 * 1000000L};
    nanosleep(&poll, NULL);
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--reap") == 0) return sentinel(argv[2]);
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
    int abi = landlock_abi();
    printf("landlock=%d protect=%d\n", abi, can_protect() ? 1 : 0);
    return 0;
  }
  const char *writable[MAX_PATHS], *protected[MAX_PATHS];
  int nw = 0, np = 0, i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
    if (i + 1 >= argc || (strcmp(argv[i], "-w") != 0 && strcmp(argv[i], "-p") != 0)) {
      fprintf(stderr, "usage: od-sandbox [-w PATH]... [-p PATH]... -- PROGRAM [ARG]...\n");
      return 125;
    }
    if (nw >= MAX_PATHS || np >= MAX_PATHS) {
      fprintf(stderr, "od-sandbox: more than %d paths\n", MAX_PATHS);
      return 125;
    }
    if (argv[i][1] == 'w') writable[nw++] = argv[i + 1];
    else protected[np++] = argv[i + 1];
  }
  if (i + 1 >= argc) {
    fprintf(stderr, "usage: od-sandbox [-w PATH]... [-p PATH]... -- PROGRAM [ARG]...\n");
    return 125;
  }
  char **program = &argv[i + 1];

  int abi = landlock_abi();
  if (abi < 1) {
    errno = ENOSYS;
    die("Landlock is not available", NULL);
  }
  if (np > 0) {
    if (own_mount_namespace() != 0) die("cannot make a mount namespace", NULL);
    for (int k = 0; k < np; k++)
      if (protect(protected[k]) != 0 && errno != ENOENT) die("cannot make read-only", protected[k]);
  }

  struct ll_ruleset_attr attr = {.handled_access_fs = write_rights(abi), .scoped = abi >= 6 ? SCOPE_SIGNAL : 0};
  /* ABI 1-3 know only the first field, 4-5 the first two; a larger size with zeros beyond is accepted too. */
  size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  int ruleset = (int)syscall(SYS_ll_create_ruleset, &attr, size, 0);
  if (ruleset < 0) die("cannot create the Landlock ruleset", NULL);
  for (int k = 0; k < nw; k++) allow(ruleset, writable[k], attr.handled_access_fs);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("cannot set no_new_privs", NULL);
  if (syscall(SYS_ll_restrict_self, ruleset, 0) != 0) die("cannot restrict itself", NULL);
  close(ruleset);

  execvp(program[0], program);
  int err = errno;
  fprintf(stderr, "od-sandbox: cannot run %s: %s\n", program[0], strerror(err));
  return err == ENOENT ? 127 : 126;
}
