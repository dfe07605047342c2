/*
 * save.c — the save format (doc/save.md) and atomic files.
 *
 *   keel-save 2
 *   meta "key" "value"                       (any number, in order)
 *   U id name type side face hits points loc where
 *   V unit key value      M unit key count
 *   G id name             A group key value    E group unit unit ...
 *   W key value           K map [part,...] value    O hex side
 *   end units groups globals owned keyed
 *   checksum 0123456789abcdef                 (FNV-1a 64 of all bytes before)
 *
 * Version 1 (still read) had no K lines and no keyed count.
 *
 * Strings and values are written as JSON (json.c). Loading checks the
 * version, then the checksum, then parses every line strictly; a damaged
 * file is refused with a message naming the line, never half loaded.
 * keel_state_save / keel_state_load put the text in a file and take it
 * back through file.c (atomic writes, bounded reads).
 */
#include "array.h"
#include "json.h"
#include "state_int.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SAVE_VERSION KEEL_SAVE_VERSION
#define MAGIC "keel-save "

/* ---- writing -------------------------------------------------------------- */

#define RAW(s) keel__json_raw(b, s, sizeof(s) - 1)

static int cmp_slot(const void *x, const void *y) {
  keel_hex a = ((const own_slot *)x)->hex, c = ((const own_slot *)y)->hex;
  return a < c ? -1 : a > c;
}

static int write_state(keel__buf *b, const keel_state *st) {
  for (int32_t id = 1; id <= st->nunits; id++) {
    const unit *u = &st->units[id - 1];
    int ok = RAW("U ") && keel__json_int(b, id) && RAW(" ") && keel__json_atom(b, st, u->name) &&
             RAW(" ") && keel__json_atom(b, st, u->type) && RAW(" ") && keel__json_atom(b, st, u->side) &&
             RAW(" ") && keel__json_int(b, u->face) && RAW(" ") && keel__json_int(b, u->hits) &&
             RAW(" ") && keel__json_int(b, u->points) && RAW(" ") && keel__json_int(b, u->lk) &&
             RAW(" ") && keel__json_int(b, u->where) && RAW("\n");
    for (uint16_t i = 0; ok && i < u->nval; i++)
      ok = RAW("V ") && keel__json_int(b, id) && RAW(" ") && keel__json_atom(b, st, u->val[i].key) &&
           RAW(" ") && keel__json_value(b, st, u->val[i].v) && RAW("\n");
    for (uint16_t i = 0; ok && i < u->nmark; i++)
      ok = RAW("M ") && keel__json_int(b, id) && RAW(" ") && keel__json_atom(b, st, u->mark[i].key) &&
           RAW(" ") && keel__json_int(b, u->mark[i].n) && RAW("\n");
    if (!ok) return 0;
  }
  for (int32_t g = 1; g <= st->ngroups; g++) {
    const group *gr = &st->groups[g - 1];
    int ok = RAW("G ") && keel__json_int(b, g) && RAW(" ") && keel__json_atom(b, st, gr->name) && RAW("\n");
    for (uint16_t i = 0; ok && i < gr->nval; i++)
      ok = RAW("A ") && keel__json_int(b, g) && RAW(" ") && keel__json_atom(b, st, gr->val[i].key) &&
           RAW(" ") && keel__json_value(b, st, gr->val[i].v) && RAW("\n");
    if (ok && gr->nmem) {
      ok = RAW("E ") && keel__json_int(b, g);
      for (uint32_t i = 0; ok && i < gr->nmem; i++) ok = RAW(" ") && keel__json_int(b, gr->mem[i]);
      ok = ok && RAW("\n");
    }
    if (!ok) return 0;
  }
  for (size_t i = 0; i < st->nglob; i++)
    if (!(RAW("W ") && keel__json_atom(b, st, st->glob[i].key) && RAW(" ") &&
          keel__json_value(b, st, st->glob[i].v) && RAW("\n"))) return 0;
  size_t nkeyed = 0;
  for (size_t m = 0; m < st->nmaps; m++)
    for (size_t i = 0; i < st->maps[m].n; i++, nkeyed++)
      if (!(RAW("K ") && keel__json_atom(b, st, st->maps[m].name) && RAW(" ") &&
            keel__json_key(b, st, st->maps[m].e[i].key) && RAW(" ") &&
            keel__json_value(b, st, st->maps[m].e[i].v) && RAW("\n"))) return 0;
  own_slot *owned = malloc((st->own_count ? st->own_count : 1) * sizeof *owned);
  if (!owned) return 0;
  size_t n = 0;
  n = keel__owned(st, owned);   /* the shared base's owners too (global.c) */
  qsort(owned, n, sizeof *owned, cmp_slot);
  int ok = 1;
  for (size_t i = 0; ok && i < n; i++)
    ok = RAW("O ") && keel__json_int(b, owned[i].hex) && RAW(" ") && keel__json_atom(b, st, owned[i].side) && RAW("\n");
  free(owned);
  return ok && RAW("end ") && keel__json_int(b, st->nunits) && RAW(" ") && keel__json_int(b, st->ngroups) &&
         RAW(" ") && keel__json_int(b, (int64_t)st->nglob) && RAW(" ") && keel__json_int(b, (int64_t)n) &&
         RAW(" ") && keel__json_int(b, (int64_t)nkeyed) && RAW("\n");
}

