/*
 * route.c — reach sets and cheapest paths over small integer MP costs.
 *
 * A cost map covers an axial box of hexes, padded with one ring of blocked
 * cells so the search never checks bounds: cell index = row * stride + col,
 * and the six neighbours are fixed index offsets. The search is Dial's
 * algorithm: one FIFO bucket per MP value up to the budget. Its working
 * arrays live in the cost map and are reset only where they were touched,
 * so a small reach on a large map costs what it reaches, not the map size.
 *
 * With coasts, a search state is (cell, coast entered by): 27.B.5's hex with
 * two coasts separated by land is left only on the coast it was entered from.
 */
#include "keel.h"
#include <stdlib.h>
#include <string.h>

#define UNREACHED 0xffffffffu

struct keel_costmap {
  int64_t q0, r0, width, height;   /* the box of hexes */
  int64_t stride;                  /* width + 2 (padding) */
  size_t cells;                    /* (width + 2) * (height + 2) */
  uint16_t *enter;                 /* per cell */
  uint16_t *cross;                 /* per cell, canonical sides 0..2 */
  uint8_t *coast;                  /* per cell, 6 sides; NULL until a coast is set */
  ptrdiff_t step[6];               /* index offset of each direction */
  uint32_t *rank;                  /* per cell: its place in hex id order (ties) */
  /* search workspace, reset where touched */
  uint32_t *dist;                  /* per state */
  int32_t *pred;                   /* per state */
  size_t states_alloc;
  uint32_t *touched;
  size_t ntouched, touched_cap;
  struct node *pool;               /* bucket queue nodes */
  size_t pool_cap;
  uint32_t *order;                 /* states in settled order */
  size_t order_cap;
  int32_t *head, *tail;            /* per bucket */
  size_t buckets_cap;
};

struct keel_reach {
  int64_t q0, r0, stride;   /* the cost map's geometry, to turn cells into hexes */
  size_t n;                 /* settled states */
  uint32_t *cell, *cost;    /* per entry, in settled order; entry 0 is the start */
  int32_t *pred;            /* per entry: entry index of the predecessor, -1 */
  int coasts;               /* several entries may share a hex */
  /* the query index, built on first use: hex -> cheapest entry */
  int32_t *slot;
  size_t slots;
  int32_t *first;           /* distinct hexes: their cheapest entry, settled order */
  size_t nhex;
};

static size_t cell_of(const keel_costmap *m, keel_hex h, int *ok) {
  int64_t q = keel_hex_q(h) - m->q0, r = keel_hex_r(h) - m->r0;
  *ok = q >= 0 && r >= 0 && q < m->width && r < m->height;
  return *ok ? (size_t)((r + 1) * m->stride + (q + 1)) : 0;
}

int keel_costmap_contains(const keel_costmap *m, keel_hex h) {
  int ok;
  cell_of(m, h, &ok);
  return ok;
}

keel_status keel_costmap_new(int64_t q0, int64_t r0, int64_t width, int64_t height,
                             keel_costmap **out) {
  *out = NULL;
  if (width < 1 || height < 1 || width > 16384 || height > 16384) return KEEL_E_RANGE;
  if (!keel_hex_is_valid_qr(q0, r0) || !keel_hex_is_valid_qr(q0 + width, r0 + height))
    return KEEL_E_RANGE;
  keel_costmap *m = calloc(1, sizeof *m);
  if (!m) return KEEL_E_NOMEM;
  m->q0 = q0; m->r0 = r0; m->width = width; m->height = height;
  m->stride = width + 2;
  m->cells = (size_t)((width + 2) * (height + 2));
  m->enter = malloc(m->cells * sizeof *m->enter);
  m->cross = malloc(m->cells * 3 * sizeof *m->cross);
  m->rank = calloc(m->cells, sizeof *m->rank);
  if (!m->enter || !m->cross || !m->rank) { keel_costmap_free(m); return KEEL_E_NOMEM; }
  /* hex ids order by q, then by r's low 32 bits unsigned: r >= 0 before r < 0 */
  uint32_t next = 0;
  for (int64_t q = 0; q < width; q++)
    for (int pass = 0; pass < 2; pass++)
      for (int64_t r = 0; r < height; r++) {
        if ((r + r0 < 0) != pass) continue;
        m->rank[(size_t)((r + 1) * m->stride + (q + 1))] = next++;
      }
  for (int d = 0; d < 6; d++) {
    int dq, dr;
    keel_hex_direction_qr(d, &dq, &dr);
    m->step[d] = (ptrdiff_t)dr * m->stride + dq;
  }
  keel_costmap_fill(m, KEEL_COST_BLOCKED, 0);
  *out = m;
  return KEEL_OK;
}

