/*
 * grid.c — printed hex labels as wargame maps print them, and boards made of
 * several named map sections placed in one global grid.
 *
 * A label is "[SECTION:]CCRR": column then row, each `digits` digits wide.
 * Flat-top maps number columns along q; pointy-top maps number rows along r.
 * The shift (odd/even) names which printed columns (flat) or rows (pointy)
 * are shoved half a hex down (right). A section placed at offset (col, row)
 * puts printed (c, r) at global offset (col + c, row + r), so the offset on
 * the shifted axis must be even or the section's own shift would flip.
 */
#include "array.h"
#include "keel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct section {
  char name[KEEL_SECTION_NAME_MAX + 1];
  int64_t col, row, cols, rows;     /* cols/rows 0: unbounded */
} section;

struct keel_grid {
  keel_numbering num;
  keel_offset conv;
  section *secs;
  size_t nsec, cap;
};

static int64_t pow10i(int d) { int64_t p = 1; while (d-- > 0) p *= 10; return p; }

static const section unbounded = { "", 0, 0, 0, 0 };

keel_status keel_grid_new(const keel_numbering *n, keel_grid **out) {
  *out = NULL;
  if (!n || n->digits < 1 || n->digits > 4 || n->first_col < 0 || n->first_row < 0)
    return KEEL_E_ARG;
  int64_t lim = pow10i(n->digits);
  if (n->first_col >= lim || n->first_row >= lim) return KEEL_E_RANGE;
  keel_grid *g = calloc(1, sizeof *g);
  if (!g) return KEEL_E_NOMEM;
  g->num = *n;
  g->conv = n->pointy ? (n->shift_even ? KEEL_EVEN_R : KEEL_ODD_R)
                      : (n->shift_even ? KEEL_EVEN_Q : KEEL_ODD_Q);
  *out = g;
  return KEEL_OK;
}

void keel_grid_free(keel_grid *g) {
  if (!g) return;
  free(g->secs);
  free(g);
}

const keel_numbering *keel_grid_numbering(const keel_grid *g) { return &g->num; }
size_t keel_grid_count_sections(const keel_grid *g) { return g->nsec; }
const char *keel_grid_section_name(const keel_grid *g, size_t i) {
  return i < g->nsec ? g->secs[i].name : NULL;
}

static int name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}


keel_status keel_grid_add_section(keel_grid *g, const char *name, int64_t col, int64_t row,
                                  int64_t cols, int64_t rows) {
  size_t len = name ? strlen(name) : 0;
  if (len < 1 || len > KEEL_SECTION_NAME_MAX) return KEEL_E_ARG;
  for (size_t i = 0; i < len; i++) if (!name_char(name[i])) return KEEL_E_ARG;
  int64_t lim = pow10i(g->num.digits);
  if (cols < 0 || rows < 0 || cols > lim || rows > lim) return KEEL_E_RANGE;
  /* a section's printed numbers must fit in the digits: first + size - 1 < 10^digits */
  if (g->num.first_col + cols > lim || g->num.first_row + rows > lim) return KEEL_E_RANGE;
  if (col < -KEEL_HEX_COORD_MAX / 4 || col > KEEL_HEX_COORD_MAX / 4 ||
      row < -KEEL_HEX_COORD_MAX / 4 || row > KEEL_HEX_COORD_MAX / 4) return KEEL_E_RANGE;
  if ((g->num.pointy ? row : col) % 2 != 0) return KEEL_E_ARG;   /* would flip the shift */
  for (size_t i = 0; i < g->nsec; i++)
    if (!strcmp(g->secs[i].name, name)) return KEEL_E_DUPLICATE;
  if (!KEEL_RESERVE_FROM(g->secs, g->cap, g->nsec + 1, 4)) return KEEL_E_NOMEM;
  section *s = &g->secs[g->nsec++];
  memcpy(s->name, name, len + 1);
  s->col = col; s->row = row; s->cols = cols; s->rows = rows;
  return KEEL_OK;
}

static const section *default_section(const keel_grid *g) {
  return g->nsec ? &g->secs[0] : &unbounded;
}

/* printed (c, r) of hex h relative to section s; 1 when inside its extent */
static int local_of(const keel_grid *g, const section *s, keel_hex h, int64_t *c, int64_t *r) {
  int64_t gc, gr;
  keel_hex_to_offset(h, g->conv, &gc, &gr);
  *c = gc - s->col;
  *r = gr - s->row;
  int64_t lim = pow10i(g->num.digits);
  if (*c < g->num.first_col || *r < g->num.first_row || *c >= lim || *r >= lim) return 0;
  if (s->cols && *c >= g->num.first_col + s->cols) return 0;
  if (s->rows && *r >= g->num.first_row + s->rows) return 0;
  return 1;
}

keel_status keel_grid_section_of(const keel_grid *g, keel_hex h, size_t *index) {
  int64_t c, r;
  if (!keel_hex_is_valid(h)) return KEEL_E_ARG;
  if (g->nsec == 0) {
    if (!local_of(g, &unbounded, h, &c, &r)) return KEEL_E_OFF_BOARD;
    *index = 0;
    return KEEL_OK;
  }
  for (size_t i = 0; i < g->nsec; i++)
    if (local_of(g, &g->secs[i], h, &c, &r)) { *index = i; return KEEL_OK; }
  return KEEL_E_OFF_BOARD;
}