keel_status keel__state_save_buf(const keel_state *st, const char *const *mk, const char *const *mv,
                                 size_t nmeta, keel__buf *b) {
  if (!st || !b || (nmeta && (!mk || !mv))) return KEEL_E_ARG;
  size_t start = b->n;
  int bytes = b->bytes;
  b->bytes = 1;                /* a save keeps every string's bytes: it loads back the very state */
  char magic[32];
  int ml = snprintf(magic, sizeof magic, MAGIC "%d\n", SAVE_VERSION);
  int ok = keel__json_raw(b, magic, (size_t)ml);
  for (size_t i = 0; ok && i < nmeta; i++)
    ok = RAW("meta ") && keel__json_str(b, mk[i], strlen(mk[i])) &&
         RAW(" ") && keel__json_str(b, mv[i], strlen(mv[i])) && RAW("\n");
  ok = ok && write_state(b, st);
  b->bytes = bytes;
  if (ok) {
    char tail[40];
    int n = snprintf(tail, sizeof tail, "checksum %016llx\n",
                     (unsigned long long)keel_hash_bytes(b->p + start, b->n - start));
    ok = keel__json_raw(b, tail, (size_t)n) && keel__buf_reserve(b, 1);
  }
  if (!ok) { b->n = start; return KEEL_E_NOMEM; }
  b->p[b->n] = '\0';
  return KEEL_OK;
}

keel_status keel_state_save_text(const keel_state *st, const char *const *mk, const char *const *mv,
                                 size_t nmeta, char **out, size_t *len) {
  if (!out || !len) return KEEL_E_ARG;
  keel__buf b = { 0 };
  keel_status s = keel__state_save_buf(st, mk, mv, nmeta, &b);
  if (s != KEEL_OK) { free(b.p); return s; }
  *out = b.p;
  *len = b.n;
  return KEEL_OK;
}

keel_status keel_state_save(const keel_state *st, const char *path, const char *const *mk,
                            const char *const *mv, size_t nmeta) {
  if (!path) return KEEL_E_ARG;
  keel__buf b = { 0 };
  keel_status s = keel__state_save_buf(st, mk, mv, nmeta, &b);
  if (s == KEEL_OK) s = keel_file_write_atomic(path, b.p, b.n);
  free(b.p);
  return s;
}

/* ---- reading -------------------------------------------------------------- */

