/*
 * util.h - small shared helpers: checked allocation, files, clocks, strings.
 *
 * Error convention (as everywhere in parscope's internals): functions that
 * can fail return 0 / -1 (or NULL) and write a message naming the file or
 * option into a caller-provided buffer `err` of `errlen` bytes.
 */
#ifndef PS_UTIL_H
#define PS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Allocation that ends the process with "parscope: out of memory" (exit 1)
 * instead of returning NULL.  For paths where recovery makes no sense. */
void *ps_xmalloc(size_t n);
void *ps_xcalloc(size_t n, size_t size);
void *ps_xrealloc(void *p, size_t n);
char *ps_xstrdup(const char *s);
char *ps_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What they do when memory runs out: the message, exit 1. */
void ps_oom(void) __attribute__((noreturn));

/* Appends to buf[*n..len) what printf makes of fmt, *n advanced; stops
 * quietly when full (the text cut, always terminated). */
void ps_bufadd(char *buf, size_t len, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Room for `need` elements of `size` bytes in the array v of capacity *cap:
 * v itself when it has room, else v reallocated to twice its capacity (at
 * least `initial`, and need) with *cap updated.  NULL when out of memory, v
 * left as it was. */
void *ps_grow(void *v, size_t *cap, size_t need, size_t size, size_t initial);

/* Seconds on the monotonic clock. */
double ps_clock(void);
/* Seconds since the epoch (wall clock), and an ISO 8601 UTC stamp. */
double ps_epoch(void);
void ps_iso_time(char *buf, size_t len);

/* Creates a directory and its parents (mode 0777 & umask); 0 or -1. */
int ps_mkdirs(const char *path, char *err, size_t errlen);
int ps_is_dir(const char *path);
int ps_file_exists(const char *path);

/* Reads fd to its end into a NUL-terminated buffer (*len bytes before the
 * terminator): more than max bytes is NULL with errno E2BIG; with
 * stop_at_nul, no further than the read that brought the first NUL byte
 * (its reader reports it, and /dev/zero ends at once).  NULL with errno set
 * on a failed read or allocation (ENOMEM). */
char *ps_read_fd(int fd, size_t max, int stop_at_nul, size_t *len);
/* Reads a whole file (NUL-terminated); NULL on failure with err set. */
char *ps_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* The same for a file that must be text (a .loop, a configuration, a
 * machine model): one holding a NUL byte is refused with err naming the
 * line and column ("FILE:1:14: a NUL byte: not a text file"). */
char *ps_read_text(const char *path, size_t *len, char *err, size_t errlen);
/* Writes a whole file by the rules of util/output.h: a regular file
 * atomically (temporary file beside it, fsync, rename), nothing left
 * half-written on failure; '-', a device, a FIFO or /dev/stdout in place. */
int ps_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Formats a file in memory with fn(f, ctx) (0, or -1 for a formatting
 * failure) and writes it with ps_write_file: nothing half-written. */
int ps_write_formatted(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen);

/* A program by name: with a '/' the file itself, else the first on PATH;
 * it must be a regular executable file.  1 (path in out) or 0. */
int ps_find_program(const char *name, char *out, size_t len);

/* Creates a fresh temporary directory under $TMPDIR (or /tmp); caller frees. */
char *ps_mktempdir(const char *prefix, char *err, size_t errlen);
/* Removes a directory tree (best effort). */
void ps_rmtree(const char *path);

/* The path of `target` relative to directory `from_dir` (both must exist;
 * else target as given).  Caller frees. */
char *ps_relpath(const char *from_dir, const char *target);
/* target relative to the directory that holds file (a JSON naming it). */
char *ps_relpath_beside(const char *file, const char *target);

/* A workload's name as results give it: a .loop file by its base name
 * without the extension ("./dir/w.loop" is "w"); any other name as it is,
 * without its directory. */
void ps_workload_key(const char *workload, char *buf, size_t len);

/* Formats err like snprintf. */
void ps_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Parsing numbers from options: whole string must be a number in range.
 * 0 or -1. */
int ps_parse_long(const char *s, long min, long max, long *out);
int ps_parse_double(const char *s, double *out);
/* The first empty element of a comma-separated list ("a,,b", ",a", "a,", ""):
 * its position from 1 with what it is in why ("two commas in a row"), or 0
 * when every element holds something (strtok would skip empty ones). */
int ps_list_empty_element(const char *s, const char **why);

/* Human-friendly time: "12.3 us", "4.56 ms", "1.23 s". */
void ps_fmt_time(char *buf, size_t len, double seconds);
void ps_fmt_bytes(char *buf, size_t len, double bytes);

/* Environment-switched debug logging: PARSCOPE_DEBUG=1 prints to stderr. */
void ps_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The cache levels of a machine meta (docs/OUTPUTS.md): "L1d" (level 1 data
 * or unified), "L2", "L3", "L4"; results key their caches by these names. */
#define PS_CACHE_LEVELS 4
extern const char *const ps_cache_level_names[PS_CACHE_LEVELS];

/* Zeroed memory of its own mapping (freed with munmap(p, bytes)), asking for
 * 2 MB pages from 2 MB on: memory read at random, a record or a slot per
 * step, misses the TLB on nearly every access with 4 KB pages (a two-level
 * page walk in a VM), and with 4 KB pages every 4 KB first written is a
 * page fault (~10 us in a VM).  The kernel gives them where it can
 * (transparent huge pages, "madvise").  NULL when mapping fails. */
void *ps_map_huge(size_t bytes);
/* Such a mapping (p of old bytes; NULL: none yet) grown to bytes in place
 * where the kernel can, else moved without a copy of the pages (mremap):
 * only the memory added is touched.  NULL when it fails (p then stays). */
void *ps_remap_huge(void *p, size_t old, size_t bytes);

/* Sorting and order statistics of doubles (the array is sorted in place). */
void   ps_sort_doubles(double *v, size_t n);
/* A double's bits as an unsigned key in the same order (negatives, whose
 * bits count down, reversed; -0 before +0), and back. */
uint64_t ps_double_key(double x);
double   ps_key_double(uint64_t k);
double ps_median(double *v, size_t n);

/* A count over time (a queue's length, the ranks busy at once) as its
 * changes: by d (+1 an arrival, -1 a departure) at instant t. */
typedef struct ps_count_step {
    double t;
    int    d;
} ps_count_step;
/* Sorts steps by time; at one instant departures come before arrivals, so
 * one leaving as another comes does not count both at once. */
void ps_sort_count_steps(ps_count_step *v, size_t n);

#endif
