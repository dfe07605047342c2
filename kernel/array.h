/*
 * array.h — the one growable-array helper of the kernel (core and
 * bindings). An array is a pointer, a count kept by its owner, and a
 * capacity; keel__array_reserve makes room for `need` items by doubling
 * (starting at `first`), never shrinks, and leaves the array as it was
 * when it runs out of memory (or when need * elem would overflow).
 *
 *   if (!KEEL_RESERVE(b->ports, b->capports, b->nports + 1)) return KEEL_E_NOMEM;
 *   b->ports[b->nports++] = p;
 *
 * Capacities are size_t; an owner that keeps a narrower one converts
 * around the call (and checks its own limit).
 */
#ifndef KEEL_ARRAY_H
#define KEEL_ARRAY_H
#include <stdint.h>
#include <stdlib.h>

/* Room for need items of elem bytes in *arr (*cap of them now); the first
 * allocation holds max(first, need) rounded up to a power-of-two multiple of
 * first. 1 on success, 0 on out of memory or overflow. */
static inline int keel__array_reserve(void **arr, size_t elem, size_t *cap, size_t need, size_t first) {
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : (first ? first : 1);
  while (c < need) {
    if (c > SIZE_MAX / 2) return 0;
    c *= 2;
  }
  if (c > SIZE_MAX / elem) return 0;
  void *p = realloc(*arr, c * elem);
  if (!p) return 0;
  *arr = p;
  *cap = c;
  return 1;
}

/* KEEL_RESERVE(arr, cap, need): arr a T * lvalue, cap a size_t lvalue. */
#define KEEL_RESERVE_FROM(arr, cap, need, first) \
  keel__array_reserve((void **)&(arr), sizeof *(arr), &(cap), (need), (first))
#define KEEL_RESERVE(arr, cap, need) KEEL_RESERVE_FROM(arr, cap, need, 8)

#endif
