/*
 * json.h — the kernel's one JSON writer (kernel/json.c), shared by the
 * journal, the save format and the keel.state.json binding. Not API.
 *
 * Output is deterministic: integers in decimal, floats as the shortest %g
 * that reads back to the same double (always with a '.' or an exponent),
 * strings escaped the same way on every run; no locale, no library.
 * Strings are written as valid UTF-8: a byte sequence that is not UTF-8 is
 * written as U+FFFD, one for each maximal ill-formed part (Unicode's
 * recommended practice), unless the buffer keeps bytes (saves: the save
 * format is keel's own, not JSON, and loads back the very strings saved).
 * Every writer returns 1, or 0 when the buffer could not grow (the buffer
 * then holds what was written before the failing call).
 */
#ifndef KEEL_JSON_H
#define KEEL_JSON_H
#include "keel.h"
#include <string.h>

/* A growable byte buffer (not NUL-terminated). Zero-initialise; free(p).
 * bytes: strings are written with their bytes as they are (valid UTF-8 or
 * not); 0, the default: invalid UTF-8 is replaced (above). */
typedef struct keel__buf { char *p; size_t n, cap; int bytes; } keel__buf;

/* Room for extra more bytes (and one spare, for a terminator); inline, as
 * most calls find room already (keel__buf_grow makes it). */
int keel__buf_grow(keel__buf *b, size_t extra);
static inline int keel__buf_reserve(keel__buf *b, size_t extra) {
  return extra < b->cap - b->n ? 1 : keel__buf_grow(b, extra);
}

/* Inline: the journal writes many short pieces, most with room to spare. */
static inline int keel__json_raw(keel__buf *b, const char *s, size_t len) {
  if (!keel__buf_reserve(b, len)) return 0;
  memcpy(b->p + b->n, s, len);
  b->n += len;
  return 1;
}
int keel__json_str(keel__buf *b, const char *s, size_t len);
int keel__json_int(keel__buf *b, int64_t i);
int keel__json_uint(keel__buf *b, uint64_t u);
/* NaN and infinities have no JSON form: written as null. */
int keel__json_float(keel__buf *b, double f);
int keel__json_bool(keel__buf *b, int v);
int keel__json_null(keel__buf *b);
/* A 64-bit hash as a string of 16 lowercase hex digits. */
int keel__json_hash(keel__buf *b, uint64_t h);
/* A state's atom as a string (null for none) and a named value. */
int keel__json_atom(keel__buf *b, const keel_state *st, keel_atom a);
int keel__json_value(keel__buf *b, const keel_state *st, keel_value v);
/* A keyed value's key (an encoded key atom, keyed.c) as an array: [3,"A1"]. */
int keel__json_key(keel__buf *b, const keel_state *st, keel_atom key);

/* Object keys in the order the writer puts them: by bytes, then length. */
typedef struct keel__json_name { const char *s; size_t len; } keel__json_name;
void keel__json_sort_keys(keel__json_name *keys, size_t n);

#define KEEL_JSON_LIT(b, s) keel__json_raw((b), (s), sizeof(s) - 1)

#endif
