/*
 * route.c — reach sets and cheapest paths over small integer MP costs.
 *
 * A cost map covers an axial box of hexes, padded with one ring of blocked
 * cells so the search never checks bounds: cell index = row * stride + col,
 * and the six neighbours are fixed index offsets. What the search reads is
 * one edge cost byte per cell and direction (cross + enter, kept up to
 * date by every setter), so a move costs one load. A graph holds the same
 * search's input as compressed adjacency (CSR) over nodes named by keys.
 *
 * The search is Dial's algorithm: one FIFO bucket per MP value up to the
 * budget. It writes the reach set (cell, cost, predecessor entry) as it
 * settles states, so there is no second pass. Its working arrays live in
 * the cost map or graph and are reset only where they were touched, so a
 * small reach on a large map costs what it reaches, not the map size. One
 * inlined loop is specialised at compile time for hexes or graph nodes,
 * with or without coasts, with or without a predicate.
 *
 * With coasts, a search state is (cell, coast entered by): 27.B.5's hex with
 * two coasts separated by land is left only on the coast it was entered from.
 *
 * Lookups in a reach set (hex -> cheapest entry): a hex search without
 * coasts leaves each settled cell's entry in the cost map's per-state
 * array, which the set may borrow until the map's next search (a host
 * sets keel_reach.lender; see route_impl.h). Otherwise the set builds its
 * own index on first use: a dense array over the reached cells' box, or
 * open addressing when that box is sparse (and for graphs).
 */
#include "array.h"
#include "route_impl.h"
#include <stdlib.h>
#include <string.h>

#define UNREACHED 0xffffffffu

typedef struct keel_qnode qnode;

struct keel_graph {
  int finished;
  int64_t *key;             /* sorted after finish */
  size_t n, cap;
  struct gedge { int64_t from, to; uint16_t cost; } *pend;   /* edges before finish */
  size_t npend, cappend;
  uint32_t *off, *tgt;      /* CSR: edges of node u are off[u] .. off[u+1]-1 */
  uint16_t *cost;
  uint8_t *flag;            /* per node, during one search: 1 blocked, 2 stop */
  struct keel_work work;
};

/* ---- cost maps ----------------------------------------------------------------- */

size_t keel__costmap_cell(const keel_costmap *m, keel_hex h, int *ok) {
  int64_t q = keel_hex_q(h) - m->q0, r = keel_hex_r(h) - m->r0;
  *ok = keel_hex_is_valid(h) && q >= 0 && r >= 0 && q < m->width && r < m->height;
  return *ok ? (size_t)((r + 1) * m->stride + (q + 1)) : 0;
}
#define cell_of keel__costmap_cell

int keel_costmap_contains(const keel_costmap *m, keel_hex h) {
  int ok;
  cell_of(m, h, &ok);
  return ok;
}

static void work_free(struct keel_work *w) {
  free(w->sp); free(w->pool); free(w->head); free(w->tail); free(w->run); free(w->verdict);
  free(w->ent);
  memset(w, 0, sizeof *w);
}

keel_status keel_costmap_new(int64_t q0, int64_t r0, int64_t width, int64_t height,
                             keel_costmap **out) {
  *out = NULL;
  if (width < 1 || height < 1 || width > 16384 || height > 16384) return KEEL_E_RANGE;
  if (!keel_hex_is_valid_qr(q0, r0) || !keel_hex_is_valid_qr(q0 + width, r0 + height))
    return KEEL_E_RANGE;
  if ((width + 2) * (height + 2) * 4 > 0x7fffffffLL) return KEEL_E_RANGE;
  keel_costmap *m = calloc(1, sizeof *m);
  if (!m) return KEEL_E_NOMEM;
  m->q0 = q0; m->r0 = r0; m->width = width; m->height = height;
  m->stride = width + 2;
  m->cells = (size_t)((width + 2) * (height + 2));
  m->enter = malloc(m->cells * sizeof *m->enter);
  m->cross = malloc(m->cells * 3 * sizeof *m->cross);
  m->edge = calloc(m->cells * 8, sizeof *m->edge);
  m->rank = calloc(m->cells, sizeof *m->rank);
  if (!m->enter || !m->cross || !m->edge || !m->rank) { keel_costmap_free(m); return KEEL_E_NOMEM; }
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
  free(m->enter); free(m->cross); free(m->edge); free(m->coast); free(m->rank);
  work_free(&m->work);
  free(m);
}

static int is_padding(const keel_costmap *m, size_t cell) {
  int64_t r = (int64_t)cell / m->stride, q = (int64_t)cell % m->stride;
  return r == 0 || q == 0 || r == m->height + 1 || q == m->width + 1;
}

/* cross cost of the side of `cell` in direction d (0..5) */
static uint16_t cross_at(const keel_costmap *m, size_t cell, int d) {
  return d < 3 ? m->cross[cell * 3 + (size_t)d]
               : m->cross[(size_t)((ptrdiff_t)cell + m->step[d]) * 3 + (size_t)(d - 3)];
}

