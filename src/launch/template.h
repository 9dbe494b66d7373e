/*
 * template.h - launcher templates: words, placeholders, the hostfile.
 *
 * A template ("srun -n {ranks}", "mpiexec -f {hostfile} -n {ranks}") is split
 * into words as a POSIX shell splits a simple command, without running one:
 * blanks separate words; '...' keeps its text as it is; "..." keeps its text
 * but for \" \\ \$ \` which lose their backslash; outside quotes a backslash
 * keeps the next character.  Then, inside each word, {ranks} becomes the rank
 * count and {hostfile} the path of a file parscope writes for the job: one
 * line per rank, the host rank r runs on on line r + 1 (the format of Open
 * MPI's sequential mapper, --map-by seq; of MPICH's -f; of Slurm's
 * SLURM_HOSTFILE with --distribution=arbitrary).  The hosts come from
 * PARSCOPE_HOSTS ("HOST[:SLOTS],...") and PARSCOPE_MAP (round-robin: rank r
 * on host r mod H; block: each host's SLOTS ranks in turn).
 */
#ifndef PS_LAUNCH_TEMPLATE_H
#define PS_LAUNCH_TEMPLATE_H

#include <stddef.h>

/* Splits s into a NULL-terminated array of words (caller frees each and the
 * array).  0, or -1 with err naming the column of an unterminated quote or
 * a trailing backslash. */
int ps_split_words(const char *s, char ***words, int *nwords, char *err, size_t errlen);

/* The host of every rank, from hosts_spec (PARSCOPE_HOSTS syntax) and map
 * ("round-robin", "block"; NULL = round-robin).  hosts[r] points into a
 * string owned by the caller-freed *storage.  0, or -1 with err. */
int ps_rank_hosts(const char *hosts_spec, const char *map, int ranks, const char ***hosts, char **storage,
                  char *err, size_t errlen);

/* The placeholders a template may hold, for messages. */
#define PS_TEMPLATE_PLACEHOLDERS "{ranks} the rank count, {hostfile} a file naming each rank's host"

/* Checks a template without expanding it: its words split, and every
 * {name} in them a known placeholder ({rank} or {np} is a mistake the
 * launcher would otherwise get as text).  0, or -1 with err naming src, the
 * template and the unknown placeholder, and listing the known ones. */
int ps_template_check(const char *tmpl, const char *src, char *err, size_t errlen);

/* Expands a template for a job of `ranks` ranks: words with {ranks} and
 * {hostfile} replaced.  When {hostfile} occurs, the file is written under
 * $TMPDIR and *hostfile is its path (the caller removes it after the job and
 * frees the string); else *hostfile is NULL.  *has_ranks tells whether
 * {ranks} occurred.  `src` names the template's origin in messages. */
int ps_template_expand(const char *tmpl, const char *src, int ranks, char ***words, int *nwords, int *has_ranks,
                       char **hostfile, char *err, size_t errlen);

#endif
