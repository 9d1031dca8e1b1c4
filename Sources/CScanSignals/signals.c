// See include/ScanTextSignals.h. The handler only calls unlink, signal and
// raise (async-signal-safe) and reads slots through atomics: a slot is
// marked registered only once its path is complete.
#include "ScanTextSignals.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 16, FREE = 0, FILLING = 1, REGISTERED = 2 };

static char paths[SLOTS][PATH_MAX];
static atomic_int states[SLOTS];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static const int watched[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int number) {
  for (int i = 0; i < SLOTS; i++) {
    if (atomic_load(&states[i]) == REGISTERED) unlink(paths[i]);
  }
  // The process ends as the signal would have ended it (its exit status
  // says so to the shell).
  signal(number, SIG_DFL);
  raise(number);
}

static void install(void) {
  for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) {
    struct sigaction current;
    if (sigaction(watched[i], NULL, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(watched[i], &action, NULL);
  }
}

int scantext_temporary_register(const char *path) {
  pthread_once(&install_once, install);
  if (strlen(path) >= PATH_MAX) return -1;
  for (int i = 0; i < SLOTS; i++) {
    int expected = FREE;
    if (atomic_compare_exchange_strong(&states[i], &expected, FILLING)) {
      strcpy(paths[i], path);
      atomic_store(&states[i], REGISTERED);
      return i;
    }
  }
  return -1;
}

void scantext_temporary_unregister(int slot) {
  if (slot >= 0 && slot < SLOTS) atomic_store(&states[slot], FREE);
}