/* the edge cost of leaving `cell` in direction d */
static uint8_t edge_value(const keel_costmap *m, size_t cell, int d) {
  if (is_padding(m, cell)) return KEEL_EDGE_BLOCKED;
  uint32_t e = m->enter[(size_t)((ptrdiff_t)cell + m->step[d])], c = cross_at(m, cell, d);
  if (e == KEEL_COST_BLOCKED || c == KEEL_COST_BLOCKED) return KEEL_EDGE_BLOCKED;
  return e + c >= KEEL_EDGE_BIG ? KEEL_EDGE_BIG : (uint8_t)(e + c);
}

static uint32_t big_cost(const keel_costmap *m, size_t cell, int d) {
  return (uint32_t)m->enter[(size_t)((ptrdiff_t)cell + m->step[d])] + cross_at(m, cell, d);
}

void keel__costmap_update_edges(keel_costmap *m) {
  for (size_t i = 0; i < m->cells; i++)
    for (int d = 0; d < 6; d++) m->edge[i * 8 + (size_t)d] = edge_value(m, i, d);
}

/* the edges into cell (from its six neighbours) */
static void update_edges_into(keel_costmap *m, size_t cell) {
  for (int d = 0; d < 6; d++) {
    size_t nb = (size_t)((ptrdiff_t)cell + m->step[d]);
    m->edge[nb * 8 + (size_t)((d + 3) % 6)] = edge_value(m, nb, (d + 3) % 6);
  }
}

void keel_costmap_fill(keel_costmap *m, uint16_t enter, uint16_t cross) {
  for (size_t i = 0; i < m->cells; i++) {
    int pad = is_padding(m, i);
    m->enter[i] = pad ? KEEL_COST_BLOCKED : enter;
    for (int d = 0; d < 3; d++) m->cross[i * 3 + d] = pad ? KEEL_COST_BLOCKED : cross;
  }
  keel__costmap_update_edges(m);
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
  update_edges_into(m, c);
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
 * a hex on the box's edge whose other hex lies outside it has no slot. */
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
  size_t a = slot / 3;
  int d = (int)(slot % 3);
  size_t b = (size_t)((ptrdiff_t)a + m->step[d]);
  m->edge[a * 8 + (size_t)d] = edge_value(m, a, d);
  m->edge[b * 8 + (size_t)(d + 3)] = edge_value(m, b, d + 3);
  return KEEL_OK;
}

keel_status keel_costmap_get_cross(const keel_costmap *m, keel_side s, uint16_t *cost) {
  size_t slot;
  keel_status st = side_slot(m, s, &slot);
  if (st != KEEL_OK) return st;
  *cost = m->cross[slot];
  return KEEL_OK;
}

keel_status keel__costmap_alloc_coasts(keel_costmap *m) {
  if (m->coast) return KEEL_OK;
  m->coast = calloc(m->cells * 6, 1);
  return m->coast ? KEEL_OK : KEEL_E_NOMEM;
}

