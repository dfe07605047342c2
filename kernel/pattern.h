/*
 * pattern.h — Lua 5.4 string patterns with a step budget (kernel/pattern.c).
 *
 * The sandbox's string.find/match/gmatch/gsub use this engine instead of the
 * stock one so that one C call cannot run for minutes: every step of the
 * backtracking matcher is counted, a call stops when it is over its budget,
 * and an `interrupted` callback (the CPU watchdog's flag) is polled every
 * KEEL_PATTERN_POLL steps. The semantics are Lua 5.4's (character classes,
 * sets, `*`, `+`, `-`, `?`, anchors, captures, position captures, `%b`,
 * `%f`, back references), written afresh for keel; tests/lua compares it
 * with the stock library on many patterns.
 *
 * Private to the kernel: not part of keel.h.
 */
#ifndef KEEL_PATTERN_H
#define KEEL_PATTERN_H

#include "keel.h"
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#define KEEL_PATTERN_MAXCAPTURES 32
#define KEEL_PATTERN_MAXDEPTH 200
#define KEEL_PATTERN_POLL 4096
#define KEEL_CAP_UNFINISHED (-1)
#define KEEL_CAP_POSITION (-2)

typedef struct keel_pattern {
  /* subject and pattern (not owned) */
  const char *s, *s_end;
  const char *p, *p_end;
  /* captures of the current attempt */
  int level;
  struct { const char *init; ptrdiff_t len; } capture[KEEL_PATTERN_MAXCAPTURES];
  /* budget: steps taken over every attempt since init, and the cap */
  uint64_t steps, max_steps;
  int (*interrupted)(void *ud);
  void *ud;
  /* failure */
  keel_status status;           /* KEEL_E_PARSE (bad pattern) or KEEL_E_LIMIT */
  char message[120];
  int depth;
  jmp_buf on_error;
} keel_pattern;

/* Prepare a match of pattern p[0..lp) against subject s[0..ls). */
void keel__pattern_init(keel_pattern *m, const char *s, size_t ls,
                       const char *p, size_t lp, uint64_t max_steps);

/* One attempt: match the pattern, starting at pattern offset p_off (1 to
 * skip a leading '^'), against the subject at offset s_off. On KEEL_OK,
 * *end is the subject offset where the match ends, or -1 when it does not
 * match here; the captures are in m->capture[0 .. m->level). On failure
 * (malformed pattern, budget spent, interrupted) m->message says why. */
keel_status keel__pattern_match(keel_pattern *m, size_t s_off, size_t p_off,
                               ptrdiff_t *end);

/* 1 when the pattern has no special characters (a plain substring). */
int keel__pattern_is_plain(const char *p, size_t lp);

#endif
