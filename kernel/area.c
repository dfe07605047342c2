/*
 * area.c — named areas (sea zones): each a set of hexes, and all of them a
 * graph of their own for area-movement games.
 *
 * A hex belongs to at most one area (an open-addressing hash from hex to
 * area index). Each area keeps its hexes in an array sorted on demand, and
 * its neighbours as a sorted array of area indexes.
 */
#include "array.h"
#include "keel.h"
#include <stdlib.h>
#include <string.h>

typedef struct idxvec { size_t *v; size_t n, cap; } idxvec;
typedef struct hexvec { keel_hex *v; size_t n, cap; int sorted; } hexvec;

typedef struct area {
  char *name;
  hexvec hexes;
  idxvec adj;
} area;

struct keel_areas {
  area *areas;
  size_t n, cap;
  /* hex -> area index + 1 (0: empty slot) */
  keel_hex *keys;
  size_t *vals;
  size_t slots, used;
};

keel_status keel_areas_new(keel_areas **out) {
  *out = calloc(1, sizeof **out);
  return *out ? KEEL_OK : KEEL_E_NOMEM;
}

void keel_areas_free(keel_areas *a) {
  if (!a) return;
  for (size_t i = 0; i < a->n; i++) {
    free(a->areas[i].name);
    free(a->areas[i].hexes.v);
    free(a->areas[i].adj.v);
  }
  free(a->areas);
  free(a->keys);
  free(a->vals);
  free(a);
}

size_t keel_area_count(const keel_areas *a) { return a->n; }
const char *keel_area_name(const keel_areas *a, size_t i) { return i < a->n ? a->areas[i].name : NULL; }

keel_status keel_area_find(const keel_areas *a, const char *name, size_t *index) {
  for (size_t i = 0; i < a->n; i++)
    if (!strcmp(a->areas[i].name, name)) { *index = i; return KEEL_OK; }
  return KEEL_E_NOT_FOUND;
}

keel_status keel_area_add(keel_areas *a, const char *name, size_t *index) {
  size_t dummy;
  if (!name || !*name) return KEEL_E_ARG;
  if (keel_area_find(a, name, &dummy) == KEEL_OK) return KEEL_E_DUPLICATE;
  if (!KEEL_RESERVE(a->areas, a->cap, a->n + 1)) return KEEL_E_NOMEM;
  size_t len = strlen(name);
  char *copy = malloc(len + 1);
  if (!copy) return KEEL_E_NOMEM;
  memcpy(copy, name, len + 1);
  memset(&a->areas[a->n], 0, sizeof(area));
  a->areas[a->n].name = copy;
  if (index) *index = a->n;
  a->n++;
  return KEEL_OK;
}

static uint64_t mix(keel_hex h) {
  uint64_t x = (uint64_t)h;
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
  return x;
}

static size_t *lookup(const keel_areas *a, keel_hex h, int *found) {
  size_t mask = a->slots - 1, i = (size_t)mix(h) & mask;
  while (a->vals[i] != 0 && a->keys[i] != h) i = (i + 1) & mask;
  *found = a->vals[i] != 0;
  return &a->vals[i];
}

static keel_status grow(keel_areas *a) {
  size_t slots = a->slots ? a->slots * 2 : 64;
  keel_hex *keys = calloc(slots, sizeof *keys);
  size_t *vals = calloc(slots, sizeof *vals);
  if (!keys || !vals) { free(keys); free(vals); return KEEL_E_NOMEM; }
  keel_hex *ok = a->keys;
  size_t *ov = a->vals, os = a->slots;
  a->keys = keys; a->vals = vals; a->slots = slots;
  for (size_t i = 0; i < os; i++)
    if (ov[i]) {
      int found;
      size_t *slot = lookup(a, ok[i], &found);
      a->keys[slot - a->vals] = ok[i];
      *slot = ov[i];
    }
  free(ok);
  free(ov);
  return KEEL_OK;
}

keel_status keel_area_add_hex(keel_areas *a, size_t index, keel_hex h) {
  if (index >= a->n || !keel_hex_is_valid(h)) return KEEL_E_ARG;
  if ((a->used + 1) * 4 > a->slots * 3) {
    keel_status st = grow(a);
    if (st != KEEL_OK) return st;
  }
  int found;
  size_t *slot = lookup(a, h, &found);
  if (found) return *slot - 1 == index ? KEEL_OK : KEEL_E_DUPLICATE;
  hexvec *hv = &a->areas[index].hexes;
  if (!KEEL_RESERVE_FROM(hv->v, hv->cap, hv->n + 1, 16)) return KEEL_E_NOMEM;
  if (hv->n && hv->v[hv->n - 1] > h) hv->sorted = 0;
  else if (hv->n == 0) hv->sorted = 1;
  hv->v[hv->n++] = h;
  a->keys[slot - a->vals] = h;
  *slot = index + 1;
  a->used++;
  return KEEL_OK;
}