keel_status keel_costmap_set_coast(keel_costmap *m, keel_hex h, int dir, int coast) {
  int ok;
  size_t c = cell_of(m, h, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  if (dir < 0 || dir > 5 || coast < 0 || coast >= KEEL_COASTS) return KEEL_E_ARG;
  keel_status st = keel__costmap_alloc_coasts(m);
  if (st != KEEL_OK) return st;
  m->coast[c * 6 + (size_t)dir] = (uint8_t)coast;
  return KEEL_OK;
}

int keel_costmap_has_coasts(const keel_costmap *m) { return m->coast != NULL; }

keel_status keel_costmap_step(const keel_costmap *m, keel_hex from, int coast_in, keel_hex to,
                              uint32_t *cost, int *coast_out) {
  int oka, okb;
  size_t a = cell_of(m, from, &oka);
  cell_of(m, to, &okb);
  *cost = UINT32_MAX;
  *coast_out = 0;
  if (!oka || !okb) return KEEL_E_OFF_BOARD;
  if (coast_in < 0 || coast_in >= KEEL_COASTS) return KEEL_E_ARG;
  int d = keel_hex_direction_to(from, to);
  if (d < 0) return KEEL_E_NOT_ADJACENT;
  uint8_t e = m->edge[a * 8 + (size_t)d];
  if (e == KEEL_EDGE_BLOCKED) return KEEL_OK;
  if (m->coast) {
    size_t b = (size_t)((ptrdiff_t)a + m->step[d]);
    int leave = m->coast[a * 6 + (size_t)d];
    if (coast_in && leave && leave != coast_in) return KEEL_OK;
    *coast_out = m->coast[b * 6 + (size_t)((d + 3) % 6)];
  }
  *cost = e == KEEL_EDGE_BIG ? big_cost(m, a, d) : e;
  return KEEL_OK;
}

/* ---- the search ------------------------------------------------------------ */

static keel_status work_ready(struct keel_work *w, size_t states, uint32_t budget, int filter) {
  if (w->states < states) {
    free(w->sp);
    w->sp = malloc(states * sizeof *w->sp);
    w->states = w->sp ? states : 0;
    if (!w->sp) return KEEL_E_NOMEM;
    for (size_t i = 0; i < states; i++) { w->sp[i].dist = UNREACHED; w->sp[i].pred = -1; }
  }
  if (w->buckets < (size_t)budget + 1) {
    size_t nb = (size_t)budget + 1;
    free(w->head); free(w->tail); free(w->run);
    w->head = malloc(nb * sizeof *w->head);
    w->tail = malloc(nb * sizeof *w->tail);
    w->run = malloc(nb * sizeof *w->run);
    w->buckets = (w->head && w->tail && w->run) ? nb : 0;
    if (!w->buckets) return KEEL_E_NOMEM;
    for (size_t b = 0; b < nb; b++) w->head[b] = w->tail[b] = -1;
  }
  if (!w->pool) {
    w->pool = malloc(4096 * sizeof *w->pool);
    if (!w->pool) return KEEL_E_NOMEM;
    w->pool_cap = 4096;
  }
  if (!w->ent) {
    w->ent = malloc(1024 * sizeof *w->ent);
    if (!w->ent) return KEEL_E_NOMEM;
    w->ecap = 1024;
  }
  if (filter) {
    if (w->verdicts < states) {
      free(w->verdict);
      w->verdict = malloc(states);
      w->verdicts = w->verdict ? states : 0;
      if (!w->verdict) return KEEL_E_NOMEM;
    }
    memset(w->verdict, 0, states);
  }
  return KEEL_OK;
}

/* Make room for `need` more queue nodes and one more entry (n used). */
static int grow(struct keel_work *w, size_t n, size_t npool, size_t need) {
  return KEEL_RESERVE(w->pool, w->pool_cap, npool + need) && KEEL_RESERVE(w->ent, w->ecap, n + 1);
}

/* Copy the n entries and nrun runs the search left in the workspace into a
 * reach set: one block (header, keys for a graph, entries, runs). */
static keel_status make_reach(const struct keel_work *w, size_t n, size_t nrun,
                              const keel_graph *g, const keel_reach_opts *opts, keel_reach **out) {
  size_t head = (sizeof(keel_reach) + 7) & ~(size_t)7;
  size_t keys = g ? n * sizeof(int64_t) : 0;
  size_t bytes = head + keys + n * sizeof(struct keel_entry) + nrun * sizeof(struct keel_run);
  int owned = !(opts && opts->alloc);
  char *p = owned ? malloc(bytes) : opts->alloc(opts->alloc_ud, bytes);
  if (!p) return KEEL_E_NOMEM;
  keel_reach *r = (keel_reach *)p;
  memset(r, 0, sizeof *r);
  r->owned = owned;
  r->graph = g != NULL;
  r->n = n;
  r->key = g ? (int64_t *)(p + head) : NULL;
  r->ent = (struct keel_entry *)(p + head + keys);
  r->run = (struct keel_run *)(r->ent + n);
  r->nrun = nrun;
  memcpy(r->ent, w->ent, n * sizeof *r->ent);
  memcpy(r->run, w->run, nrun * sizeof *r->run);
  if (g) for (size_t i = 0; i < n; i++) r->key[i] = g->key[w->ent[i].cell];
  r->nhex = n;
  *out = r;
  return KEEL_OK;
}

/* The inputs of one search: a cost map's cells or a graph's nodes. */
typedef struct source {
  const keel_costmap *m;      /* hex mode */
  const keel_graph *g;        /* graph mode */
  const keel_reach_opts *opts;
} source;

static keel_hex cell_hex(int64_t q0, int64_t r0, int64_t stride, uint32_t c) {
  int64_t q = (int64_t)c % stride - 1 + q0, r = (int64_t)c / stride - 1 + r0;
  return (keel_hex)(((uint64_t)q << 32) | ((uint64_t)r & 0xffffffffu));
}

/* ask the predicate about node/cell x once per search; 1 yes, 0 no, -1 abort */
static int ask(const source *s, uint8_t *verdict, uint32_t x) {
  if (verdict[x]) return verdict[x] == 1;
  keel_hex h = s->g ? s->g->key[x] : cell_hex(s->m->q0, s->m->r0, s->m->stride, x);
  int v = s->opts->allow(s->opts->ud, h);
  if (v < 0) return -1;
  verdict[x] = v ? 1 : 2;
  return v != 0;
}

/* Relax the move from settled state u (entry i, cost b) to node/cell nb at
 * cost c; d is the direction (hex mode, for coasts). A macro so that the
 * hex and graph loops share it and stay one inlined loop each. With `small`
 * (budget < KEEL_EDGE_BIG) a blocked or big edge fails the budget test. */
#define RELAX(nb_, c_, d_) do {                                                 \
    uint32_t nb = (nb_), nd = b + (c_), cout = 0;                               \
    if (nd > budget) break;                                                     \
    if (coasts) {                                                               \
      uint8_t leave = coast[(size_t)cell * 6 + (d_)];                           \
      if (cin && leave && leave != cin) break;                                  \
      cout = coast[(size_t)nb * 6 + ((d_) + 3) % 6];                            \
    }                                                                           \
    uint32_t v = (nb << shift) | cout, dv = sp[v].dist;                         \
    if (nd < dv) {                                                              \
      if (filter && dv == UNREACHED) {                                          \
        int ok_ = ask(s, verdict, nb);                                          \
        if (ok_ < 0) { st = KEEL_E_LIMIT; goto out; }                           \
        if (!ok_) break;                                                        \
      }                                                                         \
      sp[v].dist = nd;                                                          \
      sp[v].pred = i;                                                           \
      int32_t q_ = (int32_t)npool++;            /* append to bucket nd */       \
      pool[q_].state = v;                                                       \
      pool[q_].next = -1;                                                       \
      if (tail[nd] >= 0) pool[tail[nd]].next = q_; else head[nd] = q_;          \
      tail[nd] = q_;                                                            \
      if (nd > maxb) maxb = nd;                                                 \
    } else if (nd == dv && nd != b) {          /* a tie, v unsettled: lower id wins */ \
      uint32_t other_ = ent[sp[v].pred].cell;                                   \
      if (graph ? cell < other_ : rk < rank[other_]) sp[v].pred = i;            \
    }                                                                           \
  } while (0)

