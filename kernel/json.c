/*
 * json.c — the JSON writer: a growable byte buffer and the encoders of
 * scalars, strings, hashes and a state's named values and keys (json.h). It owns
 * the number and string forms every JSON text of the kernel uses: the
 * journal (journal.c), saves (save.c) and keel.state.json (l_state.c).
 */
#include "array.h"
#include "json.h"
#include "state_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int keel__buf_grow(keel__buf *b, size_t extra) {
  if (extra > SIZE_MAX - b->n - 1) return 0;
  return KEEL_RESERVE_FROM(b->p, b->cap, b->n + extra + 1, 256);
}

/* The length of the well-formed UTF-8 sequence at s[0..left) (a lead byte
 * >= 0x80), or 0 with *bad set to the length of its maximal ill-formed
 * part: the bytes one U+FFFD stands for (Unicode 15, 3.9, Table 3-7). */
static size_t utf8_len(const unsigned char *s, size_t left, size_t *bad) {
  unsigned char c = s[0], lo = 0x80, hi = 0xbf;
  size_t need;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) { need = 2; if (c == 0xe0) lo = 0xa0; else if (c == 0xed) hi = 0x9f; }
  else if (c >= 0xf0 && c <= 0xf4) { need = 3; if (c == 0xf0) lo = 0x90; else if (c == 0xf4) hi = 0x8f; }
  else { *bad = 1; return 0; }
  size_t i = 1;
  for (; i <= need && i < left; i++) {
    unsigned char d = s[i];
    if (d < lo || d > hi) break;
    lo = 0x80, hi = 0xbf;     /* only the second byte has a narrower range */
  }
  if (i == need + 1) return i;
  *bad = i;
  return 0;
}

int keel__json_str(keel__buf *b, const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  if (len > (SIZE_MAX - 2) / 6 || !keel__buf_reserve(b, len * 6 + 2)) return 0;
  char *o = b->p + b->n;
  *o++ = '"';
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) { *o++ = (char)c; continue; }   /* most bytes */
    switch (c) {
    case '"': *o++ = '\\'; *o++ = '"'; break;
    case '\\': *o++ = '\\'; *o++ = '\\'; break;
    case '\n': *o++ = '\\'; *o++ = 'n'; break;
    case '\r': *o++ = '\\'; *o++ = 'r'; break;
    case '\t': *o++ = '\\'; *o++ = 't'; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        *o++ = '\\'; *o++ = 'u'; *o++ = '0'; *o++ = '0';
        *o++ = hex[c >> 4]; *o++ = hex[c & 15];
      } else if (b->bytes) {
        *o++ = (char)c;
      } else {                 /* c >= 0x80: a UTF-8 sequence, or U+FFFD for an ill-formed part */
        size_t bad = 0, n = utf8_len((const unsigned char *)s + i, len - i, &bad);
        if (n) { memcpy(o, s + i, n); o += n; i += n - 1; }
        else { *o++ = (char)0xef; *o++ = (char)0xbf; *o++ = (char)0xbd; i += bad - 1; }
      }
    }
  }
  *o++ = '"';
  b->n = (size_t)(o - b->p);
  return 1;
}

/* Decimal digits written backwards from end; returns the first. */
static char *digits(char *end, uint64_t u) {
  do { *--end = (char)('0' + u % 10); u /= 10; } while (u);
  return end;
}

int keel__json_uint(keel__buf *b, uint64_t u) {
  char tmp[24];
  char *p = digits(tmp + sizeof tmp, u);
  return keel__json_raw(b, p, (size_t)(tmp + sizeof tmp - p));
}

int keel__json_int(keel__buf *b, int64_t i) {
  char tmp[24];
  /* the magnitude as unsigned: -INT64_MIN does not fit an int64_t */
  char *p = digits(tmp + sizeof tmp, i < 0 ? 0 - (uint64_t)i : (uint64_t)i);
  if (i < 0) *--p = '-';
  return keel__json_raw(b, p, (size_t)(tmp + sizeof tmp - p));
}

int keel__json_float(keel__buf *b, double f) {
  char tmp[40];
  int n = 0;
  if (f != f || f - f != 0) return keel__json_null(b);
  for (int prec = 1; prec <= 17; prec++) {
    n = snprintf(tmp, sizeof tmp, "%.*g", prec, f);
    if (strtod(tmp, NULL) == f) break;
  }
  if (!strpbrk(tmp, ".en")) { tmp[n++] = '.'; tmp[n++] = '0'; tmp[n] = '\0'; }
  return keel__json_raw(b, tmp, (size_t)n);
}

int keel__json_bool(keel__buf *b, int v) {
  return v ? KEEL_JSON_LIT(b, "true") : KEEL_JSON_LIT(b, "false");
}

int keel__json_null(keel__buf *b) { return KEEL_JSON_LIT(b, "null"); }

int keel__json_hash(keel__buf *b, uint64_t h) {
  char tmp[20];
  int n = snprintf(tmp, sizeof tmp, "\"%016llx\"", (unsigned long long)h);
  return keel__json_raw(b, tmp, (size_t)n);
}

int keel__json_atom(keel__buf *b, const keel_state *st, keel_atom a) {
  size_t len;
  const char *s = keel_state_atom_str(st, a, &len);
  return s ? keel__json_str(b, s, len) : keel__json_null(b);
}

int keel__json_value(keel__buf *b, const keel_state *st, keel_value v) {
  switch (v.kind) {
  case KEEL_V_BOOL: return keel__json_bool(b, v.u.i != 0);
  case KEEL_V_INT: return keel__json_int(b, v.u.i);
  case KEEL_V_FLOAT: return keel__json_float(b, v.u.f);
  case KEEL_V_STR: return keel__json_atom(b, st, v.u.s);
  default: return keel__json_null(b);
  }
}

int keel__json_key(keel__buf *b, const keel_state *st, keel_atom key) {
  keel__key_part parts[KEEL_KEY_MAX];
  char text[KEEL_KEY_BYTES];
  int n;
  if (keel__keyed_decode(st, key, parts, &n, text) != KEEL_OK) return keel__json_null(b);
  int ok = KEEL_JSON_LIT(b, "[");
  for (int i = 0; ok && i < n; i++)
    ok = (i == 0 || KEEL_JSON_LIT(b, ",")) &&
         (parts[i].is_str ? keel__json_str(b, parts[i].s, parts[i].len) : keel__json_int(b, parts[i].i));
  return ok && KEEL_JSON_LIT(b, "]");
}

static int key_cmp(const void *x, const void *y) {
  const keel__json_name *a = x, *c = y;
  int r = memcmp(a->s, c->s, a->len < c->len ? a->len : c->len);
  return r ? r : (a->len < c->len ? -1 : a->len > c->len);
}

void keel__json_sort_keys(keel__json_name *keys, size_t n) {
  if (n > 1) qsort(keys, n, sizeof *keys, key_cmp);
}
