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

/* What a search needs besides the graph: per-state distance and predecessor,
 * the bucket queue, the predicate cache. Allocated on first search, then
 * reset only where a search touched it. */
struct keel_qnode { uint32_t state; int32_t next; };
struct keel_work {
  uint32_t *dist;                  /* per state, UINT32_MAX: unreached */
  int32_t *pred;                   /* per state: entry index of the predecessor */
  size_t states;
  struct keel_qnode *pool;         /* bucket queue nodes, FIFO per bucket */
  size_t pool_cap;
  int32_t *head, *tail;            /* per bucket (MP value) */
  size_t buckets;
  uint8_t *verdict;                /* per node: predicate cache (0 unknown, 1 yes, 2 no) */
  size_t verdicts;
  uint32_t *rcell, *rcost;         /* the reach set as the search settles it: */
  int32_t *rpred;                  /*   cell, cost, predecessor entry */
  size_t rcap;
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

/* cell index of a hex (padding included), *ok = 0 when outside the box */
size_t keel_costmap_cell(const keel_costmap *m, keel_hex h, int *ok);
/* Recompute the edge costs of every cell (after bulk writes to enter/cross). */
void keel_costmap_update_edges(keel_costmap *m);
/* Allocate the coast array (all zero: any coast) if it is not there. */
keel_status keel_costmap_alloc_coasts(keel_costmap *m);

#endif
