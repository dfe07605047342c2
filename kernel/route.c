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
  /* search workspace, reset where touched */
  uint32_t *dist;                  /* per state */
  int32_t *pred;                   /* per state */
  uint8_t *settled;                /* per state */
  size_t states_alloc;
  uint32_t *touched;
  size_t ntouched, touched_cap;
};

typedef struct entry { keel_hex hex; uint32_t cost; int32_t pred; } entry;

struct keel_reach {
  entry *e;             /* settled states in order; e[0] is the start */
  size_t n;
  int32_t *slot;        /* hash: hex -> index of its cheapest entry, -1 empty */
  size_t slots;
  size_t nhex;          /* distinct hexes */
  int32_t *order;       /* distinct hexes, first settled entry of each */
};

static size_t cell_of(const keel_costmap *m, keel_hex h, int *ok) {
  int64_t q = keel_hex_q(h) - m->q0, r = keel_hex_r(h) - m->r0;
  *ok = q >= 0 && r >= 0 && q < m->width && r < m->height;
  return *ok ? (size_t)((r + 1) * m->stride + (q + 1)) : 0;
}

static keel_hex hex_of(const keel_costmap *m, size_t cell) {
  int64_t r = (int64_t)cell / m->stride - 1, q = (int64_t)cell % m->stride - 1;
  keel_hex h = 0;
  keel_hex_from_qr(q + m->q0, r + m->r0, &h);
  return h;
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
  if (!m->enter || !m->cross) { keel_costmap_free(m); return KEEL_E_NOMEM; }
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
  free(m->enter); free(m->cross); free(m->coast);
  free(m->dist); free(m->pred); free(m->settled); free(m->touched);
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
typedef struct queue {
  node *pool; size_t n, cap;
  int32_t *head, *tail;   /* per bucket */
} queue;

static int push(queue *qu, uint32_t bucket, uint32_t state) {
  if (qu->n == qu->cap) {
    size_t cap = qu->cap ? qu->cap * 2 : 1024;
    node *p = realloc(qu->pool, cap * sizeof *p);
    if (!p) return 0;
    qu->pool = p;
    qu->cap = cap;
  }
  int32_t k = (int32_t)qu->n++;
  qu->pool[k].state = state;
  qu->pool[k].next = -1;
  if (qu->tail[bucket] >= 0) qu->pool[qu->tail[bucket]].next = k;
  else qu->head[bucket] = k;
  qu->tail[bucket] = k;
  return 1;
}

static keel_status workspace(keel_costmap *m, size_t states) {
  if (m->states_alloc >= states) return KEEL_OK;
  free(m->dist); free(m->pred); free(m->settled);
  m->dist = malloc(states * sizeof *m->dist);
  m->pred = malloc(states * sizeof *m->pred);
  m->settled = calloc(states, 1);
  if (!m->dist || !m->pred || !m->settled) { m->states_alloc = 0; return KEEL_E_NOMEM; }
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
  for (size_t i = 0; i < m->ntouched; i++) {
    m->dist[m->touched[i]] = UNREACHED;
    m->settled[m->touched[i]] = 0;
  }
  m->ntouched = 0;
}

static keel_status build_result(keel_costmap *m, const uint32_t *order, size_t n,
                                int shift, keel_reach **out);

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

  queue qu = { NULL, 0, 0, NULL, NULL };
  uint32_t *order = NULL;
  size_t norder = 0, order_cap = 0;
  qu.head = malloc((budget + 1) * sizeof *qu.head);
  qu.tail = malloc((budget + 1) * sizeof *qu.tail);
  if (!qu.head || !qu.tail) { st = KEEL_E_NOMEM; goto done; }
  for (uint32_t b = 0; b <= budget; b++) qu.head[b] = qu.tail[b] = -1;

  uint32_t s0 = (uint32_t)(start_cell << shift) | ((uint32_t)start_coast & coast_mask);
  m->dist[s0] = 0;
  m->pred[s0] = -1;
  if (!touch(m, s0) || !push(&qu, 0, s0)) { st = KEEL_E_NOMEM; goto done; }

  for (uint32_t b = 0; b <= budget; b++) {
    for (int32_t k = qu.head[b]; k >= 0; k = qu.pool[k].next) {
      uint32_t u = qu.pool[k].state;
      if (m->settled[u] || m->dist[u] != b) continue;
      m->settled[u] = 1;
      if (norder == order_cap) {
        order_cap = order_cap ? order_cap * 2 : 256;
        uint32_t *o = realloc(order, order_cap * sizeof *o);
        if (!o) { st = KEEL_E_NOMEM; goto done; }
        order = o;
      }
      order[norder++] = u;
      size_t cell = u >> shift;
      uint32_t cin = u & coast_mask;
      keel_hex uhex = 0;
      int have_uhex = 0;
      for (int d = 0; d < 6; d++) {
        size_t nb = (size_t)((ptrdiff_t)cell + m->step[d]);
        uint16_t enter = m->enter[nb];
        if (enter == KEEL_COST_BLOCKED) continue;
        uint16_t cross = d < 3 ? m->cross[cell * 3 + (size_t)d] : m->cross[nb * 3 + (size_t)(d - 3)];
        if (cross == KEEL_COST_BLOCKED) continue;
        uint32_t cout = 0;
        if (shift) {
          uint8_t leave = m->coast[cell * 6 + (size_t)d];
          if (cin && leave && leave != cin) continue;
          cout = m->coast[nb * 6 + (size_t)((d + 3) % 6)];
        }
        uint32_t nd = b + (uint32_t)enter + (uint32_t)cross;
        if (nd > budget) continue;
        uint32_t v = (uint32_t)(nb << shift) | cout;
        if (m->settled[v]) continue;
        if (nd < m->dist[v]) {
          if (m->dist[v] == UNREACHED && !touch(m, v)) { st = KEEL_E_NOMEM; goto done; }
          m->dist[v] = nd;
          m->pred[v] = (int32_t)u;
          if (!push(&qu, nd, v)) { st = KEEL_E_NOMEM; goto done; }
        } else if (nd == m->dist[v]) {         /* tie: the lower hex id wins */
          if (!have_uhex) { uhex = hex_of(m, cell); have_uhex = 1; }
          if (uhex < hex_of(m, (size_t)m->pred[v] >> shift)) m->pred[v] = (int32_t)u;
        }
      }
    }
  }
  st = build_result(m, order, norder, shift, out);
done:
  reset_workspace(m);
  free(qu.pool); free(qu.head); free(qu.tail); free(order);
  return st;
}

