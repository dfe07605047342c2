/*
 * dice.c — the kernel's dice: xoshiro256** generators seeded through
 * splitmix64, unbiased integer ranges, named streams derived from the game
 * seed, a forced-faces queue for tests and tutorials, and an exact text
 * form of the state for saves. No lua.h here (see l_dice.c).
 *
 * A stream's generator is seeded with splitmix64(seed ^ keel_hash_bytes(name)) (FNV-1a 64), so
 * the rolls of one stream never depend on how many rolls another made.
 *
 * References: D. Blackman and S. Vigna, "Scrambled linear pseudorandom
 * number generators" (xoshiro256**, splitmix64); FNV-1a (Fowler, Noll, Vo).
 */
#include "array.h"
#include "keel.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- generators ------------------------------------------------------- */

uint64_t keel_splitmix64_next(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void keel_rng_seed(keel_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = keel_splitmix64_next(&x);
  /* splitmix64 is a bijection of its counter, so four zero outputs in a
   * row cannot happen; keep the guard for clarity of the invariant. */
  if (!keel_rng_is_valid(r)) r->s[0] = 1;
}

int keel_rng_is_valid(const keel_rng *r) {
  return (r->s[0] | r->s[1] | r->s[2] | r->s[3]) != 0;
}

static inline uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t keel_rng_next(keel_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t keel_rng_below(keel_rng *r, uint64_t n) {
  if (n <= 1) return 0;
  /* Reject the lowest 2^64 mod n outputs so that every residue is hit by
   * exactly floor(2^64 / n) accepted outputs. */
  const uint64_t threshold = (0 - n) % n;
  for (;;) {
    uint64_t x = keel_rng_next(r);
    if (x >= threshold) return x % n;
  }
}

/* ---- named streams -------------------------------------------------------- */

typedef struct stream {
  char name[KEEL_DICE_NAME_MAX + 1];
  keel_rng rng;
  uint64_t rolls;
} stream;

struct keel_dice {
  uint64_t seed;
  stream *streams;
  size_t n, cap;
  int64_t forced[KEEL_DICE_FORCED_MAX];
  size_t forced_head, forced_n;
  uint64_t version;   /* moves with every change of what keel_dice_save writes */
};

keel_status keel_dice_new(uint64_t seed, keel_dice **out) {
  if (!out) return KEEL_E_ARG;
  *out = NULL;
  keel_dice *d = calloc(1, sizeof *d);
  if (!d) return KEEL_E_NOMEM;
  d->seed = seed;
  *out = d;
  return KEEL_OK;
}

void keel_dice_free(keel_dice *d) {
  if (!d) return;
  free(d->streams);
  free(d);
}

uint64_t keel_dice_get_seed(const keel_dice *d) { return d->seed; }

int keel_dice_name_is_valid(const char *name) {
  if (!name) return 0;
  size_t len = strlen(name);
  if (len == 0 || len > KEEL_DICE_NAME_MAX) return 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c < 0x21 || c > 0x7e) return 0;
  }
  return 1;
}

void keel_dice_stream_rng(uint64_t seed, const char *name, keel_rng *out) {
  keel_rng_seed(out, seed ^ keel_hash_bytes(name, strlen(name)));
}

static keel_status find(const keel_dice *d, const char *name, size_t *index) {
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->streams[i].name, name) == 0) { *index = i; return KEEL_OK; }
  return KEEL_E_NOT_FOUND;
}

keel_status keel_dice_find(const keel_dice *d, const char *name, size_t *index) {
  if (!d || !index || !keel_dice_name_is_valid(name)) return KEEL_E_ARG;
  return find(d, name, index);
}

keel_status keel_dice_stream(keel_dice *d, const char *name, size_t *index) {
  if (!d || !index || !keel_dice_name_is_valid(name)) return KEEL_E_ARG;
  if (find(d, name, index) == KEEL_OK) return KEEL_OK;
  if (!KEEL_RESERVE(d->streams, d->cap, d->n + 1)) return KEEL_E_NOMEM;
  stream *s = &d->streams[d->n];
  memset(s, 0, sizeof *s);
  memcpy(s->name, name, strlen(name) + 1);
  keel_dice_stream_rng(d->seed, name, &s->rng);
  *index = d->n++;
  d->version++;
  return KEEL_OK;
}