typedef struct parser {
  const char *p, *end;   /* the current line, without its '\n' */
  size_t line;
  int version;
  keel_state *st;
  char *err;
} parser;

static keel_status fail(parser *ps, keel_status s, const char *fmt, ...) {
  if (ps->err) return s;
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t n = strlen(msg) + 32;
  ps->err = malloc(n);
  if (ps->err) {
    if (ps->line) snprintf(ps->err, n, "line %zu: %s", ps->line, msg);
    else snprintf(ps->err, n, "%s", msg);
  }
  return s;
}

static int sp(parser *ps) {
  if (ps->p < ps->end && *ps->p == ' ') { ps->p++; return 1; }
  return 0;
}

static int get_int(parser *ps, int64_t *out) {
  const char *s = ps->p;
  int neg = 0;
  if (s < ps->end && *s == '-') { neg = 1; s++; }
  if (s >= ps->end || *s < '0' || *s > '9') return 0;
  uint64_t v = 0;
  while (s < ps->end && *s >= '0' && *s <= '9') {
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return 0;
    v = v * 10 + d;
    s++;
  }
  if (s < ps->end && (*s == '.' || *s == 'e' || *s == 'E')) return 0;
  if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX) return 0;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  ps->p = s;
  return 1;
}

static void put_utf8(char *o, size_t *k, unsigned c) {
  if (c < 0x80) o[(*k)++] = (char)c;
  else if (c < 0x800) { o[(*k)++] = (char)(0xc0 | (c >> 6)); o[(*k)++] = (char)(0x80 | (c & 63)); }
  else { o[(*k)++] = (char)(0xe0 | (c >> 12)); o[(*k)++] = (char)(0x80 | ((c >> 6) & 63)); o[(*k)++] = (char)(0x80 | (c & 63)); }
}

/* A JSON string into a malloc'd buffer (*out, *len); 0 if malformed. */
static int get_str(parser *ps, char **out, size_t *len) {
  const char *s = ps->p;
  if (s >= ps->end || *s != '"') return 0;
  s++;
  char *o = malloc((size_t)(ps->end - s) + 1);
  if (!o) return 0;
  size_t k = 0;
  while (s < ps->end && *s != '"') {
    unsigned char c = (unsigned char)*s++;
    if (c < 0x20) { free(o); return 0; }
    if (c != '\\') { o[k++] = (char)c; continue; }
    if (s >= ps->end) { free(o); return 0; }
    char e = *s++;
    switch (e) {
    case '"': o[k++] = '"'; break;
    case '\\': o[k++] = '\\'; break;
    case '/': o[k++] = '/'; break;
    case 'n': o[k++] = '\n'; break;
    case 'r': o[k++] = '\r'; break;
    case 't': o[k++] = '\t'; break;
    case 'b': o[k++] = '\b'; break;
    case 'f': o[k++] = '\f'; break;
    case 'u': {
      unsigned c4 = 0;
      for (int i = 0; i < 4; i++) {
        if (s >= ps->end) { free(o); return 0; }
        char h = *s++;
        unsigned d = h >= '0' && h <= '9' ? (unsigned)(h - '0') : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10) :
                     h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10) : 99;
        if (d == 99) { free(o); return 0; }
        c4 = c4 * 16 + d;
      }
      if (c4 < 0x80 || (c4 >= 0xd800 && c4 < 0xe000)) {
        if (c4 >= 0x80) { free(o); return 0; }
      }
      put_utf8(o, &k, c4);
      break;
    }
    default: free(o); return 0;
    }
  }
  if (s >= ps->end) { free(o); return 0; }
  ps->p = s + 1;
  o[k] = '\0';
  *out = o;
  *len = k;
  return 1;
}