static uint64_t mix(keel_hex h) {
  uint64_t x = (uint64_t)h;
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
  return x;
}

static int32_t *find_slot(const keel_reach *r, keel_hex h) {
  size_t mask = r->slots - 1, i = (size_t)mix(h) & mask;
  while (r->slot[i] >= 0 && r->e[r->slot[i]].hex != h) i = (i + 1) & mask;
  return &r->slot[i];
}

static keel_status build_result(keel_costmap *m, const uint32_t *order, size_t n,
                                int shift, keel_reach **out) {
  keel_reach *r = calloc(1, sizeof *r);
  if (!r) return KEEL_E_NOMEM;
  r->n = n;
  r->e = malloc((n ? n : 1) * sizeof *r->e);
  r->order = malloc((n ? n : 1) * sizeof *r->order);
  r->slots = 16;
  while (r->slots < n * 2) r->slots *= 2;
  r->slot = malloc(r->slots * sizeof *r->slot);
  if (!r->e || !r->order || !r->slot) { keel_reach_free(r); return KEEL_E_NOMEM; }
  for (size_t i = 0; i < r->slots; i++) r->slot[i] = -1;
  for (size_t i = 0; i < n; i++) {
    r->e[i].hex = hex_of(m, order[i] >> shift);
    r->e[i].cost = m->dist[order[i]];
  }
  /* predecessors as entry indexes: reuse dist (reset afterwards) as state -> entry */
  for (size_t i = 0; i < n; i++) m->dist[order[i]] = (uint32_t)i;
  for (size_t i = 0; i < n; i++) {
    int32_t p = m->pred[order[i]];
    r->e[i].pred = p < 0 ? -1 : (int32_t)m->dist[(uint32_t)p];
  }
  /* settled order has nondecreasing cost: a hex's first entry is its cheapest */
  for (size_t i = 0; i < n; i++) {
    int32_t *slot = find_slot(r, r->e[i].hex);
    if (*slot < 0) {
      *slot = (int32_t)i;
      r->order[r->nhex++] = (int32_t)i;
    }
  }
  *out = r;
  return KEEL_OK;
}

void keel_reach_free(keel_reach *r) {
  if (!r) return;
  free(r->e); free(r->order); free(r->slot);
  free(r);
}

size_t keel_reach_count(const keel_reach *r) { return r->nhex; }

keel_hex keel_reach_hex(const keel_reach *r, size_t i) {
  return i < r->nhex ? r->e[r->order[i]].hex : 0;
}

keel_status keel_reach_cost(const keel_reach *r, keel_hex h, uint32_t *cost) {
  int32_t k = *find_slot(r, h);
  if (k < 0) return KEEL_E_NOT_FOUND;
  *cost = r->e[k].cost;
  return KEEL_OK;
}

keel_status keel_reach_path(const keel_reach *r, keel_hex h, keel_hex *out, size_t cap, size_t *n) {
  int32_t k = *find_slot(r, h);
  *n = 0;
  if (k < 0) return KEEL_E_NOT_FOUND;
  size_t len = 0;
  for (int32_t j = k; j >= 0; j = r->e[j].pred) len++;
  *n = len;
  if (cap < len) return KEEL_E_CAPACITY;
  for (int32_t j = k; j >= 0; j = r->e[j].pred) out[--len] = r->e[j].hex;
  return KEEL_OK;
}