size_t keel_dice_count_streams(const keel_dice *d) { return d ? d->n : 0; }

uint64_t keel_dice_get_version(const keel_dice *d) { return d ? d->version : 0; }

const char *keel_dice_stream_name(const keel_dice *d, size_t i) {
  return d && i < d->n ? d->streams[i].name : NULL;
}

keel_status keel_dice_get_state(const keel_dice *d, size_t i, keel_rng *rng, uint64_t *rolls) {
  if (!d || i >= d->n) return KEEL_E_ARG;
  if (rng) *rng = d->streams[i].rng;
  if (rolls) *rolls = d->streams[i].rolls;
  return KEEL_OK;
}

keel_status keel_dice_set_state(keel_dice *d, size_t i, const keel_rng *rng, uint64_t rolls) {
  if (!d || i >= d->n || !rng || !keel_rng_is_valid(rng)) return KEEL_E_ARG;
  d->streams[i].rng = *rng;
  d->streams[i].rolls = rolls;
  d->version++;
  return KEEL_OK;
}

/* ---- forced faces ---------------------------------------------------------- */

keel_status keel_dice_force(keel_dice *d, const int64_t *faces, size_t n) {
  if (!d || (n && !faces)) return KEEL_E_ARG;
  if (n > KEEL_DICE_FORCED_MAX - d->forced_n) return KEEL_E_CAPACITY;
  for (size_t i = 0; i < n; i++)
    if (faces[i] < 1) return KEEL_E_ARG;
  for (size_t i = 0; i < n; i++) {
    size_t at = (d->forced_head + d->forced_n) % KEEL_DICE_FORCED_MAX;
    d->forced[at] = faces[i];
    d->forced_n++;
  }
  return KEEL_OK;
}

size_t keel_dice_count_forced(const keel_dice *d) { return d ? d->forced_n : 0; }

void keel_dice_clear_forced(keel_dice *d) {
  if (d) d->forced_head = d->forced_n = 0;
}

static int64_t forced_peek(const keel_dice *d, size_t k) {
  return d->forced[(d->forced_head + k) % KEEL_DICE_FORCED_MAX];
}

static void forced_drop(keel_dice *d, size_t k) {
  d->forced_head = (d->forced_head + k) % KEEL_DICE_FORCED_MAX;
  d->forced_n -= k;
}

/* ---- rolls ------------------------------------------------------------------- */

keel_status keel_dice_roll(keel_dice *d, size_t stream_index, int count, int sides,
                           int *faces, int *forced, uint64_t *index) {
  if (!d || stream_index >= d->n || !faces) return KEEL_E_ARG;
  if (count < 1 || count > KEEL_DICE_MAX_COUNT || sides < 1 || sides > KEEL_DICE_MAX_SIDES)
    return KEEL_E_ARG;
  stream *s = &d->streams[stream_index];
  size_t nf = d->forced_n < (size_t)count ? d->forced_n : (size_t)count;
  for (size_t k = 0; k < nf; k++)   /* check every forced face before using any */
    if (forced_peek(d, k) > sides) return KEEL_E_RANGE;
  for (int k = 0; k < count; k++) {
    if ((size_t)k < nf) faces[k] = (int)forced_peek(d, (size_t)k);
    else faces[k] = (int)keel_rng_below(&s->rng, (uint64_t)sides) + 1;
  }
  forced_drop(d, nf);
  s->rolls++;
  d->version++;
  if (forced) *forced = nf > 0;
  if (index) *index = s->rolls;
  return KEEL_OK;
}

