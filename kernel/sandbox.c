/*
 * sandbox.c — the C side of keel's script sandbox that needs no Lua:
 *
 *   - keel_sandbox_alloc: a lua_Alloc-shaped allocator that keeps a count of
 *     the bytes in use and refuses to grow past a limit (a game's memory);
 *   - keel_watchdog: the CPU limit of an action. Arming it costs a clock
 *     read and a few stores; a POSIX timer delivers a signal to the thread
 *     running the action only when the deadline may have passed, and the
 *     signal handler then calls the owner's `fire` callback (the Lua binding
 *     arms a count hook there: lua_sethook is safe to call from a signal
 *     handler). Between actions the timer runs down once and goes idle, so a
 *     stream of short actions costs at most one timer_settime per limit.
 *
 * The Lua half (hooks, environments, bounded string functions) is in
 * kernel/l_sandbox.c.
 */
#define _GNU_SOURCE
#include "keel.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- memory ---------------------------------------------------------- */

void *keel_sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  keel_memlimit *m = ud;
  if (ptr == NULL) osize = 0;   /* then osize tells the kind of object */
  if (nsize == 0) {
    free(ptr);
    m->used -= osize;
    return NULL;
  }
  if (nsize > osize && m->limit != 0 &&
      (nsize - osize > m->limit || m->used > m->limit - (nsize - osize))) {
    m->refusals++;
    return NULL;
  }
  void *q = realloc(ptr, nsize);
  if (q == NULL) {
    m->refusals++;
    return NULL;
  }
  m->used = m->used - osize + nsize;
  if (m->used > m->peak) m->peak = m->used;
  return q;
}

/* ---- watchdog --------------------------------------------------------- */

#define WATCHDOG_MAGIC 0x6b65656cu   /* "keel" */

struct keel_watchdog {
  unsigned magic;
  keel_watchdog_fn fire;
  void *ud;
  timer_t timer;
  int has_timer;
  pthread_t thread;            /* the thread the timer signals */
  atomic_int active;           /* an action is being watched */
  atomic_int idle;             /* no timer expiry is pending */
  atomic_int fired;            /* the current action went over its limit */
  atomic_uint_least64_t deadline;    /* CLOCK_MONOTONIC ns */
  atomic_uint_least64_t expires;     /* when the pending expiry is due */
};

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int watchdog_signal(void) { return SIGRTMIN + KEEL_WATCHDOG_SIGNAL_OFFSET; }

static void set_timer(keel_watchdog *w, uint64_t now, uint64_t in_ns) {
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  if (in_ns == 0) in_ns = 1;
  its.it_value.tv_sec = (time_t)(in_ns / 1000000000u);
  its.it_value.tv_nsec = (long)(in_ns % 1000000000u);
  atomic_store_explicit(&w->expires, now + in_ns, memory_order_relaxed);
  timer_settime(w->timer, 0, &its, NULL);
}

/* Runs in the signal handler (or, while freeing, with the signal blocked). */
static void watchdog_tick(keel_watchdog *w) {
  if (!atomic_load_explicit(&w->active, memory_order_relaxed)) {
    atomic_store_explicit(&w->idle, 1, memory_order_relaxed);
    return;
  }
  uint64_t now = now_ns();
  uint64_t deadline = atomic_load_explicit(&w->deadline, memory_order_relaxed);
  if (now >= deadline) {
    atomic_store_explicit(&w->idle, 1, memory_order_relaxed);
    if (!atomic_exchange_explicit(&w->fired, 1, memory_order_relaxed)) w->fire(w->ud);
    return;
  }
  set_timer(w, now, deadline - now);   /* the action started after the timer did */
}

static void on_signal(int sig, siginfo_t *si, void *uctx) {
  (void)sig;
  (void)uctx;
  int saved = errno;
  if (si && si->si_code == SI_TIMER) {
    keel_watchdog *w = si->si_value.sival_ptr;
    if (w && w->magic == WATCHDOG_MAGIC) watchdog_tick(w);
  }
  errno = saved;
}

static keel_status install_handler(void) {
  struct sigaction old;
  if (sigaction(watchdog_signal(), NULL, &old) != 0) return KEEL_E_STATE;
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_signal) return KEEL_OK;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  return sigaction(watchdog_signal(), &sa, NULL) == 0 ? KEEL_OK : KEEL_E_STATE;
}

