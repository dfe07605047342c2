/*
 * pattern.c — Lua 5.4 string patterns with a step budget; see pattern.h.
 *
 * A backtracking matcher over a pattern and a subject that never allocates:
 * captures live in the state, errors leave through one longjmp to the
 * attempt's entry (nothing to free on the way). Each call of the matcher
 * and each character taken by a repetition or a balance is one step.
 */
#include "pattern.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define ESC '%'

static void fail(keel_pattern *m, keel_status st, const char *msg) {
  m->status = st;
  snprintf(m->message, sizeof m->message, "%s", msg);
  longjmp(m->on_error, 1);
}

static void step(keel_pattern *m) {
  if (++m->steps > m->max_steps) {
    m->status = KEEL_E_LIMIT;
    snprintf(m->message, sizeof m->message,
             "string pattern too complex: over %llu steps on a %llu-byte subject",
             (unsigned long long)m->max_steps, (unsigned long long)(m->s_end - m->s));
    longjmp(m->on_error, 1);
  }
  if ((m->steps & (KEEL_PATTERN_POLL - 1)) == 0 && m->interrupted &&
      m->interrupted(m->ud))
    fail(m, KEEL_E_LIMIT, "string pattern stopped: the action is over its limit");
}

/* The end of the single-character class that starts at p. */
static const char *class_end(keel_pattern *m, const char *p) {
  char c = *p++;
  if (c == ESC) {
    if (p >= m->p_end) fail(m, KEEL_E_PARSE, "malformed pattern (ends with '%')");
    return p + 1;
  }
  if (c == '[') {
    if (p < m->p_end && *p == '^') p++;
    do {   /* the first character after '[' or '[^' is always a member */
      if (p >= m->p_end) fail(m, KEEL_E_PARSE, "malformed pattern (missing ']')");
      c = *p++;
      if (c == ESC && p < m->p_end) p++;
    } while (p >= m->p_end || *p != ']');
    return p + 1;
  }
  return p;
}

static int match_class(int c, int cl) {
  int res;
  switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    case 'z': res = (c == 0); break;   /* deprecated, still in 5.4 */
    default: return cl == c;
  }
  res = res != 0;
  return isupper(cl) ? !res : res;
}

/* A set [...]: p at '[', ec at its closing ']'. */
static int match_set(int c, const char *p, const char *ec) {
  int in = 1;
  if (p[1] == '^') { in = 0; p++; }
  while (++p < ec) {
    if (*p == ESC) {
      p++;
      if (match_class(c, (unsigned char)*p)) return in;
    } else if (p[1] == '-' && p + 2 < ec) {
      p += 2;
      if ((unsigned char)p[-2] <= c && c <= (unsigned char)*p) return in;
    } else if ((unsigned char)*p == c) {
      return in;
    }
  }
  return !in;
}

static int single_match(const keel_pattern *m, const char *s, const char *p,
                        const char *ep) {
  if (s >= m->s_end) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case ESC: return match_class(c, (unsigned char)p[1]);
    case '[': return match_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
  }
}

static const char *do_match(keel_pattern *m, const char *s, const char *p);

static const char *match_balance(keel_pattern *m, const char *s, const char *p) {
  if (p + 1 >= m->p_end)
    fail(m, KEEL_E_PARSE, "malformed pattern (missing arguments to '%b')");
  if (s >= m->s_end || *s != *p) return NULL;
  char open = p[0], close = p[1];
  int depth = 1;
  while (++s < m->s_end) {
    step(m);
    if (*s == close) {
      if (--depth == 0) return s + 1;
    } else if (*s == open) {
      depth++;
    }
  }
  return NULL;
}

static const char *max_expand(keel_pattern *m, const char *s, const char *p,
                              const char *ep) {
  ptrdiff_t i = 0;
  while (single_match(m, s + i, p, ep)) { i++; step(m); }
  for (; i >= 0; i--) {
    const char *r = do_match(m, s + i, ep + 1);
    if (r) return r;
  }
  return NULL;
}

static const char *min_expand(keel_pattern *m, const char *s, const char *p,
                              const char *ep) {
  for (;;) {
    const char *r = do_match(m, s, ep + 1);
    if (r) return r;
    if (!single_match(m, s, p, ep)) return NULL;
    s++;
  }
}

static const char *start_capture(keel_pattern *m, const char *s, const char *p,
                                 ptrdiff_t what) {
  if (m->level >= KEEL_PATTERN_MAXCAPTURES) fail(m, KEEL_E_PARSE, "too many captures");
  m->capture[m->level].init = s;
  m->capture[m->level].len = what;
  m->level++;
  const char *r = do_match(m, s, p);
  if (!r) m->level--;
  return r;
}