keel_status keel_dice_range(keel_dice *d, size_t stream_index, uint64_t n,
                            uint64_t *out, int *forced, uint64_t *index) {
  if (!d || stream_index >= d->n || !out || n < 1) return KEEL_E_ARG;
  stream *s = &d->streams[stream_index];
  int f = 0;
  if (d->forced_n > 0) {
    int64_t v = forced_peek(d, 0);
    if ((uint64_t)v > n) return KEEL_E_RANGE;
    *out = (uint64_t)v;
    forced_drop(d, 1);
    f = 1;
  } else {
    *out = keel_rng_below(&s->rng, n) + 1;
  }
  s->rolls++;
  d->version++;
  if (forced) *forced = f;
  if (index) *index = s->rolls;
  return KEEL_OK;
}

keel_status keel_dice_histogram(keel_dice *d, size_t stream_index, int count, int sides,
                                uint64_t nrolls, uint64_t *counts, size_t cap) {
  if (!d || stream_index >= d->n || !counts) return KEEL_E_ARG;
  if (count < 1 || count > KEEL_DICE_MAX_COUNT || sides < 1 || sides > KEEL_DICE_MAX_SIDES)
    return KEEL_E_ARG;
  size_t need = (size_t)count * (size_t)(sides - 1) + 1;
  if (cap < need) return KEEL_E_CAPACITY;
  memset(counts, 0, need * sizeof *counts);
  stream *s = &d->streams[stream_index];
  keel_rng r = s->rng;   /* work on a local copy: the compiler keeps it in registers */
  for (uint64_t i = 0; i < nrolls; i++) {
    size_t sum = 0;
    for (int k = 0; k < count; k++) sum += (size_t)keel_rng_below(&r, (uint64_t)sides);
    counts[sum]++;
  }
  s->rng = r;
  s->rolls += nrolls;
  d->version++;
  return KEEL_OK;
}

/* ---- text form ---------------------------------------------------------------- */

#define HEADER "keel-dice 1\n"
/* "stream " name " " rolls(<=20) " " 4 x (16 + 1) "\n" */
#define STREAM_LINE_MAX (7 + KEEL_DICE_NAME_MAX + 1 + 20 + 4 * 17 + 1)

size_t keel_max_dice_save_size(const keel_dice *d) {
  return sizeof HEADER + 5 + 16 + 1 + (d ? d->n : 0) * STREAM_LINE_MAX + 1;
}

static int cmp_name(const void *a, const void *b) {
  const stream *const *x = a, *const *y = b;
  return strcmp((*x)->name, (*y)->name);
}

keel_status keel_dice_save(const keel_dice *d, char *buf, size_t cap, size_t *len) {
  if (!d || !buf || !len) return KEEL_E_ARG;
  if (cap < keel_max_dice_save_size(d)) return KEEL_E_CAPACITY;
  const stream **order = malloc((d->n ? d->n : 1) * sizeof *order);
  if (!order) return KEEL_E_NOMEM;
  for (size_t i = 0; i < d->n; i++) order[i] = &d->streams[i];
  qsort(order, d->n, sizeof *order, cmp_name);
  size_t at = 0;
  at += (size_t)snprintf(buf + at, cap - at, HEADER "seed %016" PRIx64 "\n", d->seed);
  for (size_t i = 0; i < d->n; i++) {
    const stream *s = order[i];
    at += (size_t)snprintf(buf + at, cap - at,
                           "stream %s %" PRIu64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64
                           " %016" PRIx64 "\n",
                           s->name, s->rolls, s->rng.s[0], s->rng.s[1], s->rng.s[2], s->rng.s[3]);
  }
  free(order);
  *len = at;
  return KEEL_OK;
}

/* Parsing the text form: a tiny cursor over one line. */
typedef struct cursor { const char *p, *end; } cursor;

static int word(cursor *c, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return 0;
  c->p += n;
  return 1;
}

static int hex64(cursor *c, uint64_t *out) {
  uint64_t v = 0;
  int k = 0;
  for (; k < 16 && c->p < c->end; k++, c->p++) {
    char ch = *c->p;
    int dgt = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
    if (dgt < 0) break;
    v = (v << 4) | (uint64_t)dgt;
  }
  *out = v;
  return k == 16;
}