/* Make the timer signal the calling thread. */
static keel_status make_timer(keel_watchdog *w) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_signo = watchdog_signal();
  sev.sigev_value.sival_ptr = w;
#ifdef SIGEV_THREAD_ID
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev._sigev_un._tid = gettid();
#else
  sev.sigev_notify = SIGEV_SIGNAL;
#endif
  if (timer_create(CLOCK_MONOTONIC, &sev, &w->timer) != 0)
    return errno == ENOMEM || errno == EAGAIN ? KEEL_E_NOMEM : KEEL_E_STATE;
  w->has_timer = 1;
  w->thread = pthread_self();
  atomic_store(&w->idle, 1);
  return KEEL_OK;
}

/* Delete the timer and consume any expiry it left pending on this thread;
 * an expiry of another watchdog met on the way is handled, not lost. */
static void drop_timer(keel_watchdog *w) {
  if (!w->has_timer) return;
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, watchdog_signal());
  pthread_sigmask(SIG_BLOCK, &set, &old);
  timer_delete(w->timer);
  w->has_timer = 0;
  struct timespec zero = { 0, 0 };
  siginfo_t si;
  while (sigtimedwait(&set, &si, &zero) > 0) {
    keel_watchdog *other = si.si_code == SI_TIMER ? si.si_value.sival_ptr : NULL;
    if (other && other != w && other->magic == WATCHDOG_MAGIC) watchdog_tick(other);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

keel_status keel_watchdog_new(keel_watchdog_fn fire, void *ud, keel_watchdog **out) {
  *out = NULL;
  if (fire == NULL) return KEEL_E_ARG;
  keel_status st = install_handler();
  if (st != KEEL_OK) return st;
  keel_watchdog *w = calloc(1, sizeof *w);
  if (w == NULL) return KEEL_E_NOMEM;
  w->magic = WATCHDOG_MAGIC;
  w->fire = fire;
  w->ud = ud;
  atomic_init(&w->active, 0);
  atomic_init(&w->idle, 1);
  atomic_init(&w->fired, 0);
  atomic_init(&w->deadline, 0);
  atomic_init(&w->expires, 0);
  st = make_timer(w);
  if (st != KEEL_OK) {
    free(w);
    return st;
  }
  *out = w;
  return KEEL_OK;
}

void keel_watchdog_free(keel_watchdog *w) {
  if (w == NULL) return;
  atomic_store(&w->active, 0);
  drop_timer(w);
  w->magic = 0;
  free(w);
}

keel_status keel_watchdog_start(keel_watchdog *w, uint64_t limit_ns) {
  if (limit_ns == 0) return KEEL_E_ARG;
  if (!w->has_timer || !pthread_equal(w->thread, pthread_self())) {
    atomic_store(&w->active, 0);
    drop_timer(w);
    keel_status st = make_timer(w);
    if (st != KEEL_OK) return st;
  }
  uint64_t now = now_ns();
  uint64_t deadline = now + limit_ns;
  atomic_store_explicit(&w->fired, 0, memory_order_relaxed);
  atomic_store_explicit(&w->deadline, deadline, memory_order_relaxed);
  atomic_store_explicit(&w->active, 1, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst);
  /* Only the signal handler sets idle, and only the code below clears it. */
  if (atomic_load_explicit(&w->idle, memory_order_relaxed)) {
    atomic_store_explicit(&w->idle, 0, memory_order_relaxed);
    set_timer(w, now, limit_ns);
  } else if (atomic_load_explicit(&w->expires, memory_order_relaxed) > deadline) {
    set_timer(w, now, limit_ns);   /* a shorter limit than the pending expiry */
  }
  return KEEL_OK;
}

void keel_watchdog_stop(keel_watchdog *w) {
  atomic_store_explicit(&w->active, 0, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst);
}

int keel_watchdog_fired(const keel_watchdog *w) {
  return atomic_load_explicit(&((keel_watchdog *)w)->fired, memory_order_relaxed);
}

int keel_watchdog_active(const keel_watchdog *w) {
  return atomic_load_explicit(&((keel_watchdog *)w)->active, memory_order_relaxed);
}