keel_status keel_area_of(const keel_areas *a, keel_hex h, size_t *index) {
  if (a->slots == 0) return KEEL_E_NOT_FOUND;
  int found;
  size_t *slot = lookup(a, h, &found);
  if (!found) return KEEL_E_NOT_FOUND;
  *index = *slot - 1;
  return KEEL_OK;
}

size_t keel_area_count_hexes(const keel_areas *a, size_t i) { return i < a->n ? a->areas[i].hexes.n : 0; }

static int cmp_hex(const void *x, const void *y) {
  keel_hex a = *(const keel_hex *)x, b = *(const keel_hex *)y;
  return (a > b) - (a < b);
}

keel_status keel_area_hexes(const keel_areas *a, size_t i, keel_hex *out, size_t cap, size_t *n) {
  if (i >= a->n) return KEEL_E_ARG;
  hexvec *hv = &((keel_areas *)a)->areas[i].hexes;   /* sorting is not a visible change */
  *n = hv->n;
  if (cap < hv->n) return KEEL_E_CAPACITY;
  if (!hv->sorted && hv->n > 1) qsort(hv->v, hv->n, sizeof *hv->v, cmp_hex);
  hv->sorted = 1;
  if (hv->n) memcpy(out, hv->v, hv->n * sizeof *out);
  return KEEL_OK;
}

static keel_status adj_insert(idxvec *v, size_t j) {
  size_t k = 0;
  while (k < v->n && v->v[k] < j) k++;
  if (k < v->n && v->v[k] == j) return KEEL_OK;
  if (!KEEL_RESERVE_FROM(v->v, v->cap, v->n + 1, 4)) return KEEL_E_NOMEM;
  memmove(v->v + k + 1, v->v + k, (v->n - k) * sizeof *v->v);
  v->v[k] = j;
  v->n++;
  return KEEL_OK;
}

keel_status keel_area_connect(keel_areas *a, size_t i, size_t j) {
  if (i >= a->n || j >= a->n || i == j) return KEEL_E_ARG;
  keel_status st = adj_insert(&a->areas[i].adj, j);
  return st != KEEL_OK ? st : adj_insert(&a->areas[j].adj, i);
}

keel_status keel_area_connect_by_hexes(keel_areas *a) {
  for (size_t i = 0; i < a->n; i++) {
    hexvec *hv = &a->areas[i].hexes;
    for (size_t k = 0; k < hv->n; k++)
      for (int d = 0; d < 3; d++) {
        keel_hex nb;
        size_t j;
        if (keel_hex_neighbor(hv->v[k], d, &nb) != KEEL_OK) continue;
        if (keel_area_of(a, nb, &j) == KEEL_OK && j != i) {
          keel_status st = keel_area_connect(a, i, j);
          if (st != KEEL_OK) return st;
        }
      }
  }
  return KEEL_OK;
}

int keel_area_adjacent(const keel_areas *a, size_t i, size_t j) {
  if (i >= a->n || j >= a->n) return 0;
  const idxvec *v = &a->areas[i].adj;
  for (size_t k = 0; k < v->n; k++) if (v->v[k] == j) return 1;
  return 0;
}

size_t keel_area_count_neighbors(const keel_areas *a, size_t i) { return i < a->n ? a->areas[i].adj.n : 0; }
size_t keel_area_neighbor(const keel_areas *a, size_t i, size_t k) {
  return (i < a->n && k < a->areas[i].adj.n) ? a->areas[i].adj.v[k] : (size_t)-1;
}

int64_t keel_area_distance(const keel_areas *a, size_t from, size_t to) {
  if (from >= a->n || to >= a->n) return -1;
  if (from == to) return 0;
  int64_t *dist = malloc(a->n * sizeof *dist);
  size_t *queue = malloc(a->n * sizeof *queue);
  int64_t result = -1;
  if (!dist || !queue) goto done;
  for (size_t i = 0; i < a->n; i++) dist[i] = -1;
  size_t head = 0, tail = 0;
  dist[from] = 0;
  queue[tail++] = from;
  while (head < tail) {
    size_t u = queue[head++];
    const idxvec *v = &a->areas[u].adj;
    for (size_t k = 0; k < v->n; k++) {
      size_t w = v->v[k];
      if (dist[w] >= 0) continue;
      dist[w] = dist[u] + 1;
      if (w == to) { result = dist[w]; goto done; }
      queue[tail++] = w;
    }
  }
done:
  free(dist);
  free(queue);
  return result;
}