void keel_costmap_free(keel_costmap *m) {
  if (!m) return;
  free(m->enter); free(m->cross); free(m->coast); free(m->rank);
  free(m->dist); free(m->pred); free(m->touched);
  free(m->pool); free(m->order); free(m->head); free(m->tail);
  free(m);
}

static int is_padding(const keel_costmap *m, size_t cell) {
  int64_t r = (int64_t)cell / m->stride, q = (int64_t)cell % m->stride;
  return r == 0 || q == 0 || r == m->height + 1 || q == m->width + 1;
}

void keel_costmap_fill(keel_costmap *m, uint16_t enter, uint16_t cross) {
  for (size_t i = 0; i < m->cells; i++) {
    int pad = is_padding(m, i);
    m->enter[i] = pad ? KEEL_COST_BLOCKED : enter;
    for (int d = 0; d < 3; d++) m->cross[i * 3 + d] = pad ? KEEL_COST_BLOCKED : cross;
  }
  free(m->coast);
  m->coast = NULL;
}

static int cost_ok(uint16_t c) { return c <= KEEL_COST_MAX || c == KEEL_COST_BLOCKED; }

keel_status keel_costmap_set_enter(keel_costmap *m, keel_hex h, uint16_t cost) {
  int ok;
  size_t c = cell_of(m, h, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  if (!cost_ok(cost)) return KEEL_E_RANGE;
  m->enter[c] = cost;
  return KEEL_OK;
}

keel_status keel_costmap_get_enter(const keel_costmap *m, keel_hex h, uint16_t *cost) {
  int ok;
  size_t c = cell_of(m, h, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  *cost = m->enter[c];
  return KEEL_OK;
}

/* The canonical slot of a side: its first hex and direction 0..2; a side of
 * a hex on the box's edge whose first hex lies outside it has no slot. */
static keel_status side_slot(const keel_costmap *m, keel_side s, size_t *slot) {
  if (!keel_side_is_valid(s)) return KEEL_E_ARG;
  keel_hex a, b;
  keel_side_hexes(s, &a, &b);
  int oka, okb;
  size_t c = cell_of(m, a, &oka);
  cell_of(m, b, &okb);
  if (!oka || !okb) return KEEL_E_OFF_BOARD;
  *slot = c * 3 + (size_t)keel_side_direction(s);
  return KEEL_OK;
}

keel_status keel_costmap_set_cross(keel_costmap *m, keel_side s, uint16_t cost) {
  size_t slot;
  keel_status st = side_slot(m, s, &slot);
  if (st != KEEL_OK) return st;
  if (!cost_ok(cost)) return KEEL_E_RANGE;
  m->cross[slot] = cost;
  return KEEL_OK;
}

keel_status keel_costmap_get_cross(const keel_costmap *m, keel_side s, uint16_t *cost) {
  size_t slot;
  keel_status st = side_slot(m, s, &slot);
  if (st != KEEL_OK) return st;
  *cost = m->cross[slot];
  return KEEL_OK;
}

keel_status keel_costmap_set_coast(keel_costmap *m, keel_hex h, int dir, int coast) {
  int ok;
  size_t c = cell_of(m, h, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  if (dir < 0 || dir > 5 || coast < 0 || coast >= KEEL_COASTS) return KEEL_E_ARG;
  if (!m->coast) {
    m->coast = calloc(m->cells * 6, 1);
    if (!m->coast) return KEEL_E_NOMEM;
  }
  m->coast[c * 6 + (size_t)dir] = (uint8_t)coast;
  return KEEL_OK;
}

/* ---- the search ------------------------------------------------------------ */

typedef struct node { uint32_t state; int32_t next; } node;

/* append a state to a bucket (FIFO) */
static int push(keel_costmap *m, size_t *npool, uint32_t bucket, uint32_t state) {
  if (*npool == m->pool_cap) {
    size_t cap = m->pool_cap ? m->pool_cap * 2 : 4096;
    node *p = realloc(m->pool, cap * sizeof *p);
    if (!p) return 0;
    m->pool = p;
    m->pool_cap = cap;
  }
  int32_t k = (int32_t)(*npool)++;
  m->pool[k].state = state;
  m->pool[k].next = -1;
  if (m->tail[bucket] >= 0) m->pool[m->tail[bucket]].next = k;
  else m->head[bucket] = k;
  m->tail[bucket] = k;
  return 1;
}

static keel_status workspace(keel_costmap *m, size_t states) {
  if (m->states_alloc >= states) return KEEL_OK;
  free(m->dist); free(m->pred);
  m->dist = malloc(states * sizeof *m->dist);
  m->pred = malloc(states * sizeof *m->pred);
  if (!m->dist || !m->pred) { m->states_alloc = 0; return KEEL_E_NOMEM; }
  for (size_t i = 0; i < states; i++) m->dist[i] = UNREACHED;
  m->states_alloc = states;
  return KEEL_OK;
}

static int touch(keel_costmap *m, uint32_t state) {
  if (m->ntouched == m->touched_cap) {
    size_t cap = m->touched_cap ? m->touched_cap * 2 : 1024;
    uint32_t *t = realloc(m->touched, cap * sizeof *t);
    if (!t) return 0;
    m->touched = t;
    m->touched_cap = cap;
  }
  m->touched[m->ntouched++] = state;
  return 1;
}

static void reset_workspace(keel_costmap *m) {
  for (size_t i = 0; i < m->ntouched; i++) m->dist[m->touched[i]] = UNREACHED;
  m->ntouched = 0;
}

static keel_status build_result(keel_costmap *m, const uint32_t *order, size_t n,
                                int shift, keel_reach **out);

/* Grow a workspace array so that `need` more items fit. */
static int reserve(void **v, size_t *cap, size_t used, size_t need, size_t item) {
  if (used + need <= *cap) return 1;
  size_t c = *cap ? *cap : 1024;
  while (c < used + need) c *= 2;
  void *p = realloc(*v, c * item);
  if (!p) return 0;
  *v = p;
  *cap = c;
  return 1;
}

/* The bucket-queue loop. `coasts` is a constant at each call, so the
 * compiler makes one loop without the coast logic and one with it; hot
 * arrays are held in locals so stores to dist/pred don't force reloads. */
static inline __attribute__((always_inline)) keel_status
search(keel_costmap *m, uint32_t budget, const int coasts, size_t *npool_io, size_t *norder_io) {
  const int shift = coasts ? 2 : 0;
  const uint16_t *enter = m->enter, *cross = m->cross;
  const uint8_t *coast = m->coast;
  const uint32_t *rank = m->rank;
  uint32_t *dist = m->dist;
  int32_t *pred = m->pred, *head = m->head, *tail = m->tail;
  ptrdiff_t step[6];
  for (int d = 0; d < 6; d++) step[d] = m->step[d];
  size_t npool = *npool_io, norder = 0, ntouched = m->ntouched;
  keel_status st = KEEL_OK;
  for (uint32_t b = 0; b <= budget; b++) {
    for (int32_t k = head[b]; k >= 0; k = m->pool[k].next) {
      uint32_t u = m->pool[k].state;
      /* stale entry; a state is settled once, at the bucket of its cost
       * (it is pushed again only when its cost drops) */
      if (dist[u] != b) continue;
      if (!reserve((void **)&m->order, &m->order_cap, norder, 1, sizeof *m->order) ||
          !reserve((void **)&m->pool, &m->pool_cap, npool, 6, sizeof *m->pool) ||
          !reserve((void **)&m->touched, &m->touched_cap, ntouched, 6, sizeof *m->touched)) {
        st = KEEL_E_NOMEM;
        goto out;
      }
      node *pool = m->pool;
      uint32_t *touched = m->touched;
      m->order[norder++] = u;
      size_t cell = u >> shift;
      uint32_t cin = coasts ? (u & 3u) : 0;
      for (int d = 0; d < 6; d++) {
        size_t nb = (size_t)((ptrdiff_t)cell + step[d]);
        uint32_t e = enter[nb];
        if (e == KEEL_COST_BLOCKED) continue;
        uint32_t c = d < 3 ? cross[cell * 3 + (size_t)d] : cross[nb * 3 + (size_t)(d - 3)];
        if (c == KEEL_COST_BLOCKED) continue;
        uint32_t cout = 0;
        if (coasts) {
          uint8_t leave = coast[cell * 6 + (size_t)d];
          if (cin && leave && leave != cin) continue;
          cout = coast[nb * 6 + (size_t)((d + 3) % 6)];
        }
        uint32_t nd = b + e + c;
        if (nd > budget) continue;
        uint32_t v = (uint32_t)(nb << shift) | cout;
        if (nd < dist[v]) {
          if (dist[v] == UNREACHED) touched[ntouched++] = v;
          dist[v] = nd;
          pred[v] = (int32_t)u;
          int32_t n = (int32_t)npool++;            /* append to bucket nd */
          pool[n].state = v;
          pool[n].next = -1;
          if (tail[nd] >= 0) pool[tail[nd]].next = n; else head[nd] = n;
          tail[nd] = n;
        } else if (nd == dist[v] && nd != b &&   /* tie, v unsettled: lower hex id wins */
                   rank[cell] < rank[(size_t)pred[v] >> shift]) {
          pred[v] = (int32_t)u;
        }
      }
    }
  }
out:
  m->ntouched = ntouched;
  *npool_io = npool;
  *norder_io = norder;
  return st;
}

keel_status keel_reach_new(const keel_costmap *cm, keel_hex start, int start_coast,
                           uint32_t budget, keel_reach **out) {
  keel_costmap *m = (keel_costmap *)cm;   /* only the workspace changes */
  *out = NULL;
  int ok;
  size_t start_cell = cell_of(m, start, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  if (start_coast < 0 || start_coast >= KEEL_COASTS) return KEEL_E_ARG;
  if (budget > 1u << 20) return KEEL_E_RANGE;
  const int shift = m->coast ? 2 : 0;            /* state = cell << shift | coast */
  const uint32_t coast_mask = m->coast ? 3u : 0u;
  if (m->cells << shift > 0x7fffffffu) return KEEL_E_RANGE;
  keel_status st = workspace(m, m->cells << shift);
  if (st != KEEL_OK) return st;

  size_t npool = 0, norder = 0;
  if (m->buckets_cap < (size_t)budget + 1) {
    free(m->head); free(m->tail);
    m->head = malloc(((size_t)budget + 1) * sizeof *m->head);
    m->tail = malloc(((size_t)budget + 1) * sizeof *m->tail);
    m->buckets_cap = (m->head && m->tail) ? (size_t)budget + 1 : 0;
    if (!m->buckets_cap) { st = KEEL_E_NOMEM; goto done; }
  }
  for (uint32_t b = 0; b <= budget; b++) m->head[b] = m->tail[b] = -1;

  uint32_t s0 = (uint32_t)(start_cell << shift) | ((uint32_t)start_coast & coast_mask);
  m->dist[s0] = 0;
  m->pred[s0] = -1;
  if (!touch(m, s0) || !push(m, &npool, 0, s0)) { st = KEEL_E_NOMEM; goto done; }

  st = shift ? search(m, budget, 1, &npool, &norder) : search(m, budget, 0, &npool, &norder);
  if (st != KEEL_OK) goto done;
  st = build_result(m, m->order, norder, shift, out);
done:
  reset_workspace(m);
  return st;
}

static uint64_t mix(uint32_t cell) {
  uint64_t x = cell;
  x ^= x >> 16; x *= 0x45d9f3bULL; x ^= x >> 16;
  return x;
}

static keel_hex entry_hex(const keel_reach *r, size_t i) {
  int64_t c = r->cell[i];
  int64_t q = c % r->stride - 1 + r->q0, rr = c / r->stride - 1 + r->r0;
  return (keel_hex)(((uint64_t)q << 32) | ((uint64_t)rr & 0xffffffffu));
}

static keel_status build_result(keel_costmap *m, const uint32_t *order, size_t n,
                                int shift, keel_reach **out) {
  keel_reach *r = calloc(1, sizeof *r);
  if (!r) return KEEL_E_NOMEM;
  r->q0 = m->q0; r->r0 = m->r0; r->stride = m->stride;
  r->n = n;
  r->coasts = shift != 0;
  r->cell = malloc((n ? n : 1) * sizeof *r->cell);
  r->cost = malloc((n ? n : 1) * sizeof *r->cost);
  r->pred = malloc((n ? n : 1) * sizeof *r->pred);
  if (!r->cell || !r->cost || !r->pred) { keel_reach_free(r); return KEEL_E_NOMEM; }
  for (size_t i = 0; i < n; i++) {
    r->cell[i] = order[i] >> shift;
    r->cost[i] = m->dist[order[i]];
  }
  /* predecessors as entry indexes: reuse dist (reset afterwards) as state -> entry */
  for (size_t i = 0; i < n; i++) m->dist[order[i]] = (uint32_t)i;
  for (size_t i = 0; i < n; i++) {
    int32_t p = m->pred[order[i]];
    r->pred[i] = p < 0 ? -1 : (int32_t)m->dist[(uint32_t)p];
  }
  r->nhex = r->coasts ? (size_t)-1 : n;
  *out = r;
  return KEEL_OK;
}

/* Build the hex -> entry index; settled order has nondecreasing cost, so a
 * hex's first entry is its cheapest. */
static keel_status ensure_index(const keel_reach *cr) {
  keel_reach *r = (keel_reach *)cr;   /* the index is a cache, not a visible change */
  if (r->slot) return KEEL_OK;
  size_t slots = 16;
  while (slots < r->n * 2) slots *= 2;
  int32_t *slot = malloc(slots * sizeof *slot);
  int32_t *first = malloc((r->n ? r->n : 1) * sizeof *first);
  if (!slot || !first) { free(slot); free(first); return KEEL_E_NOMEM; }
  for (size_t i = 0; i < slots; i++) slot[i] = -1;
  size_t nhex = 0, mask = slots - 1;
  for (size_t i = 0; i < r->n; i++) {
    size_t k = (size_t)mix(r->cell[i]) & mask;
    while (slot[k] >= 0 && r->cell[slot[k]] != r->cell[i]) k = (k + 1) & mask;
    if (slot[k] < 0) { slot[k] = (int32_t)i; first[nhex++] = (int32_t)i; }
  }
  r->slot = slot; r->slots = slots; r->first = first; r->nhex = nhex;
  return KEEL_OK;
}

/* The cheapest entry of hex h, or -1. */
static int32_t find_entry(const keel_reach *r, keel_hex h) {
  if (ensure_index(r) != KEEL_OK) return -1;
  int64_t q = keel_hex_q(h) - r->q0, rr = keel_hex_r(h) - r->r0;
  if (q < 0 || rr < 0 || q >= r->stride - 2) return -1;
  int64_t c64 = (rr + 1) * r->stride + (q + 1);
  if (c64 > 0xffffffffLL) return -1;
  uint32_t c = (uint32_t)c64;
  size_t mask = r->slots - 1, k = (size_t)mix(c) & mask;
  while (r->slot[k] >= 0 && r->cell[r->slot[k]] != c) k = (k + 1) & mask;
  return r->slot[k];
}

void keel_reach_free(keel_reach *r) {
  if (!r) return;
  free(r->cell); free(r->cost); free(r->pred); free(r->slot); free(r->first);
  free(r);
}

size_t keel_reach_count(const keel_reach *r) {
  if (r->nhex == (size_t)-1 && ensure_index(r) != KEEL_OK) return 0;
  return r->nhex;
}

keel_hex keel_reach_hex(const keel_reach *r, size_t i) {
  if (i >= keel_reach_count(r)) return 0;
  return entry_hex(r, r->first ? (size_t)r->first[i] : i);
}

keel_status keel_reach_cost(const keel_reach *r, keel_hex h, uint32_t *cost) {
  int32_t k = find_entry(r, h);
  if (k < 0) return KEEL_E_NOT_FOUND;
  *cost = r->cost[k];
  return KEEL_OK;
}

keel_status keel_reach_path(const keel_reach *r, keel_hex h, keel_hex *out, size_t cap, size_t *n) {
  int32_t k = find_entry(r, h);
  *n = 0;
  if (k < 0) return KEEL_E_NOT_FOUND;
  size_t len = 0;
  for (int32_t j = k; j >= 0; j = r->pred[j]) len++;
  *n = len;
  if (cap < len) return KEEL_E_CAPACITY;
  for (int32_t j = k; j >= 0; j = r->pred[j]) out[--len] = entry_hex(r, (size_t)j);
  return KEEL_OK;
}

size_t keel_reach_bytes(const keel_reach *r) {
  return sizeof *r + r->n * (sizeof *r->cell + sizeof *r->cost + sizeof *r->pred);
}