static int get_atom(parser *ps, keel_atom *out, int allow_null) {
  if (allow_null && ps->end - ps->p >= 4 && memcmp(ps->p, "null", 4) == 0) {
    ps->p += 4;
    *out = 0;
    return 1;
  }
  char *s; size_t len;
  if (!get_str(ps, &s, &len)) return 0;
  keel_status st = keel_state_intern(ps->st, s, len, out);
  free(s);
  return st == KEEL_OK;
}

static int get_value(parser *ps, keel_value *v) {
  const char *s = ps->p;
  size_t rest = (size_t)(ps->end - s);
  if (rest >= 4 && memcmp(s, "true", 4) == 0) { ps->p += 4; v->kind = KEEL_V_BOOL; v->u.i = 1; return 1; }
  if (rest >= 5 && memcmp(s, "false", 5) == 0) { ps->p += 5; v->kind = KEEL_V_BOOL; v->u.i = 0; return 1; }
  if (rest && *s == '"') { v->kind = KEEL_V_STR; return get_atom(ps, &v->u.s, 0); }
  /* a number: integer unless it has '.', 'e' or 'E' */
  const char *e = s;
  int is_float = 0;
  while (e < ps->end && strchr("+-0123456789.eE", *e)) { if (strchr(".eE", *e)) is_float = 1; e++; }
  if (e == s) return 0;
  if (!is_float) { v->kind = KEEL_V_INT; return get_int(ps, &v->u.i); }
  char tmp[64];
  if ((size_t)(e - s) >= sizeof tmp) return 0;
  memcpy(tmp, s, (size_t)(e - s));
  tmp[e - s] = '\0';
  char *endp;
  errno = 0;
  double f = strtod(tmp, &endp);
  if (*endp || errno || f != f || f - f != 0) return 0;
  v->kind = KEEL_V_FLOAT;
  v->u.f = f;
  ps->p = e;
  return 1;
}

/* A keyed value's key: [part,...], each part an integer or a string. */
static int get_key(parser *ps, keel_key *key) {
  if (ps->p >= ps->end || *ps->p != '[') return 0;
  ps->p++;
  key->n = 0;
  do {
    if (key->n >= KEEL_KEY_MAX) return 0;
    keel_value *part = &key->part[key->n++];
    if (ps->p < ps->end && *ps->p == '"') { part->kind = KEEL_V_STR; if (!get_atom(ps, &part->u.s, 0)) return 0; }
    else { part->kind = KEEL_V_INT; if (!get_int(ps, &part->u.i)) return 0; }
  } while (ps->p < ps->end && *ps->p == ',' && ps->p++);
  if (ps->p >= ps->end || *ps->p != ']') return 0;
  ps->p++;
  return 1;
}

typedef struct cargo_fix { int32_t id; int64_t carrier; } cargo_fix;