/* The bucket-queue loop from the start state s0, for a budget. `graph`,
 * `coasts`, `filter` and `small` are constants at each call, so the
 * compiler makes one loop per combination and the plain hex loop carries
 * neither coast, predicate nor adjacency-list logic. Hot arrays are held in
 * locals so stores don't force reloads. Only buckets up to the highest one
 * used are visited, and each is left empty once drained. */
static inline __attribute__((always_inline)) keel_status
search(const source *s, struct keel_work *w, uint32_t s0, uint32_t budget, size_t *nout,
       size_t *nrun, const int graph, const int coasts, const int filter, const int small) {
  const int shift = coasts ? 2 : 0;
  const keel_costmap *m = s->m;
  const keel_graph *g = s->g;
  const uint8_t *edge = graph ? NULL : m->edge;
  const uint8_t *coast = coasts ? m->coast : NULL;
  const uint32_t *rank = graph ? NULL : m->rank;
  const uint32_t *off = graph ? g->off : NULL, *tgt = graph ? g->tgt : NULL;
  const uint16_t *ecost = graph ? g->cost : NULL;
  const uint8_t *flag = graph ? g->flag : NULL;
  const ptrdiff_t S = graph ? 0 : m->stride;
  struct keel_sp *sp = w->sp;
  int32_t *head = w->head, *tail = w->tail;
  struct keel_run *run = w->run;
  uint8_t *verdict = w->verdict;
  qnode *pool = w->pool;
  size_t pool_cap = w->pool_cap, n = 0, nr = 0, npool = 1, cap = w->ecap;
  struct keel_entry *ent = w->ent;
  keel_status st = KEEL_OK;
  uint32_t b = 0, maxb = 0;
  sp[s0].dist = 0;
  sp[s0].pred = -1;
  pool[0].state = s0;
  pool[0].next = -1;
  head[0] = tail[0] = 0;
  for (; b <= maxb; b++) {
    size_t n0 = n;
    for (int32_t k = head[b]; k >= 0; k = pool[k].next) {
      uint32_t u = pool[k].state;
      /* stale entry; a state is settled once, at the bucket of its cost
       * (it is pushed again only when its cost drops) */
      if (sp[u].dist != b) continue;
      uint32_t cell = u >> shift;
      uint32_t lo = graph ? off[cell] : 0, hi = graph ? off[cell + 1] : 6;
      if (npool + (hi - lo) > pool_cap || n == cap) {
        if (!grow(w, n, npool, hi - lo)) { st = KEEL_E_NOMEM; goto out; }
        pool = w->pool; pool_cap = w->pool_cap; ent = w->ent; cap = w->ecap;
      }
      int32_t i = (int32_t)n++;
      ent[i].cell = cell;
      ent[i].pred = sp[u].pred;
      if (!graph && !coasts) sp[u].pred = i;   /* settled: pred is free; cell -> entry, lent */
      if (graph && (flag[cell] & 2) && i) continue;     /* a stop node */
      uint32_t cin = coasts ? (u & 3u) : 0;
      const uint32_t rk = graph ? 0 : rank[cell];
      if (graph) {
        for (uint32_t e = lo; e < hi; e++) {
          if (flag[tgt[e]] & 1) continue;                      /* a blocked node */
          RELAX(tgt[e], ecost[e], e);
        }
      } else {
        /* directions 0..5 as in hex.c: (1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1) */
        const ptrdiff_t step[6] = { 1, 1 - S, -S, -1, S - 1, S };
        const uint8_t *e6 = edge + (size_t)cell * 8;
#pragma GCC unroll 6
        for (uint32_t d = 0; d < 6; d++) {
          uint32_t c = e6[d];
          if (!small && c >= KEEL_EDGE_BIG) {
            if (c == KEEL_EDGE_BLOCKED) continue;
            c = big_cost(m, cell, (int)d);
          }
          RELAX((uint32_t)((ptrdiff_t)cell + step[d]), c, d);
        }
      }
    }
    head[b] = tail[b] = -1;
    if (n > n0) { run[nr].first = (uint32_t)n0; run[nr++].cost = b; }
  }
out:
  *nout = n;
  *nrun = nr;
  if (st == KEEL_OK && !coasts) {
    for (size_t k = 0; k < n; k++) sp[ent[k].cell].dist = UNREACHED;   /* all pushed were settled */
  } else {
    for (size_t k = 0; k < npool; k++) sp[pool[k].state].dist = UNREACHED;
    for (; b <= maxb; b++) head[b] = tail[b] = -1;
  }
  return st;
}
#undef RELAX

