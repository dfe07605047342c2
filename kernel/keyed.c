/*
 * keyed.c — keyed values: named maps (a map is an atom, "zoc") from a key
 * of 1..KEEL_KEY_MAX parts, each an integer or a string, to a named value;
 * structured rule data that would otherwise be packed into strings. Owns
 * the op OP_KEYED.
 *
 * A key is stored as one atom holding an order-preserving encoding of its
 * parts, so the map's entries are a kv array sorted by key like any other
 * named values, and the byte order of keys is the documented key order:
 *   integer  0x01, then 8 bytes big-endian of the value with its sign bit
 *            flipped (so bytes compare as numbers);
 *   string   0x02, then the bytes with 0x00 written 0x00 0xff, then 0x00
 *            0x01 (so a string sorts before any longer one it begins).
 * The encoding depends only on the key's value, so hashes and saves that
 * use its text are history-independent. Empty maps keep their record (an
 * empty map is no fact: not hashed, not saved), so applying an op never
 * allocates.
 */
#include "array.h"
#include "state_int.h"
#include <string.h>

#define TAG_INT 0x01
#define TAG_STR 0x02

/* The encoded key in buf (cap bytes); 0 if a part is not an integer or an
 * interned string of at most KEEL_KEY_STR_MAX bytes. */
static size_t encode(const keel_state *st, const keel_key *key, char *buf, size_t cap) {
  if (!key || key->n < 1 || key->n > KEEL_KEY_MAX) return 0;
  size_t k = 0;
  for (int i = 0; i < key->n; i++) {
    keel_value p = key->part[i];
    if (p.kind == KEEL_V_INT) {
      if (k + 9 > cap) return 0;
      uint64_t u = (uint64_t)p.u.i ^ 0x8000000000000000ULL;
      buf[k++] = TAG_INT;
      for (int b = 7; b >= 0; b--) buf[k++] = (char)(u >> (8 * b));
    } else if (p.kind == KEEL_V_STR && p.u.s > 0 && keel__atom_ok(st, p.u.s)) {
      size_t len;
      const char *s = keel_state_atom_str(st, p.u.s, &len);
      if (len > KEEL_KEY_STR_MAX || k + 1 + 2 * len + 2 > cap) return 0;
      buf[k++] = TAG_STR;
      for (size_t j = 0; j < len; j++) {
        buf[k++] = s[j];
        if (s[j] == 0) buf[k++] = (char)0xff;
      }
      buf[k++] = 0;
      buf[k++] = 1;
    } else {
      return 0;
    }
  }
  return k;
}

keel_status keel__keyed_decode(const keel_state *st, keel_atom key, keel__key_part *parts, int *n, char *buf) {
  size_t len, k = 0, used = 0;
  const unsigned char *s = (const unsigned char *)keel_state_atom_str(st, key, &len);
  *n = 0;
  while (s && k < len) {
    if (*n >= KEEL_KEY_MAX) return KEEL_E_PARSE;
    keel__key_part *p = &parts[(*n)++];
    if (s[k] == TAG_INT && k + 9 <= len) {
      uint64_t u = 0;
      for (size_t b = 1; b <= 8; b++) u = (u << 8) | s[k + b];
      *p = (keel__key_part){ 0, (int64_t)(u ^ 0x8000000000000000ULL), NULL, 0 };
      k += 9;
    } else if (s[k] == TAG_STR) {
      *p = (keel__key_part){ 1, 0, buf + used, 0 };
      for (k++; k + 1 < len && !(s[k] == 0 && s[k + 1] == 1); k++) {
        if (used >= KEEL_KEY_BYTES) return KEEL_E_PARSE;
        buf[used++] = (char)s[k];
        p->len++;
        if (s[k] == 0) k++;      /* 0x00 0xff is one zero byte */
      }
      if (k + 1 >= len) return KEEL_E_PARSE;
      k += 2;
    } else {
      return KEEL_E_PARSE;
    }
  }
  return *n ? KEEL_OK : KEEL_E_PARSE;
}

/* ---- maps --------------------------------------------------------------------- */

static keyed_map *map_find(const keel_state *st, keel_atom name) {
  size_t at;
  if (name <= 0 || !keel__key_find(st, st->maps, sizeof *st->maps, st->nmaps, name, &at)) return NULL;
  return &st->maps[at];
}

