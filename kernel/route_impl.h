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
  /* the query index, built on first use: id -> cheapest entry */
  struct keel_islot { uint32_t tag; int32_t entry; } *slot;   /* 2^bits, open addressing;
                             * slot and first: one block, from malloc when index_owned */
  int bits;
  int32_t *first;           /* coasts: distinct hexes, their cheapest entry, settled order */
  size_t nhex;
  int index_owned;
};

/* The query index in caller-provided memory of keel_reach_index_bytes(r)
 * bytes (a host's garbage-collected memory, kept alive as long as the reach
 * set); keel_reach_free then leaves it alone. */
size_t keel_reach_index_bytes(const keel_reach *r);
void keel_reach_index_in(keel_reach *r, void *mem);

/* cell index of a hex (padding included), *ok = 0 when outside the box */
size_t keel_costmap_cell(const keel_costmap *m, keel_hex h, int *ok);
/* Recompute the edge costs of every cell (after bulk writes to enter/cross). */
void keel_costmap_update_edges(keel_costmap *m);
/* Allocate the coast array (all zero: any coast) if it is not there. */
keel_status keel_costmap_alloc_coasts(keel_costmap *m);

#endif