/* Parse "[SECTION:]CCRR" starting at *p; on success *p is past the label. */
static keel_status parse_one(const keel_grid *g, const char **p, const section *fallback,
                             const section **sec_out, keel_hex *out, const char *base,
                             size_t *err_at) {
  const char *s = *p, *q = s;
  const section *sec = fallback;
  while (name_char(*q)) q++;
  if (*q == ':') {
    size_t len = (size_t)(q - s);
    sec = NULL;
    for (size_t i = 0; i < g->nsec && len; i++)
      if (strlen(g->secs[i].name) == len && !memcmp(g->secs[i].name, s, len)) sec = &g->secs[i];
    if (!sec) { *err_at = (size_t)(s - base); return len ? KEEL_E_SECTION : KEEL_E_LABEL; }
    s = q + 1;
  }
  int d = g->num.digits;
  int64_t c = 0, r = 0;
  for (int i = 0; i < 2 * d; i++) {
    if (s[i] < '0' || s[i] > '9') { *err_at = (size_t)(s + i - base); return KEEL_E_LABEL; }
    if (i < d) c = c * 10 + (s[i] - '0'); else r = r * 10 + (s[i] - '0');
  }
  s += 2 * d;
  if (c < g->num.first_col || r < g->num.first_row ||
      (sec->cols && c >= g->num.first_col + sec->cols) ||
      (sec->rows && r >= g->num.first_row + sec->rows)) {
    *err_at = (size_t)(*p - base);
    return KEEL_E_OFF_BOARD;
  }
  keel_status st = keel_hex_from_offset(g->conv, sec->col + c, sec->row + r, out);
  if (st != KEEL_OK) { *err_at = (size_t)(*p - base); return st; }
  *sec_out = sec;
  *p = s;
  return KEEL_OK;
}

keel_status keel_grid_parse(const keel_grid *g, const char *label, keel_hex *out, size_t *err_at) {
  size_t dummy;
  if (!err_at) err_at = &dummy;
  *err_at = 0;
  if (!label) return KEEL_E_ARG;
  const char *p = label;
  const section *sec;
  keel_status st = parse_one(g, &p, default_section(g), &sec, out, label, err_at);
  if (st != KEEL_OK) return st;
  if (*p != '\0') { *err_at = (size_t)(p - label); return KEEL_E_LABEL; }
  return KEEL_OK;
}

keel_status keel_grid_parse_side(const keel_grid *g, const char *label, keel_side *out,
                                 size_t *err_at) {
  size_t dummy;
  if (!err_at) err_at = &dummy;
  *err_at = 0;
  if (!label) return KEEL_E_ARG;
  const char *p = label;
  const section *sec;
  keel_hex a, b;
  keel_status st = parse_one(g, &p, default_section(g), &sec, &a, label, err_at);
  if (st != KEEL_OK) return st;
  if (*p != '/') { *err_at = (size_t)(p - label); return KEEL_E_LABEL; }
  p++;
  st = parse_one(g, &p, sec, &sec, &b, label, err_at);
  if (st != KEEL_OK) return st;
  if (*p != '\0') { *err_at = (size_t)(p - label); return KEEL_E_LABEL; }
  st = keel_side_between(a, b, out);
  if (st != KEEL_OK) *err_at = 0;
  return st;
}

static keel_status format_in(const keel_grid *g, keel_hex h, int with_prefix,
                             const section **sec_out, char *buf, size_t cap) {
  size_t i;
  keel_status st = keel_grid_section_of(g, h, &i);
  if (st != KEEL_OK) return st;
  const section *s = g->nsec ? &g->secs[i] : &unbounded;
  int64_t c, r;
  local_of(g, s, h, &c, &r);
  int d = g->num.digits, n;
  if (with_prefix && s->name[0])
    n = snprintf(buf, cap, "%s:%0*lld%0*lld", s->name, d, (long long)c, d, (long long)r);
  else
    n = snprintf(buf, cap, "%0*lld%0*lld", d, (long long)c, d, (long long)r);
  if (n < 0 || (size_t)n >= cap) return KEEL_E_CAPACITY;
  *sec_out = s;
  return KEEL_OK;
}

keel_status keel_grid_format(const keel_grid *g, keel_hex h, char *buf, size_t cap) {
  const section *s;
  return format_in(g, h, 1, &s, buf, cap);
}

keel_status keel_grid_format_side(const keel_grid *g, keel_side side, char *buf, size_t cap) {
  keel_hex a, b;
  if (!keel_side_is_valid(side)) return KEEL_E_ARG;
  keel_side_hexes(side, &a, &b);
  int64_t ca, ra, cb, rb;             /* print the lower column (then row) first */
  keel_hex_to_offset(a, g->conv, &ca, &ra);
  keel_hex_to_offset(b, g->conv, &cb, &rb);
  if (cb < ca || (cb == ca && rb < ra)) { keel_hex t = a; a = b; b = t; }
  const section *sa, *sb;
  keel_status st = format_in(g, a, 1, &sa, buf, cap);
  if (st != KEEL_OK) return st;
  size_t used = strlen(buf);
  if (used + 2 > cap) return KEEL_E_CAPACITY;
  buf[used++] = '/';
  char second[KEEL_LABEL_MAX];
  st = format_in(g, b, 1, &sb, second, sizeof second);
  if (st != KEEL_OK) return st;
  const char *tail = second;
  if (sa == sb && sa->name[0]) tail = strchr(second, ':') + 1;
  if (used + strlen(tail) + 1 > cap) return KEEL_E_CAPACITY;
  strcpy(buf + used, tail);
  return KEEL_OK;
}