/* patches of the edge array for blocked and stop hexes, undone after */
typedef struct patch { size_t at; uint8_t old; } patch;

static keel_status apply_opts(keel_costmap *m, size_t start_cell, const keel_reach_opts *o,
                              patch **out, size_t *np) {
  *out = NULL;
  *np = 0;
  if (!o || (!o->nblocked && !o->nstop)) return KEEL_OK;
  patch *p = malloc((o->nblocked + o->nstop) * 6 * sizeof *p);
  if (!p) return KEEL_E_NOMEM;
  size_t n = 0;
  for (size_t i = 0; i < o->nblocked; i++) {
    int ok;
    size_t c = cell_of(m, o->blocked[i], &ok);
    if (!ok) continue;
    for (int d = 0; d < 6; d++) {   /* the edges into c */
      size_t at = (size_t)((ptrdiff_t)c + m->step[d]) * 8 + (size_t)((d + 3) % 6);
      p[n].at = at; p[n++].old = m->edge[at];
      m->edge[at] = KEEL_EDGE_BLOCKED;
    }
  }
  for (size_t i = 0; i < o->nstop; i++) {
    int ok;
    size_t c = cell_of(m, o->stop[i], &ok);
    if (!ok || c == start_cell) continue;
    for (int d = 0; d < 6; d++) {   /* the edges out of c */
      size_t at = c * 8 + (size_t)d;
      p[n].at = at; p[n++].old = m->edge[at];
      m->edge[at] = KEEL_EDGE_BLOCKED;
    }
  }
  *out = p;
  *np = n;
  return KEEL_OK;
}

static void undo_opts(keel_costmap *m, patch *p, size_t n) {
  while (n--) m->edge[p[n].at] = p[n].old;
  free(p);
}

keel_status keel_reach_new_ex(const keel_costmap *cm, keel_hex start, int start_coast,
                              uint32_t budget, const keel_reach_opts *opts, keel_reach **out) {
  keel_costmap *m = (keel_costmap *)cm;   /* only the workspace changes (and is restored) */
  *out = NULL;
  int ok;
  size_t start_cell = cell_of(m, start, &ok);
  if (!ok) return KEEL_E_OFF_BOARD;
  if (start_coast < 0 || start_coast >= KEEL_COASTS) return KEEL_E_ARG;
  if (budget > 1u << 20) return KEEL_E_RANGE;
  const int coasts = m->coast != NULL, shift = coasts ? 2 : 0;   /* state = cell << shift | coast */
  const int filter = opts && opts->allow;
  uint64_t epoch = ++m->work.epoch;   /* from here sp changes: sets lent by earlier searches stop borrowing */
  keel_status st = work_ready(&m->work, m->cells << shift, budget, filter);
  if (st != KEEL_OK) return st;
  if (filter && m->work.verdicts < m->cells) return KEEL_E_NOMEM;
  patch *p;
  size_t np, n = 0, nrun = 0;
  st = apply_opts(m, start_cell, opts, &p, &np);
  if (st != KEEL_OK) return st;

  struct keel_work *w = &m->work;
  uint32_t s0 = (uint32_t)(start_cell << shift) | (coasts ? (uint32_t)start_coast : 0u);
  source src = { m, NULL, opts };
  if (coasts)
    st = filter ? search(&src, w, s0, budget, &n, &nrun, 0, 1, 1, 0)
                : search(&src, w, s0, budget, &n, &nrun, 0, 1, 0, 0);
  else if (filter)
    st = search(&src, w, s0, budget, &n, &nrun, 0, 0, 1, 0);
  else if (budget < KEEL_EDGE_BIG)   /* the common case: no blocked/big test per edge */
    st = search(&src, w, s0, budget, &n, &nrun, 0, 0, 0, 1);
  else
    st = search(&src, w, s0, budget, &n, &nrun, 0, 0, 0, 0);
  if (p) undo_opts(m, p, np);
  if (st != KEEL_OK) return st;
  keel_reach *r;
  st = make_reach(w, n, nrun, NULL, opts, &r);   /* the workspace is clean: alloc may raise */
  if (st != KEEL_OK) return st;
  r->q0 = m->q0; r->r0 = m->r0; r->stride = m->stride;
  r->coasts = coasts;
  r->nhex = coasts ? (size_t)-1 : r->n;
  r->epoch = coasts ? 0 : epoch;
  *out = r;
  return KEEL_OK;
}

keel_status keel_reach_new(const keel_costmap *m, keel_hex start, int start_coast,
                           uint32_t budget, keel_reach **out) {
  return keel_reach_new_ex(m, start, start_coast, budget, NULL, out);
}

/* ---- graphs ------------------------------------------------------------------ */

keel_status keel_graph_new(keel_graph **out) {
  *out = calloc(1, sizeof **out);
  return *out ? KEEL_OK : KEEL_E_NOMEM;
}

void keel_graph_free(keel_graph *g) {
  if (!g) return;
  free(g->key); free(g->pend); free(g->off); free(g->tgt); free(g->cost); free(g->flag);
  work_free(&g->work);
  free(g);
}

