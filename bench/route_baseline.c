/*
 * route_baseline.c — the plain C baseline for bench/route_bench.lua: Dial's
 * bucket queue over the same generated 256x256 board, written directly for
 * this one map (no cost map, no hexsides, no coasts, no result object).
 * Prints "budget us_per_call hexes_reached" for budgets 15, 30, 60.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 256
#define H 384            /* axial r range for 256 even-q rows */
#define STRIDE (W + 2)
#define CELLS (STRIDE * (H + 2))

static uint16_t enter[CELLS];
static uint32_t dist[CELLS];
static uint32_t touched[CELLS];
static int32_t pred[CELLS];
static uint32_t pool_state[CELLS * 6];
static int32_t pool_next[CELLS * 6];

/* the same board as route_bench.lua: even-q offset rectangle 256x256, land
 * where (col * 7 + row * 13) % 11 == 0 */
static void make_board(void) {
  for (int i = 0; i < CELLS; i++) enter[i] = 0xffff;
  for (int col = 0; col < 256; col++)
    for (int row = 0; row < 256; row++) {
      int q = col, r = row - (col + (col & 1)) / 2;      /* even-q to axial */
      int cell = (r + 128 + 1) * STRIDE + (q + 1);
      enter[cell] = ((col * 7 + row * 13) % 11 == 0) ? 0xffff : 1;
    }
}

static size_t reach(int start, uint32_t budget) {
  static const int dq[6] = { 1, 1, 0, -1, -1, 0 }, dr[6] = { 0, -1, -1, 0, 1, 1 };
  int32_t head[256], tail[256];
  size_t ntouched = 0, npool = 0, reached = 0;
  for (uint32_t b = 0; b <= budget; b++) head[b] = tail[b] = -1;
  dist[start] = 0;
  pred[start] = -1;
  touched[ntouched++] = (uint32_t)start;
  pool_state[npool] = (uint32_t)start; pool_next[npool] = -1;
  head[0] = tail[0] = (int32_t)npool++;
  for (uint32_t b = 0; b <= budget; b++)
    for (int32_t k = head[b]; k >= 0; k = pool_next[k]) {
      uint32_t u = pool_state[k];
      if (dist[u] != b) continue;
      reached++;
      for (int d = 0; d < 6; d++) {
        uint32_t v = (uint32_t)((int)u + dr[d] * STRIDE + dq[d]);
        if (enter[v] == 0xffff) continue;
        uint32_t nd = b + enter[v];
        if (nd > budget || nd >= dist[v]) continue;
        if (dist[v] == 0xffffffffu) touched[ntouched++] = v;
        dist[v] = nd;
        pred[v] = (int32_t)u;
        pool_state[npool] = v; pool_next[npool] = -1;
        if (tail[nd] >= 0) pool_next[tail[nd]] = (int32_t)npool; else head[nd] = (int32_t)npool;
        tail[nd] = (int32_t)npool++;
      }
    }
  for (size_t i = 0; i < ntouched; i++) dist[touched[i]] = 0xffffffffu;
  return reached;
}

int main(void) {
  make_board();
  memset(dist, 0xff, sizeof dist);
  int start = (64 + 128 + 1) * STRIDE + (128 + 1);     /* axial (128, 64) */
  static const uint32_t budgets[3] = { 15, 30, 60 };
  /* timed like bench/lib.lua's lib.time: n calls between two clock()
   * reads, n growing until they take at least 0.2 s; one warm-up batch */
  for (int i = 0; i < 3; i++) {
    size_t n = 0;
    for (int k = 0; k < 100; k++) n = reach(start, budgets[i]);
    double dt;
    long calls = 1;
    for (;;) {
      clock_t t0 = clock();
      for (long k = 0; k < calls; k++) n = reach(start, budgets[i]);
      dt = (double)(clock() - t0) / CLOCKS_PER_SEC;
      if (dt >= 0.2) break;
      calls *= dt < 0.02 ? 10 : 2;
    }
    printf("%u %.3f %zu\n", budgets[i], dt / (double)calls * 1e6, n);
  }
  return 0;
}