static int dec64(cursor *c, uint64_t *out) {
  uint64_t v = 0;
  const char *start = c->p;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    uint64_t dgt = (uint64_t)(*c->p - '0');
    if (v > (UINT64_MAX - dgt) / 10) return 0;
    v = v * 10 + dgt;
    c->p++;
  }
  if (c->p == start || (c->p - start > 1 && *start == '0')) return 0;
  *out = v;
  return 1;
}

static int name_token(cursor *c, char *out) {
  size_t n = 0;
  while (c->p < c->end && (unsigned char)*c->p >= 0x21 && (unsigned char)*c->p <= 0x7e) {
    if (n == KEEL_DICE_NAME_MAX) return 0;
    out[n++] = *c->p++;
  }
  out[n] = '\0';
  return n > 0;
}

keel_status keel_dice_load(keel_dice *d, const char *text, size_t len,
                           size_t *err_line, const char **why) {
  const char *dummy_why;
  size_t dummy_line;
  if (!why) why = &dummy_why;
  if (!err_line) err_line = &dummy_line;
  *err_line = 0;
  *why = NULL;
  if (!d || (!text && len)) return KEEL_E_ARG;
  const char *p = text, *end = text + len;
  size_t line = 0, cap = 0, n = 0;
  stream *streams = NULL;
  uint64_t seed = 0;
  keel_status st = KEEL_OK;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) { line++; *why = "the last line has no newline"; st = KEEL_E_PARSE; goto fail; }
    cursor c = { p, nl };
    line++;
    if (line == 1) {
      if (!word(&c, "keel-dice ")) { *why = "expected 'keel-dice 1'"; st = KEEL_E_PARSE; goto fail; }
      if (!word(&c, "1") || c.p != c.end) {
        *why = "unsupported version (expected 'keel-dice 1')"; st = KEEL_E_VERSION; goto fail;
      }
    } else if (line == 2) {
      if (!word(&c, "seed ") || !hex64(&c, &seed) || c.p != c.end) {
        *why = "expected 'seed' and 16 lowercase hex digits"; st = KEEL_E_PARSE; goto fail;
      }
    } else {
      if (!KEEL_RESERVE(streams, cap, n + 1)) { st = KEEL_E_NOMEM; *why = "out of memory"; goto fail; }
      stream *s = &streams[n];
      memset(s, 0, sizeof *s);
      if (!word(&c, "stream ")) {
        *why = "expected 'stream NAME ROLLS S0 S1 S2 S3'"; st = KEEL_E_PARSE; goto fail;
      }
      if (!name_token(&c, s->name)) {
        *why = "expected a stream name (1 to 63 printable characters)"; st = KEEL_E_PARSE; goto fail;
      }
      if (!word(&c, " ") || !dec64(&c, &s->rolls)) {
        *why = "expected the roll count (a decimal integer)"; st = KEEL_E_PARSE; goto fail;
      }
      for (int k = 0; k < 4; k++)
        if (!word(&c, " ") || !hex64(&c, &s->rng.s[k])) {
          *why = "expected four state words of 16 lowercase hex digits"; st = KEEL_E_PARSE; goto fail;
        }
      if (c.p != c.end) { *why = "unexpected text after the state words"; st = KEEL_E_PARSE; goto fail; }
      if (!keel_rng_is_valid(&s->rng)) { *why = "an all-zero state is not valid"; st = KEEL_E_PARSE; goto fail; }
      if (n > 0 && strcmp(streams[n - 1].name, s->name) >= 0) {
        *why = "streams must be listed once each, in name order"; st = KEEL_E_PARSE; goto fail;
      }
      n++;
    }
    p = nl + 1;
  }
  if (line < 2) {
    *why = line == 0 ? "empty text (expected 'keel-dice 1')" : "expected a 'seed' line";
    line++;
    st = KEEL_E_PARSE;
    goto fail;
  }
  free(d->streams);
  d->streams = streams;
  d->n = n;
  d->version++;
  d->cap = cap;
  d->seed = seed;
  return KEEL_OK;
fail:
  free(streams);
  *err_line = line;
  return st;
}