static int cmp_key(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* node index of key (after finish), or -1 */
static int64_t node_of(const keel_graph *g, int64_t key) {
  size_t lo = 0, hi = g->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->key[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < g->n && g->key[lo] == key ? (int64_t)lo : -1;
}

keel_status keel_graph_add_node(keel_graph *g, int64_t key) {
  if (g->finished) return KEEL_E_STATE;
  if (g->n >= 0x3fffffff) return KEEL_E_CAPACITY;
  if (!KEEL_RESERVE_FROM(g->key, g->cap, g->n + 1, 64)) return KEEL_E_NOMEM;
  g->key[g->n++] = key;
  return KEEL_OK;
}

keel_status keel_graph_add_edge(keel_graph *g, int64_t from, int64_t to, uint16_t cost) {
  if (g->finished) return KEEL_E_STATE;
  if (cost > KEEL_COST_MAX) return KEEL_E_RANGE;
  if (g->npend >= 0x7fffffff) return KEEL_E_CAPACITY;
  if (!KEEL_RESERVE_FROM(g->pend, g->cappend, g->npend + 1, 64)) return KEEL_E_NOMEM;
  g->pend[g->npend].from = from;
  g->pend[g->npend].to = to;
  g->pend[g->npend++].cost = cost;
  return KEEL_OK;
}

static int cmp_edge(const void *a, const void *b) {
  const struct gedge *x = a, *y = b;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  if (x->to != y->to) return x->to < y->to ? -1 : 1;
  return x->cost < y->cost ? -1 : x->cost > y->cost;
}

keel_status keel_graph_finish(keel_graph *g) {
  if (g->finished) return KEEL_E_STATE;
  if (g->n) qsort(g->key, g->n, sizeof *g->key, cmp_key);
  for (size_t i = 1; i < g->n; i++)
    if (g->key[i] == g->key[i - 1]) return KEEL_E_DUPLICATE;
  if (g->npend) qsort(g->pend, g->npend, sizeof *g->pend, cmp_edge);
  g->off = calloc(g->n + 1, sizeof *g->off);
  g->tgt = malloc((g->npend ? g->npend : 1) * sizeof *g->tgt);
  g->cost = malloc((g->npend ? g->npend : 1) * sizeof *g->cost);
  g->flag = calloc(g->n ? g->n : 1, 1);
  if (!g->off || !g->tgt || !g->cost || !g->flag) return KEEL_E_NOMEM;
  g->finished = 1;   /* node_of works from here */
  size_t m = 0;
  for (size_t i = 0; i < g->npend; i++) {
    const struct gedge *e = &g->pend[i];
    if (i && e->from == g->pend[i - 1].from && e->to == g->pend[i - 1].to) continue;  /* cheapest kept */
    int64_t a = node_of(g, e->from), b = node_of(g, e->to);
    if (a < 0 || b < 0) { g->finished = 0; return KEEL_E_NOT_FOUND; }
    g->off[a + 1]++;
    g->tgt[m] = (uint32_t)b;
    g->cost[m++] = e->cost;
  }
  for (size_t i = 0; i < g->n; i++) g->off[i + 1] += g->off[i];
  free(g->pend);
  g->pend = NULL;
  g->npend = m;
  return KEEL_OK;
}

size_t keel_graph_count_nodes(const keel_graph *g) { return g->n; }
size_t keel_graph_count_edges(const keel_graph *g) { return g->finished ? g->off[g->n] : g->npend; }
int keel_graph_has_node(const keel_graph *g, int64_t key) { return g->finished && node_of(g, key) >= 0; }

keel_status keel_graph_neighbors(const keel_graph *g, int64_t key, int64_t *out, uint16_t *costs,
                                 size_t cap, size_t *n) {
  *n = 0;
  if (!g->finished) return KEEL_E_STATE;
  int64_t u = node_of(g, key);
  if (u < 0) return KEEL_E_NOT_FOUND;
  for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
    if (*n >= cap) return KEEL_E_CAPACITY;
    if (out) out[*n] = g->key[g->tgt[e]];
    if (costs) costs[*n] = g->cost[e];
    (*n)++;
  }
  return KEEL_OK;
}

keel_status keel_graph_reach(const keel_graph *cg, int64_t start, uint32_t budget,
                             const keel_reach_opts *opts, keel_reach **out) {
  keel_graph *g = (keel_graph *)cg;   /* only the workspace changes */
  *out = NULL;
  if (!g->finished) return KEEL_E_STATE;
  int64_t s = node_of(g, start);
  if (s < 0) return KEEL_E_NOT_FOUND;
  if (budget > 1u << 20) return KEEL_E_RANGE;
  const int filter = opts && opts->allow;
  keel_status st = work_ready(&g->work, g->n, budget, filter);
  if (st != KEEL_OK) return st;
  if (opts) {
    for (size_t i = 0; i < opts->nblocked; i++) {
      int64_t x = node_of(g, opts->blocked[i]);
      if (x >= 0) g->flag[x] |= 1;
    }
    for (size_t i = 0; i < opts->nstop; i++) {
      int64_t x = node_of(g, opts->stop[i]);
      if (x >= 0) g->flag[x] |= 2;
    }
  }
  struct keel_work *w = &g->work;
  source src = { NULL, g, opts };
  size_t n = 0, nrun = 0;
  st = filter ? search(&src, w, (uint32_t)s, budget, &n, &nrun, 1, 0, 1, 0)
              : search(&src, w, (uint32_t)s, budget, &n, &nrun, 1, 0, 0, 0);
  memset(g->flag, 0, g->n ? g->n : 1);
  if (st != KEEL_OK) return st;
  return make_reach(w, n, nrun, g, opts, out);
}

/* ---- reach sets -------------------------------------------------------------- */

/* Fibonacci hashing: the top bits of id * 2^64/phi; neighbouring cells spread */
static size_t slot_of(uint64_t id, int bits) {
  return (size_t)(((id ^ (id >> 32)) * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

/* the id the index hashes: the cell (hex mode) or the key (graph mode) */
static uint64_t entry_id(const keel_reach *r, size_t i) {
  return r->graph ? (uint64_t)r->key[i] : r->ent[i].cell;
}

static keel_hex entry_hex(const keel_reach *r, size_t i) {
  return r->graph ? r->key[i] : cell_hex(r->q0, r->r0, r->stride, r->ent[i].cell);
}

static int index_bits(size_t n) {   /* load factor at most 2/3 */
  int bits = 4;
  while (((size_t)1 << bits) < n + n / 2) bits++;
  return bits;
}

/* Cell / stride without a divide: cells < 2^29 (keel_costmap_new) and
 * stride < 2^15, so with k = 29 + ceil(log2 stride) and m = ceil(2^k /
 * stride), (cell * m) >> k is exact and cell * m < 2^60. */
typedef struct divider { uint64_t m; int k; } divider;

static divider divider_of(uint64_t d) {
  int b = 0;
  while (((uint64_t)1 << b) < d) b++;
  divider v = { (((uint64_t)1 << (29 + b)) + d - 1) / d, 29 + b };
  return v;
}

static uint32_t div_row(divider v, uint32_t cell) { return (uint32_t)(((uint64_t)cell * v.m) >> v.k); }

/* Choose the index: a dense array over the box of the reached cells when
 * that box has at most 4 cells an entry (+ 64), else open addressing. The
 * box is found once per set (a pass over the entries); the set's entries
 * never change, so neither does the choice. */
static void choose_layout(const keel_reach *cr) {
  keel_reach *r = (keel_reach *)cr;   /* a cache, as the index itself */
  if (r->layout) return;
  r->layout = 2;
  if (r->graph || !r->n) return;
  uint32_t stride = (uint32_t)r->stride;
  divider v = divider_of(stride);
  uint32_t cmin = UINT32_MAX, cmax = 0, colmin = UINT32_MAX, colmax = 0;
  const struct keel_entry *ent = r->ent;
  for (size_t i = 0; i < r->n; i++) {
    uint32_t c = ent[i].cell, col = c - div_row(v, c) * stride;
    cmin = c < cmin ? c : cmin;
    cmax = c > cmax ? c : cmax;
    colmin = col < colmin ? col : colmin;
    colmax = col > colmax ? col : colmax;
  }
  uint32_t row0 = div_row(v, cmin), bh = div_row(v, cmax) - row0 + 1, bw = colmax - colmin + 1;
  if ((uint64_t)bw * bh > 4 * (uint64_t)r->n + 64) return;
  r->brow = row0; r->bcol = colmin; r->bw = bw; r->bh = bh;
  r->layout = 1;
}

size_t keel__reach_index_bytes(const keel_reach *r) {
  choose_layout(r);
  size_t first = r->coasts ? r->n * sizeof(int32_t) : 0;
  if (r->layout == 1) return (size_t)r->bw * r->bh * sizeof(int32_t) + first;
  return ((size_t)1 << index_bits(r->n)) * sizeof(struct keel_islot) + first;
}

/* The dense index: every box cell -1, then each entry's cell its first
 * (cheapest) entry. */
static void dense_index_in(keel_reach *r, int32_t *dense, int32_t *first) {
  uint32_t stride = (uint32_t)r->stride, bw = r->bw, brow = r->brow, bcol = r->bcol;
  divider v = divider_of(stride);
  size_t nhex = 0;
  memset(dense, 0xff, (size_t)bw * r->bh * sizeof *dense);
  const struct keel_entry *ent = r->ent;
  for (size_t i = 0; i < r->n; i++) {
    uint32_t c = ent[i].cell, row = div_row(v, c);
    size_t k = (size_t)(row - brow) * bw + (c - row * stride - bcol);
    if (first) {                                    /* coasts: a hex may come again */
      if (dense[k] >= 0) continue;
      first[nhex++] = (int32_t)i;
    }
    dense[k] = (int32_t)i;
  }
  r->dense = dense; r->first = first; r->nhex = first ? nhex : r->n;
}

/* Build the id -> entry index in mem (keel__reach_index_bytes); settled
 * order has nondecreasing cost, so an id's first entry is its cheapest.
 * A slot keeps the id's low 32 bits beside the entry, so probing does not
 * read the entries (and, for cells, that is the whole id). Without coasts
 * every entry is a distinct hex: no list of first entries. */
void keel__reach_index_in(keel_reach *r, void *mem) {
  choose_layout(r);
  if (r->layout == 1) {
    size_t cells = (size_t)r->bw * r->bh;
    dense_index_in(r, mem, r->coasts ? (int32_t *)mem + cells : NULL);
    return;
  }
  int bits = index_bits(r->n);
  size_t slots = (size_t)1 << bits, nhex = 0, mask = slots - 1;
  struct keel_islot *slot = mem;
  int32_t *first = r->coasts ? (int32_t *)(slot + slots) : NULL;
  for (size_t i = 0; i < slots; i++) slot[i].entry = -1;
  for (size_t i = 0; i < r->n; i++) {
    uint64_t id = entry_id(r, i);
    size_t k = slot_of(id, bits);
    while (slot[k].entry >= 0 &&
           (slot[k].tag != (uint32_t)id || (r->graph && entry_id(r, (size_t)slot[k].entry) != id)))
      k = (k + 1) & mask;
    if (slot[k].entry < 0) {
      slot[k].tag = (uint32_t)id;
      slot[k].entry = (int32_t)i;
      if (first) first[nhex] = (int32_t)i;
      nhex++;
    }
  }
  r->slot = slot; r->bits = bits; r->first = first; r->nhex = nhex;
}

static keel_status ensure_index(const keel_reach *cr) {
  keel_reach *r = (keel_reach *)cr;   /* the index is a cache, not a visible change */
  if (keel__reach_indexed(r)) return KEEL_OK;
  void *mem = malloc(keel__reach_index_bytes(r));
  if (!mem) return KEEL_E_NOMEM;
  keel__reach_index_in(r, mem);
  r->index_owned = 1;
  return KEEL_OK;
}

/* The cheapest entry of hex (or key) h, or -1. */
static int32_t find_entry(const keel_reach *r, keel_hex h) {
  if (keel__reach_borrows(r)) {   /* the cost map's latest search */
    const keel_costmap *m = *r->lender;
    int ok;
    size_t c = cell_of(m, h, &ok);
    if (!ok) return -1;
    int32_t k = m->work.sp[c].pred;   /* checked, so a cell the search never settled misses */
    return k >= 0 && (size_t)k < r->n && r->ent[k].cell == c ? k : -1;
  }
  if (ensure_index(r) != KEEL_OK) return -1;
  uint64_t id;
  if (r->graph) {
    id = (uint64_t)h;
  } else {
    if (!keel_hex_is_valid(h)) return -1;
    int64_t q = keel_hex_q(h) - r->q0, rr = keel_hex_r(h) - r->r0;
    if (r->dense) {   /* cell row rr + 1, column q + 1 */
      uint64_t row = (uint64_t)(rr + 1 - (int64_t)r->brow), col = (uint64_t)(q + 1 - (int64_t)r->bcol);
      return row < r->bh && col < r->bw ? r->dense[row * r->bw + col] : -1;
    }
    if (q < 0 || rr < 0 || q >= r->stride - 2) return -1;
    int64_t c64 = (rr + 1) * r->stride + (q + 1);
    if (c64 > 0xffffffffLL) return -1;
    id = (uint64_t)c64;
  }
  size_t mask = ((size_t)1 << r->bits) - 1, k = slot_of(id, r->bits);
  const struct keel_islot *slot = r->slot;
  while (slot[k].entry >= 0 &&
         (slot[k].tag != (uint32_t)id || (r->graph && entry_id(r, (size_t)slot[k].entry) != id)))
    k = (k + 1) & mask;
  return slot[k].entry;
}

void keel_reach_free(keel_reach *r) {
  if (!r) return;
  if (r->index_owned) free(r->dense ? (void *)r->dense : (void *)r->slot);   /* with first: one block */
  r->slot = NULL;
  r->dense = NULL;
  r->first = NULL;
  r->index_owned = 0;
  if (r->coasts) r->nhex = (size_t)-1;
  if (r->owned) free(r);
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
  size_t lo = 0, hi = r->nrun;   /* the last run starting at or before k */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->run[mid].first <= (uint32_t)k) lo = mid; else hi = mid;
  }
  *cost = r->run[lo].cost;
  return KEEL_OK;
}

keel_status keel_reach_path(const keel_reach *r, keel_hex h, keel_hex *out, size_t cap, size_t *n) {
  int32_t k = find_entry(r, h);
  *n = 0;
  if (k < 0) return KEEL_E_NOT_FOUND;
  size_t len = 0;
  for (int32_t j = k; j >= 0; j = r->ent[j].pred) len++;
  *n = len;
  if (cap < len) return KEEL_E_CAPACITY;
  for (int32_t j = k; j >= 0; j = r->ent[j].pred) out[--len] = entry_hex(r, (size_t)j);
  return KEEL_OK;
}

size_t keel_reach_bytes(const keel_reach *r) {
  return sizeof *r + r->n * sizeof *r->ent + r->nrun * sizeof *r->run +
         (r->key ? r->n * sizeof *r->key : 0) +
         (keel__reach_indexed(r) ? keel__reach_index_bytes(r) : 0);
}