/* The map's record, made (empty) when it is new; NULL on out of memory. */
static keyed_map *map_make(keel_state *st, keel_atom name) {
  size_t at;
  if (keel__key_find(st, st->maps, sizeof *st->maps, st->nmaps, name, &at)) return &st->maps[at];
  if (!KEEL_RESERVE(st->maps, st->capmaps, st->nmaps + 1)) return NULL;
  memmove(st->maps + at + 1, st->maps + at, (st->nmaps - at) * sizeof *st->maps);
  st->maps[at] = (keyed_map){ name, NULL, 0, 0 };
  st->nmaps++;
  return &st->maps[at];
}

/* The atom of an encoded key: interned when make, else found (0: none). */
static keel_status key_atom(keel_state *st, const keel_key *key, int make, keel_atom *out) {
  char buf[KEEL_KEY_BYTES];
  size_t len = encode(st, key, buf, sizeof buf);
  if (!len) return KEEL_E_ARG;
  if (!make) { *out = keel_state_atom_find(st, buf, len); return KEEL_OK; }
  return keel_state_intern(st, buf, len, out);
}

int keel__keyed_prepare(keel_state *st, const op *o) {
  keyed_map *m = map_make(st, (keel_atom)o->id);
  if (!m) return 0;
  return o->b.kind == KEEL_V_NIL || KEEL_RESERVE(m->e, m->cap, m->n + 1);
}

void keel__keyed_apply(keel_state *st, const op *o, int forward) {
  keel_value to = forward ? o->b : o->a, from = forward ? o->a : o->b;
  keyed_map *m = map_find(st, (keel_atom)o->id);
  uint64_t mh = keel__atom_hash(st, (keel_atom)o->id);
  keel__hash_kv(st, T_KEYED, mh, o->key, from);
  keel__hash_kv(st, T_KEYED, mh, o->key, to);
  m->n = keel__kv_put(st, m->e, m->n, o->key, to);
}

/* ---- API ------------------------------------------------------------------------ */

keel_status keel_state_get_keyed(const keel_state *st, keel_atom map, const keel_key *key, keel_value *out) {
  *out = KEEL_NIL;
  if (!keel__atom_ok(st, map) || map == 0) return KEEL_E_ARG;
  keel_atom k;
  keel_status s = key_atom((keel_state *)st, key, 0, &k);   /* find only: no change */
  if (s != KEEL_OK) return s;
  const keyed_map *m = map_find(st, map);
  if (m && k) *out = keel__kv_get(st, m->e, m->n, k);
  return KEEL_OK;
}

keel_status keel_state_set_keyed(keel_state *st, keel_atom map, const keel_key *key, keel_value v) {
  if (map <= 0 || !keel__atom_ok(st, map) || !keel__value_ok(st, v)) return KEEL_E_ARG;
  keel_atom k;
  keel_status s = key_atom(st, key, v.kind != KEEL_V_NIL, &k);
  if (s != KEEL_OK) return s;
  if (!k) return KEEL_OK;                      /* removing a key never set */
  const keyed_map *m = map_find(st, map);
  op o = { .kind = OP_KEYED, .id = map, .key = k };
  o.a = m ? keel__kv_get(st, m->e, m->n, k) : KEEL_NIL;
  o.b = v;
  if (keel__value_eq(o.a, o.b)) return KEEL_OK;
  return keel__state_push(st, &o);
}

size_t keel_state_count_keyed(const keel_state *st, keel_atom map) {
  const keyed_map *m = map_find(st, map);
  return m ? m->n : 0;
}

keel_status keel_state_at_keyed(const keel_state *st, keel_atom map, size_t i, keel_key *key, keel_value *v) {
  const keyed_map *m = map_find(st, map);
  if (!m || i >= m->n) return KEEL_E_RANGE;
  keel__key_part parts[KEEL_KEY_MAX];
  char buf[KEEL_KEY_BYTES];
  int n;
  if (keel__keyed_decode(st, m->e[i].key, parts, &n, buf) != KEEL_OK) return KEEL_E_STATE;
  key->n = n;
  for (int j = 0; j < n; j++)   /* string parts were interned when the key was set */
    key->part[j] = parts[j].is_str ? keel__vatom(keel_state_atom_find(st, parts[j].s, parts[j].len))
                                   : keel__vint(parts[j].i);
  *v = m->e[i].v;
  return KEEL_OK;
}