static keel_status parse_body(parser *ps, const char *text, size_t len, char ***meta, size_t *nmeta) {
  keel_state *st = ps->st;
  const char *p = text, *end = text + len;
  cargo_fix *fix = NULL;
  size_t nfix = 0, capfix = 0, capmeta = 0, nkeyed = 0;
  int ended = 0;
  keel_status rc = KEEL_OK;
  ps->line = 0;
  while (p < end && rc == KEEL_OK) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) { rc = fail(ps, KEEL_E_PARSE, "line does not end"); break; }
    ps->line++;
    const char *ls = p;
    ps->p = p;
    ps->end = nl;
    p = nl + 1;
    if (ps->line == 1) continue;   /* the magic line, checked by the caller */
    if (ended) { rc = fail(ps, KEEL_E_PARSE, "text after 'end'"); break; }
    char tag = ps->p < ps->end ? *ps->p++ : '\0';
    if (ps->end - ps->p >= 4 && tag == 'm' && memcmp(ps->p, "eta ", 4) == 0) {
      ps->p += 4;
      char *k, *v; size_t kl, vl;
      if (!get_str(ps, &k, &kl)) { rc = fail(ps, KEEL_E_PARSE, "meta: expected a quoted key"); break; }
      if (!sp(ps) || !get_str(ps, &v, &vl)) { free(k); rc = fail(ps, KEEL_E_PARSE, "meta: expected a quoted value"); break; }
      if (!KEEL_RESERVE(*meta, capmeta, 2 * *nmeta + 2)) { free(k); free(v); rc = KEEL_E_NOMEM; break; }
      (*meta)[2 * *nmeta] = k;
      (*meta)[2 * *nmeta + 1] = v;
      (*nmeta)++;
    } else if (tag == 'U' && sp(ps)) {
      int64_t id, face, hits, points, lk, where;
      keel_atom name, type, side;
      if (!get_int(ps, &id) || !sp(ps) || !get_atom(ps, &name, 0) || !sp(ps) || !get_atom(ps, &type, 1) ||
          !sp(ps) || !get_atom(ps, &side, 1) || !sp(ps) || !get_int(ps, &face) || !sp(ps) ||
          !get_int(ps, &hits) || !sp(ps) || !get_int(ps, &points) || !sp(ps) || !get_int(ps, &lk) ||
          !sp(ps) || !get_int(ps, &where)) { rc = fail(ps, KEEL_E_PARSE, "unit: malformed"); break; }
      if (id != st->nunits + 1) { rc = fail(ps, KEEL_E_PARSE, "unit %lld out of order (expected %d)", (long long)id, st->nunits + 1); break; }
      int32_t nid;
      if (keel_state_unit_new(st, name, type, side, &nid) != KEEL_OK ||
          keel_state_set(st, nid, KEEL_F_FACE, face) != KEEL_OK ||
          keel_state_set(st, nid, KEEL_F_HITS, hits) != KEEL_OK ||
          keel_state_set(st, nid, KEEL_F_POINTS, points) != KEEL_OK) {
        rc = fail(ps, KEEL_E_PARSE, "unit %lld: a value is out of range", (long long)id); break;
      }
      if (lk < 0 || lk >= KEEL_LOC_COUNT) { rc = fail(ps, KEEL_E_PARSE, "unit %lld: bad location kind %lld", (long long)id, (long long)lk); break; }
      if (lk == KEEL_LOC_UNIT) {
        if (!KEEL_RESERVE_FROM(fix, capfix, nfix + 1, 16)) { rc = KEEL_E_NOMEM; break; }
        fix[nfix++] = (cargo_fix){ nid, where };
      } else if (keel_state_move(st, nid, (keel_loc){ (keel_loc_kind)lk, where }) != KEEL_OK) {
        rc = fail(ps, KEEL_E_PARSE, "unit %lld: bad location", (long long)id); break;
      }
    } else if ((tag == 'V' || tag == 'M') && sp(ps)) {
      int64_t id; keel_atom key; keel_value v;
      if (!get_int(ps, &id) || !sp(ps) || !get_atom(ps, &key, 0) || !sp(ps) || !get_value(ps, &v)) {
        rc = fail(ps, KEEL_E_PARSE, "%s: malformed", tag == 'V' ? "value" : "marker"); break;
      }
      keel_value was = { 0 };
      if (id >= 1 && id <= st->nunits &&
          (tag == 'V' ? (keel_state_get_value(st, (int32_t)id, key, &was), was.kind != KEEL_V_NIL)
                      : keel_state_get_marker(st, (int32_t)id, key) != 0)) {
        rc = fail(ps, KEEL_E_PARSE, "%s '%.60s' of unit %lld is given twice", tag == 'V' ? "value" : "marker",
                  keel_state_atom_str(st, key, NULL), (long long)id);
        break;
      }
      keel_status s = id < 1 || id > st->nunits ? KEEL_E_NOT_FOUND :
                      tag == 'V' ? keel_state_set_value(st, (int32_t)id, key, v) :
                      v.kind != KEEL_V_INT || v.u.i == 0 ? KEEL_E_ARG :
                      keel_state_set_marker(st, (int32_t)id, key, v.u.i);
      if (s != KEEL_OK) { rc = fail(ps, KEEL_E_PARSE, "%s for unit %lld: %s", tag == 'V' ? "value" : "marker", (long long)id, keel_status_str(s)); break; }
    } else if (tag == 'G' && sp(ps)) {
      int64_t id; keel_atom name; int32_t gid;
      if (!get_int(ps, &id) || !sp(ps) || !get_atom(ps, &name, 0)) { rc = fail(ps, KEEL_E_PARSE, "group: malformed"); break; }
      if (id != st->ngroups + 1) { rc = fail(ps, KEEL_E_PARSE, "group %lld out of order", (long long)id); break; }
      if (keel_state_group_new(st, name, &gid) != KEEL_OK) { rc = KEEL_E_NOMEM; break; }
    } else if (tag == 'A' && sp(ps)) {
      int64_t id; keel_atom key; keel_value v;
      if (!get_int(ps, &id) || !sp(ps) || !get_atom(ps, &key, 0) || !sp(ps) || !get_value(ps, &v)) {
        rc = fail(ps, KEEL_E_PARSE, "group attribute: malformed"); break;
      }
      keel_value was = { 0 };
      if (id >= 1 && id <= st->ngroups &&
          (keel_state_group_get_value(st, (int32_t)id, key, &was), was.kind != KEEL_V_NIL)) {
        rc = fail(ps, KEEL_E_PARSE, "group attribute '%.60s' of group %lld is given twice",
                  keel_state_atom_str(st, key, NULL), (long long)id);
        break;
      }
      keel_status s = id < 1 || id > st->ngroups ? KEEL_E_NOT_FOUND : keel_state_group_set_value(st, (int32_t)id, key, v);
      if (s != KEEL_OK) { rc = fail(ps, KEEL_E_PARSE, "group attribute: %s", keel_status_str(s)); break; }
    } else if (tag == 'E' && sp(ps)) {
      int64_t id, u;
      if (!get_int(ps, &id) || id < 1 || id > st->ngroups) { rc = fail(ps, KEEL_E_PARSE, "members: unknown group"); break; }
      while (rc == KEEL_OK && sp(ps)) {
        if (!get_int(ps, &u) || u < 1 || u > st->nunits) { rc = fail(ps, KEEL_E_PARSE, "members: unknown unit"); break; }
        keel_status s = keel_state_group_add(st, (int32_t)id, (int32_t)u, -1);
        if (s != KEEL_OK) rc = fail(ps, KEEL_E_PARSE, "members: %s", keel_status_str(s));
      }
    } else if (tag == 'W' && sp(ps)) {
      keel_atom key; keel_value v;
      if (!get_atom(ps, &key, 0) || !sp(ps) || !get_value(ps, &v)) { rc = fail(ps, KEEL_E_PARSE, "global: malformed"); break; }
      if (keel_state_get_global(st, key).kind != KEEL_V_NIL) {
        rc = fail(ps, KEEL_E_PARSE, "global '%.60s' is given twice", keel_state_atom_str(st, key, NULL)); break;
      }
      if (keel_state_set_global(st, key, v) != KEEL_OK) { rc = fail(ps, KEEL_E_PARSE, "global: malformed"); break; }
    } else if (tag == 'K' && ps->version >= 2 && sp(ps)) {
      keel_atom map; keel_key key; keel_value v;
      if (!get_atom(ps, &map, 0) || !sp(ps) || !get_key(ps, &key) || !sp(ps) || !get_value(ps, &v)) {
        rc = fail(ps, KEEL_E_PARSE, "keyed value: malformed"); break;
      }
      keel_value was = { 0 };
      if (keel_state_get_keyed(st, map, &key, &was) == KEEL_OK && was.kind != KEEL_V_NIL) {
        rc = fail(ps, KEEL_E_PARSE, "keyed value of '%.60s': a key is given twice", keel_state_atom_str(st, map, NULL)); break;
      }
      keel_status s = keel_state_set_keyed(st, map, &key, v);
      if (s != KEEL_OK) { rc = fail(ps, KEEL_E_PARSE, "keyed value: %s", keel_status_str(s)); break; }
      nkeyed++;
    } else if (tag == 'O' && sp(ps)) {
      int64_t h; keel_atom side;
      if (!get_int(ps, &h) || !sp(ps) || !get_atom(ps, &side, 0)) { rc = fail(ps, KEEL_E_PARSE, "owner: malformed"); break; }
      if (keel_state_get_owner(st, h) != 0) { rc = fail(ps, KEEL_E_PARSE, "the owner of hex %lld is given twice", (long long)h); break; }
      if (keel_state_set_owner(st, h, side) != KEEL_OK) { rc = fail(ps, KEEL_E_PARSE, "owner: malformed"); break; }
    } else if (tag == 'e' && ps->end - ps->p >= 3 && memcmp(ps->p, "nd ", 3) == 0) {
      ps->p += 3;
      int64_t nu, ng, nw, no, nk = 0;
      if (!get_int(ps, &nu) || !sp(ps) || !get_int(ps, &ng) || !sp(ps) || !get_int(ps, &nw) || !sp(ps) || !get_int(ps, &no) ||
          (ps->version >= 2 && (!sp(ps) || !get_int(ps, &nk)))) {
        rc = fail(ps, KEEL_E_PARSE, "end: malformed"); break;
      }
      if (nu != st->nunits || ng != st->ngroups || nw != (int64_t)st->nglob || no != (int64_t)st->own_count ||
          nk != (int64_t)nkeyed) {
        rc = fail(ps, KEEL_E_PARSE, "end: counts do not match the lines before"); break;
      }
      ended = 1;
    } else {
      rc = fail(ps, KEEL_E_PARSE, "unknown line");
      break;
    }
    if (rc == KEEL_OK && ps->p != ps->end) rc = fail(ps, KEEL_E_PARSE, "unexpected text at column %zu", (size_t)(ps->p - ls) + 1);
  }
  if (rc == KEEL_OK && !ended) { ps->line = 0; rc = fail(ps, KEEL_E_PARSE, "no 'end' line"); }
  for (size_t i = 0; rc == KEEL_OK && i < nfix; i++) {
    if (fix[i].carrier < 1 || fix[i].carrier > st->nunits ||
        keel_state_move(st, fix[i].id, (keel_loc){ KEEL_LOC_UNIT, fix[i].carrier }) != KEEL_OK) {
      ps->line = 0;
      rc = fail(ps, KEEL_E_PARSE, "unit %d: carried by a unit that cannot carry it (%lld)", fix[i].id, (long long)fix[i].carrier);
    }
  }
  free(fix);
  return rc;
}

