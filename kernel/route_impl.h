/*
 * route_impl.h — the inside of a cost map, shared by route.c (the search)
 * and board.c (keel_board_costmap fills one straight from a board's flat
 * arrays). Private to the kernel: not installed, not API.
 */
#ifndef KEEL_ROUTE_IMPL_H
#define KEEL_ROUTE_IMPL_H

#include "keel.h"

/* Edge costs are held per cell and direction in one byte: cross(side) +
 * enter(neighbour), KEEL_EDGE_BLOCKED when either forbids, KEEL_EDGE_BIG when
 * the sum does not fit (the search then adds the two itself). Small costs
 * keep the search's working set small: 8 bytes per cell. */
#define KEEL_EDGE_BLOCKED 0xffu
#define KEEL_EDGE_BIG 0xfeu

/* What a search needs besides the graph: per-state distance and predecessor
 * (side by side: a relaxation reads and writes one cache line), the bucket
 * queue, the predicate cache, and the reach set as the search settles it.
 * Allocated on first search, then reset only where a search touched it:
 * between searches every dist is UNREACHED and every bucket empty. */
struct keel_qnode { uint32_t state; int32_t next; };
struct keel_sp { uint32_t dist; int32_t pred; };     /* pred: entry index */
struct keel_entry { uint32_t cell; int32_t pred; };  /* a settled state, pred entry or -1 */
struct keel_run { uint32_t first, cost; };           /* entries first.. cost `cost` */
struct keel_work {
  struct keel_sp *sp;              /* per state, dist UINT32_MAX: unreached */
  size_t states;
  struct keel_qnode *pool;         /* bucket queue nodes, FIFO per bucket */
  size_t pool_cap;
  int32_t *head, *tail;            /* per bucket (MP value), -1: empty */
  struct keel_run *run;            /* per bucket at most one run */
  size_t buckets;
  uint8_t *verdict;                /* per node: predicate cache (0 unknown, 1 yes, 2 no) */
  size_t verdicts;
  struct keel_entry *ent;          /* the reach set in settled order */
  size_t ecap;
  uint64_t epoch;                  /* searches begun: a reach set lends sp while it is the latest */
};

struct keel_costmap {
  int64_t q0, r0, width, height;   /* the box of hexes */
  int64_t stride;                  /* width + 2 (padding) */
  size_t cells;                    /* (width + 2) * (height + 2) */
  uint16_t *enter;                 /* per cell */
  uint16_t *cross;                 /* per cell, canonical sides 0..2 */
  uint8_t *edge;                   /* per cell x 8 (6 directions used): what the search reads */
  uint8_t *coast;                  /* per cell, 6 sides; NULL when no hex has two coasts */
  ptrdiff_t step[6];               /* index offset of each direction */
  uint32_t *rank;                  /* per cell: its place in hex id order (ties) */
  struct keel_work work;           /* search workspace, reset where touched */
};

/* A reach set: one block (this header, graph keys, entries, runs). The
 * binding reads it to place the query index in the host's memory. */
struct keel_reach {
  int graph;                /* entries are graph nodes (keys), not cells */
  int owned;                /* the block came from malloc: keel_reach_free frees it */
  int64_t q0, r0, stride;   /* the cost map's geometry, to turn cells into hexes */
  size_t n;                 /* settled states */
  struct keel_entry *ent;   /* per entry, in settled order: cell (graph: node), pred entry;
                             * entry 0 is the start */
  struct keel_run *run;     /* the cost of each entry as runs: settled order is by cost */
  size_t nrun;
  int64_t *key;             /* graph: per entry, the node's key */
  int coasts;               /* several entries may share a hex */
  /* the query index, built on first use: id -> cheapest entry. Hex mode,
   * when the reached cells' bounding box is at most about 4 cells an entry:
   * a dense array over that box; otherwise (graphs, sprawling sets) open
   * addressing. The index (dense or slot) and first: one block, from malloc
   * when index_owned. */
  struct keel_islot { uint32_t tag; int32_t entry; } *slot;   /* 2^bits */
  int bits;
  int32_t *dense;           /* bw * bh, row-major over the box; -1: not reached */
  int layout;               /* 0 not yet chosen, 1 dense, 2 slot */
  uint32_t brow, bcol, bw, bh;   /* the box in the cost map's cell rows and columns */
  int32_t *first;           /* coasts: distinct hexes, their cheapest entry, settled order */
  size_t nhex;
  int index_owned;
  /* The borrowed index. A hex search without coasts leaves, in its cost
   * map's work.sp, each settled cell's entry as pred; while no later search
   * has begun (work.epoch == epoch), a lookup reads that and needs no index
   * of its own. Only a host sets lender: a pointer it keeps readable for the
   * set's whole life and sets to NULL when the cost map is freed (the Lua
   * binding: a small token userdata held as the set's second user value).
   * NULL: never borrow (the C API). */
  keel_costmap *const *lender;
  uint64_t epoch;           /* the search that made the set; 0: none to borrow from */
};

/* Do lookups borrow (see lender) right now, so need no index of their own? */
static inline int keel__reach_borrows(const keel_reach *r) {
  const keel_costmap *m = r->lender ? *r->lender : NULL;
  return m && r->epoch && m->work.epoch == r->epoch;
}

/* Has the query index been built (keel__reach_index_in)? */
static inline int keel__reach_indexed(const keel_reach *r) { return r->slot || r->dense; }

/* The query index in caller-provided memory of keel__reach_index_bytes(r)
 * bytes (a host's garbage-collected memory, kept alive as long as the reach
 * set); keel_reach_free then leaves it alone. */
size_t keel__reach_index_bytes(const keel_reach *r);
void keel__reach_index_in(keel_reach *r, void *mem);

/* cell index of a hex (padding included), *ok = 0 when outside the box */
size_t keel__costmap_cell(const keel_costmap *m, keel_hex h, int *ok);
/* Recompute the edge costs of every cell (after bulk writes to enter/cross). */
void keel__costmap_update_edges(keel_costmap *m);
/* Allocate the coast array (all zero: any coast) if it is not there. */
keel_status keel__costmap_alloc_coasts(keel_costmap *m);

#endif
