// Temporary files removed when the process is interrupted: an output is
// written to a temporary file beside it and renamed over it when complete;
// SIGINT, SIGTERM or SIGHUP in between would leave the temporary file.
#ifndef SCANTEXT_SIGNALS_H
#define SCANTEXT_SIGNALS_H

/// Registers `path` (a temporary file about to be created) to be removed
/// if the process is ended by SIGINT, SIGTERM or SIGHUP, and installs the
/// handlers on first use (only for signals whose action is the default: an
/// ignored signal stays ignored). Returns the slot to pass to
/// `scantext_temporary_unregister`, or -1 when all slots are taken or the
/// path is too long (the file is then not removed on a signal).
int scantext_temporary_register(const char *path);

/// Forgets a slot from `scantext_temporary_register` (the file was renamed
/// or removed). -1 is ignored.
void scantext_temporary_unregister(int slot);

/// The cores the calling thread may run on (its affinity mask: a process
/// started under `taskset -c 0` has one on every thread), or 0 when the
/// mask cannot be read (not Linux, or more cores than `cpu_set_t` holds).
/// In C because `sched_getaffinity` and `CPU_COUNT` need _GNU_SOURCE,
/// which Swift's Glibc module does not define (cores.c).
int scantext_affinity_core_count(void);

#endif