void keel_save_meta_free(char **meta, size_t nmeta) {
  if (!meta) return;
  for (size_t i = 0; i < 2 * nmeta; i++) free(meta[i]);
  free(meta);
}

keel_status keel_state_load_text(const char *text, size_t len, keel_state **out,
                                 char ***meta, size_t *nmeta, char **err) {
  parser ps = { 0 };
  *out = NULL;
  *meta = NULL;
  *nmeta = 0;
  *err = NULL;
  if (len == 0) { fail(&ps, KEEL_E_PARSE, "empty file"); *err = ps.err; return KEEL_E_PARSE; }
  size_t ml = sizeof(MAGIC) - 1;
  if (len < ml || memcmp(text, MAGIC, ml) != 0) {
    fail(&ps, KEEL_E_PARSE, "not a keel save (it does not start with \"keel-save\")");
    *err = ps.err;
    return KEEL_E_PARSE;
  }
  /* version: digits up to the end of the first line */
  size_t i = ml;
  uint64_t ver = 0;
  int digits = 0;
  while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 9) { ver = ver * 10 + (uint64_t)(text[i] - '0'); i++; digits++; }
  if (!digits || i >= len || text[i] != '\n') {
    fail(&ps, KEEL_E_PARSE, "line 1: malformed version (expected \"keel-save %d\")", SAVE_VERSION);
    *err = ps.err;
    return i >= len ? KEEL_E_PARSE : KEEL_E_PARSE;
  }
  if (ver < 1 || ver > SAVE_VERSION) {
    fail(&ps, KEEL_E_VERSION, "save format version %llu is not supported (this keel reads versions 1 to %d)",
         (unsigned long long)ver, SAVE_VERSION);
    *err = ps.err;
    return KEEL_E_VERSION;
  }
  /* checksum: the last line */
  if (text[len - 1] != '\n') {
    fail(&ps, KEEL_E_CHECKSUM, "truncated: the file does not end with a checksum line (%zu bytes)", len);
    *err = ps.err;
    return KEEL_E_CHECKSUM;
  }
  size_t last = len - 1;
  while (last > 0 && text[last - 1] != '\n') last--;
  const char *cl = text + last;
  size_t cll = len - 1 - last;
  unsigned long long want = 0;
  int okline = cll == 9 + 16 && memcmp(cl, "checksum ", 9) == 0;
  for (size_t k = 9; okline && k < cll; k++) {
    char h = cl[k];
    unsigned d = h >= '0' && h <= '9' ? (unsigned)(h - '0') : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10) : 99;
    if (d == 99) okline = 0; else want = want * 16 + d;
  }
  if (!okline) {
    fail(&ps, KEEL_E_CHECKSUM, "truncated or damaged: the last line is not \"checksum <16 hex digits>\"");
    *err = ps.err;
    return KEEL_E_CHECKSUM;
  }
  unsigned long long got = keel_hash_bytes(text, last);
  if (got != want) {
    fail(&ps, KEEL_E_CHECKSUM, "damaged: checksum mismatch (file says %016llx, contents give %016llx)", want, got);
    *err = ps.err;
    return KEEL_E_CHECKSUM;
  }
  keel_state *st;
  keel_status s = keel_state_new(&st);
  if (s != KEEL_OK) return s;
  keel_state_journal_enable(st, 0);
  ps.st = st;
  ps.version = (int)ver;
  s = parse_body(&ps, text, last, meta, nmeta);
  if (s != KEEL_OK) {
    keel_state_free(st);
    keel_save_meta_free(*meta, *nmeta);
    *meta = NULL;
    *nmeta = 0;
    if (!ps.err) fail(&ps, s, "%s", keel_status_str(s));
    *err = ps.err;
    return s;
  }
  keel_state_journal_enable(st, 1);
  *out = st;
  return KEEL_OK;
}

keel_status keel_state_load(const char *path, keel_state **out, char ***meta, size_t *nmeta, char **err) {
  *out = NULL;
  *meta = NULL;
  *nmeta = 0;
  *err = NULL;
  if (!path) return KEEL_E_ARG;
  char *text;
  size_t len;
  keel_status s = keel_file_read(path, KEEL_SAVE_MAX, &text, &len);
  if (s != KEEL_OK) {
    int why = errno;
    parser ps = { 0 };   /* no line: the message is the reason alone */
    struct stat sb;
    if (s == KEEL_E_CAPACITY) fail(&ps, s, "too large for a save (over %d MiB); refusing to read it", (int)(KEEL_SAVE_MAX >> 20));
    else if (s == KEEL_E_IO && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) fail(&ps, s, "a folder, not a save file");
    else fail(&ps, s, "cannot read (%s)", keel_file_reason(s, why));
    *err = ps.err;
    return s;
  }
  s = keel_state_load_text(text, len, out, meta, nmeta, err);
  free(text);
  return s;
}