static const char *end_capture(keel_pattern *m, const char *s, const char *p) {
  int l = m->level - 1;
  while (l >= 0 && m->capture[l].len != KEEL_CAP_UNFINISHED) l--;
  if (l < 0) fail(m, KEEL_E_PARSE, "invalid pattern capture");
  m->capture[l].len = s - m->capture[l].init;
  const char *r = do_match(m, s, p);
  if (!r) m->capture[l].len = KEEL_CAP_UNFINISHED;
  return r;
}

static const char *match_backref(keel_pattern *m, const char *s, int digit) {
  int l = digit - '1';
  if (l < 0 || l >= m->level || m->capture[l].len == KEEL_CAP_UNFINISHED) {
    char msg[48];
    snprintf(msg, sizeof msg, "invalid capture index %%%d", l + 1);
    fail(m, KEEL_E_PARSE, msg);
  }
  size_t len = (size_t)m->capture[l].len;   /* a position capture never matches */
  if ((size_t)(m->s_end - s) >= len && memcmp(m->capture[l].init, s, len) == 0)
    return s + len;
  return NULL;
}

static const char *do_match(keel_pattern *m, const char *s, const char *p) {
  if (m->depth-- == 0) fail(m, KEEL_E_PARSE, "pattern too complex");
again:
  step(m);
  if (p == m->p_end) goto done;
  switch (*p) {
    case '(':
      if (p + 1 < m->p_end && p[1] == ')')
        s = start_capture(m, s, p + 2, KEEL_CAP_POSITION);
      else
        s = start_capture(m, s, p + 1, KEEL_CAP_UNFINISHED);
      goto done;
    case ')':
      s = end_capture(m, s, p + 1);
      goto done;
    case '$':
      if (p + 1 != m->p_end) break;
      s = (s == m->s_end) ? s : NULL;
      goto done;
    case ESC:
      if (p + 1 >= m->p_end) break;   /* class_end reports it */
      switch (p[1]) {
        case 'b':
          s = match_balance(m, s, p + 2);
          if (s) { p += 4; goto again; }
          goto done;
        case 'f': {
          p += 2;
          if (p >= m->p_end || *p != '[')
            fail(m, KEEL_E_PARSE, "missing '[' after '%f' in pattern");
          const char *ep = class_end(m, p);
          int prev = (s == m->s) ? '\0' : (unsigned char)s[-1];
          int cur = (s < m->s_end) ? (unsigned char)*s : '\0';
          if (!match_set(prev, p, ep - 1) && match_set(cur, p, ep - 1)) {
            p = ep;
            goto again;
          }
          s = NULL;
          goto done;
        }
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          s = match_backref(m, s, (unsigned char)p[1]);
          if (s) { p += 2; goto again; }
          goto done;
        default:
          break;
      }
      break;
    default:
      break;
  }
  {   /* a single-character class, maybe followed by a repetition */
    const char *ep = class_end(m, p);
    char rep = ep < m->p_end ? *ep : '\0';
    if (!single_match(m, s, p, ep)) {
      if (rep == '*' || rep == '?' || rep == '-') { p = ep + 1; goto again; }
      s = NULL;
      goto done;
    }
    switch (rep) {
      case '?': {
        const char *r = do_match(m, s + 1, ep + 1);
        if (r) { s = r; goto done; }
        p = ep + 1;
        goto again;
      }
      case '+': s = max_expand(m, s + 1, p, ep); goto done;
      case '*': s = max_expand(m, s, p, ep); goto done;
      case '-': s = min_expand(m, s, p, ep); goto done;
      default: s++; p = ep; goto again;
    }
  }
done:
  m->depth++;
  return s;
}

void keel__pattern_init(keel_pattern *m, const char *s, size_t ls,
                       const char *p, size_t lp, uint64_t max_steps) {
  m->s = s;
  m->s_end = s + ls;
  m->p = p;
  m->p_end = p + lp;
  m->level = 0;
  m->steps = 0;
  m->max_steps = max_steps;
  m->interrupted = NULL;
  m->ud = NULL;
  m->status = KEEL_OK;
  m->message[0] = '\0';
  m->depth = KEEL_PATTERN_MAXDEPTH;
}

keel_status keel__pattern_match(keel_pattern *m, size_t s_off, size_t p_off,
                               ptrdiff_t *end) {
  *end = -1;
  if (setjmp(m->on_error)) return m->status;
  m->level = 0;
  m->depth = KEEL_PATTERN_MAXDEPTH;
  const char *r = do_match(m, m->s + s_off, m->p + p_off);
  *end = r ? r - m->s : -1;
  return KEEL_OK;
}

int keel__pattern_is_plain(const char *p, size_t lp) {
  for (size_t i = 0; i < lp; i++)
    if (strchr("^$*+?.([%-", p[i]) && p[i] != '\0') return 0;
  return 1;
}
