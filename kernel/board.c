/*
 * board.c — the board: terrain, hexside features, coasts, ports, places,
 * coast defences, sea boxes, sea zones and tags of a map, held in flat
 * arrays over the bounding offset rectangle of its map sections. A
 * finished board never changes; who owns a hex is game state (state.c).
 *
 * Dense, one entry per cell of the rectangle (row-major offset order):
 *   terrain  uint8   keel_terrain (0: not on the board)
 *   flags    uint8   set-once bits used while building
 *   cd       uint8   coast-defence level
 *   zone     uint16  sea zone index + 1 (0: none)
 *   side     uint16  x3 the canonical sides of the hex (directions 0, 1, 2)
 *   coast    uint32  six 4-bit coast ids, one per direction
 * = 15 bytes per cell. Sparse, sorted at finish: ports, tags, places, strait
 * passages. Names are interned in small tables.
 *
 * Coasts (27.B.5): each direction of a hex carries the id of the water body
 * its side touches (0: none). Unless a map sets them, a water hex has one
 * coast on every wet side, and a coastal hex one coast per circular run of
 * consecutive wet sides, so two coasts separated by land get two ids.
 */
#include "array.h"
#include "route_impl.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { F_TERRAIN = 1, F_COASTS = 2, F_PORT = 4, F_CD = 8, F_ONBOARD = 0x80 };

typedef struct names { char **v; size_t n, cap; } names;
typedef struct tagent { uint32_t cell; uint16_t tag; } tagent;
typedef struct place { char *name; keel_hex hex; } place;
typedef struct passage { keel_side crossing, strait; } passage;

struct keel_board {
  keel_grid *grid;
  keel_offset conv;
  int64_t col0, row0, cols, rows;
  size_t ncells, nhexes;
  int alloc, finished;
  keel_terrain deflt;
  uint8_t *terrain, *flags, *cd;
  uint16_t *zone, *side;
  uint32_t *coast;
  names side_names, tags;
  keel_port *ports; size_t nports, capports;
  size_t *cdcells, ncds;                    /* the cells with a coast defence, in cell order (finish) */
  tagent *tagv; size_t ntags, captags;
  place *places; size_t nplaces, capplaces;
  passage *pass; size_t npass, cappass;
  keel_boxgrid boxes; int has_boxes;
  keel_areas *areas;
  int64_t (*rects)[4]; size_t nrects, caprects;
};

/* ---- small helpers -------------------------------------------------------- */

static const char *const terrain_names[KEEL_TERRAIN_COUNT] = {
  "none", "all-sea", "coastal", "all-land", "restricted", "lake"
};

const char *keel_terrain_name(keel_terrain t) {
  return (unsigned)t < KEEL_TERRAIN_COUNT ? terrain_names[t] : "none";
}

keel_status keel_terrain_from_name(const char *name, keel_terrain *out) {
  if (!name) return KEEL_E_ARG;
  for (int i = 1; i < KEEL_TERRAIN_COUNT; i++)
    if (!strcmp(name, terrain_names[i])) { *out = (keel_terrain)i; return KEEL_OK; }
  return KEEL_E_NOT_FOUND;
}

static char *dupstr(const char *s) {
  size_t len = strlen(s) + 1;
  char *c = malloc(len);
  if (c) memcpy(c, s, len);
  return c;
}

/* id (1-based) of name in the table, or 0 */
static int names_find(const names *t, const char *name) {
  for (size_t i = 0; i < t->n; i++) if (!strcmp(t->v[i], name)) return (int)i + 1;
  return 0;
}

static keel_status names_intern(names *t, const char *name, int max, int *id) {
  if (!name || !*name) return KEEL_E_ARG;
  int found = names_find(t, name);
  if (found) { *id = found; return KEEL_OK; }
  if (t->n >= (size_t)max) return KEEL_E_CAPACITY;
  if (!KEEL_RESERVE(t->v, t->cap, t->n + 1)) return KEEL_E_NOMEM;
  char *c = dupstr(name);
  if (!c) return KEEL_E_NOMEM;
  t->v[t->n++] = c;
  *id = (int)t->n;
  return KEEL_OK;
}

static const char *names_get(const names *t, int id) {
  return id >= 1 && (size_t)id <= t->n ? t->v[id - 1] : NULL;
}

static size_t names_bytes(const names *t) {
  size_t s = t->cap * sizeof *t->v;
  for (size_t i = 0; i < t->n; i++) s += strlen(t->v[i]) + 1;
  return s;
}

static void names_free(names *t) {
  for (size_t i = 0; i < t->n; i++) free(t->v[i]);
  free(t->v);
}

/* ---- life cycle ----------------------------------------------------------------- */

keel_status keel_board_new(const keel_numbering *n, keel_board **out) {
  *out = NULL;
  keel_board *b = calloc(1, sizeof *b);
  if (!b) return KEEL_E_NOMEM;
  keel_status st = keel_grid_new(n, &b->grid);
  if (st == KEEL_OK) st = keel_areas_new(&b->areas);
  if (st != KEEL_OK) { keel_board_free(b); return st; }
  b->conv = n->pointy ? (n->shift_even ? KEEL_EVEN_R : KEEL_ODD_R)
                      : (n->shift_even ? KEEL_EVEN_Q : KEEL_ODD_Q);
  b->deflt = KEEL_TERRAIN_LAND;
  *out = b;
  return KEEL_OK;
}

void keel_board_free(keel_board *b) {
  if (!b) return;
  keel_grid_free(b->grid);
  keel_areas_free(b->areas);
  free(b->terrain); free(b->flags); free(b->cd);
  free(b->zone); free(b->side); free(b->coast);
  names_free(&b->side_names); names_free(&b->tags);
  free(b->ports);
  free(b->cdcells);
  free(b->tagv);
  for (size_t i = 0; i < b->nplaces; i++) free(b->places[i].name);
  free(b->places);
  free(b->pass);
  free(b->rects);
  free(b);
}

const keel_grid *keel_board_get_grid(const keel_board *b) { return b->grid; }
int keel_board_is_finished(const keel_board *b) { return b->finished; }

keel_status keel_board_add_section(keel_board *b, const char *name, int64_t col, int64_t row,
                                   int64_t cols, int64_t rows) {
  if (b->alloc) return KEEL_E_STATE;
  if (cols <= 0 || rows <= 0) return KEEL_E_ARG;
  keel_status st = keel_grid_add_section(b->grid, name, col, row, cols, rows);
  if (st != KEEL_OK) return st;
  if (!KEEL_RESERVE(b->rects, b->caprects, b->nrects + 1)) return KEEL_E_NOMEM;
  b->rects[b->nrects][0] = col; b->rects[b->nrects][1] = row;
  b->rects[b->nrects][2] = cols; b->rects[b->nrects][3] = rows;
  b->nrects++;
  return KEEL_OK;
}

/* Freeze the layout: the bounding rectangle of the sections, the arrays. */
static keel_status ensure_alloc(keel_board *b) {
  if (b->alloc) return KEEL_OK;
  if (b->nrects == 0) return KEEL_E_STATE;
  const keel_numbering *num = keel_grid_numbering(b->grid);
  int64_t c0 = INT64_MAX, r0 = INT64_MAX, c1 = INT64_MIN, r1 = INT64_MIN;
  for (size_t i = 0; i < b->nrects; i++) {
    const int64_t *q = b->rects[i];   /* col, row, cols, rows */
    int64_t lim = 1;
    for (int d = 0; d < num->digits; d++) lim *= 10;
    int64_t cols = q[2] < lim - num->first_col ? q[2] : lim - num->first_col;
    int64_t rows = q[3] < lim - num->first_row ? q[3] : lim - num->first_row;
    int64_t a = q[0] + num->first_col, r = q[1] + num->first_row;
    if (a < c0) c0 = a;
    if (r < r0) r0 = r;
    if (a + cols > c1) c1 = a + cols;
    if (r + rows > r1) r1 = r + rows;
  }
  int64_t cols = c1 - c0, rows = r1 - r0;
  if (cols <= 0 || rows <= 0 || cols > (1 << 16) || rows > (1 << 16) ||
      cols * rows > ((int64_t)1 << 26))
    return KEEL_E_CAPACITY;
  size_t n = (size_t)cols * (size_t)rows;
  b->terrain = calloc(n, 1);
  b->flags = calloc(n, 1);
  b->cd = calloc(n, 1);
  b->zone = calloc(n, sizeof *b->zone);
  b->side = calloc(n * 3, sizeof *b->side);
  b->coast = calloc(n, sizeof *b->coast);
  if (!b->terrain || !b->flags || !b->cd || !b->zone || !b->side || !b->coast)
    return KEEL_E_NOMEM;   /* freed by keel_board_free; alloc stays 0 */
  b->col0 = c0; b->row0 = r0; b->cols = cols; b->rows = rows;
  b->ncells = n;
  /* a cell is on the board when a section holds it */
  for (size_t i = 0; i < n; i++) {
    keel_hex h;
    size_t sec;
    if (keel_hex_from_offset(b->conv, c0 + (int64_t)(i % (size_t)cols),
                           r0 + (int64_t)(i / (size_t)cols), &h) == KEEL_OK &&
        keel_grid_section_of(b->grid, h, &sec) == KEEL_OK) {
      b->flags[i] = F_ONBOARD;
      b->nhexes++;
    }
  }
  b->alloc = 1;
  return KEEL_OK;
}

/* cell index of h, or -1 when it is not on the board */
/* cell index of offset (c, r), or -1 when it is not on the board (arrays allocated) */
static int64_t cell_at(const keel_board *b, int64_t c, int64_t r) {
  c -= b->col0;
  r -= b->row0;
  if (c < 0 || r < 0 || c >= b->cols || r >= b->rows) return -1;
  int64_t i = r * b->cols + c;
  if (b->finished ? b->terrain[i] == KEEL_TERRAIN_NONE : !(b->flags[i] & F_ONBOARD)) return -1;
  return i;
}

/* cell index of h, or -1 when it is not on the board */
static int64_t cell_of(const keel_board *b, keel_hex h) {
  if (!b->alloc || !keel_hex_is_valid(h)) return -1;
  int64_t c, r;
  keel_hex_to_offset(h, b->conv, &c, &r);
  return cell_at(b, c, r);
}

/* KEEL_OK while b is being built, with its cell arrays allocated. */
static keel_status building(keel_board *b) {
  if (b->finished) return KEEL_E_STATE;
  return ensure_alloc(b);
}

/* The cell of h on the board, its arrays allocated (built or not). */
static keel_status alloc_cell(keel_board *b, keel_hex h, int64_t *cell) {
  keel_status st = ensure_alloc(b);
  if (st != KEEL_OK) return st;
  if (!keel_hex_is_valid(h)) return KEEL_E_ARG;
  *cell = cell_of(b, h);
  return *cell < 0 ? KEEL_E_OFF_BOARD : KEEL_OK;
}

static keel_status build_cell(keel_board *b, keel_hex h, int64_t *cell) {
  if (b->finished) return KEEL_E_STATE;
  return alloc_cell(b, h, cell);
}

static keel_status query_cell(const keel_board *b, keel_hex h, int64_t *cell) {
  if (!b->finished) return KEEL_E_STATE;
  if (!keel_hex_is_valid(h)) return KEEL_E_ARG;
  *cell = cell_of(b, h);
  return *cell < 0 ? KEEL_E_OFF_BOARD : KEEL_OK;
}

/* ---- building ------------------------------------------------------------------ */

keel_status keel_board_set_default_terrain(keel_board *b, keel_terrain t) {
  if (b->finished) return KEEL_E_STATE;
  if (t <= KEEL_TERRAIN_NONE || t >= KEEL_TERRAIN_COUNT) return KEEL_E_ARG;
  b->deflt = t;
  return KEEL_OK;
}

/* The one-hex setters of the bulk layers, once the hex's cell i is found. */
static keel_status terrain_cell(keel_board *b, int64_t i, keel_terrain t) {
  if (t <= KEEL_TERRAIN_NONE || t >= KEEL_TERRAIN_COUNT) return KEEL_E_ARG;
  if (b->flags[i] & F_TERRAIN) return KEEL_E_DUPLICATE;
  b->flags[i] |= F_TERRAIN;
  b->terrain[i] = (uint8_t)t;
  return KEEL_OK;
}

keel_status keel_board_set_terrain(keel_board *b, keel_hex h, keel_terrain t) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  return st != KEEL_OK ? st : terrain_cell(b, i, t);
}

/* the storage of a side: cell of its first hex and direction 0..2, both hexes on board */
static keel_status side_slot(const keel_board *b, keel_side s, size_t *slot) {
  if (!keel_side_is_valid(s)) return KEEL_E_ARG;
  keel_hex a, c;
  keel_side_hexes(s, &a, &c);
  int64_t ia = cell_of(b, a), ic = cell_of(b, c);
  if (ia < 0 || ic < 0) return KEEL_E_OFF_BOARD;
  *slot = (size_t)ia * 3 + (size_t)keel_side_direction(s);
  return KEEL_OK;
}

keel_status keel_board_add_side(keel_board *b, keel_side s, unsigned features) {
  keel_status st = building(b);
  if (st != KEEL_OK) return st;
  if (features > 0xffffu) return KEEL_E_ARG;
  int name = (int)(features >> KEEL_SIDE_NAME_SHIFT);
  if (name && !names_get(&b->side_names, name)) return KEEL_E_ARG;
  if ((features & KEEL_SIDE_RIVERINE_MASK) > KEEL_SIDE_LAKE) return KEEL_E_ARG;
  size_t slot;
  st = side_slot(b, s, &slot);
  if (st != KEEL_OK) return st;
  unsigned old = b->side[slot];
  unsigned masks[3] = { KEEL_SIDE_WATER_MASK, KEEL_SIDE_RIVERINE_MASK,
                        0xffu << KEEL_SIDE_NAME_SHIFT };
  for (int k = 0; k < 3; k++)
    if ((old & masks[k]) && (features & masks[k]) && (old & masks[k]) != (features & masks[k]))
      return KEEL_E_DUPLICATE;
  b->side[slot] = (uint16_t)(old | features);
  return KEEL_OK;
}

keel_status keel_board_side_name_id(keel_board *b, const char *name, int *id) {
  return names_intern(&b->side_names, name, KEEL_SIDE_NAME_MAX, id);
}
const char *keel_board_side_name(const keel_board *b, int id) {
  return names_get(&b->side_names, id);
}

keel_status keel_board_set_coasts(keel_board *b, keel_hex h, const int coasts[6]) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  uint32_t w = 0;
  for (int d = 0; d < 6; d++) {
    if (coasts[d] < 0 || coasts[d] > KEEL_COAST_MAX) return KEEL_E_ARG;
    w |= (uint32_t)coasts[d] << (4 * d);
  }
  if (b->flags[i] & F_COASTS) return KEEL_E_DUPLICATE;
  b->flags[i] |= F_COASTS;
  b->coast[i] = w;
  return KEEL_OK;
}

keel_status keel_board_add_port(keel_board *b, const keel_port *p) {
  int64_t i;
  keel_status st = build_cell(b, p->hex, &i);
  if (st != KEEL_OK) return st;
  if (p->size < KEEL_PORT_MINOR || p->size > KEEL_PORT_GREAT || p->capacity < -1 ||
      (p->flags & ~KEEL_PORT_INLAND))
    return KEEL_E_ARG;
  if (b->flags[i] & F_PORT) return KEEL_E_DUPLICATE;
  if (!KEEL_RESERVE(b->ports, b->capports, b->nports + 1)) return KEEL_E_NOMEM;
  b->ports[b->nports++] = *p;
  b->flags[i] |= F_PORT;
  return KEEL_OK;
}

keel_status keel_board_add_place(keel_board *b, const char *name, keel_hex h) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  if (!name || !*name) return KEEL_E_ARG;
  for (size_t k = 0; k < b->nplaces; k++)
    if (!strcmp(b->places[k].name, name)) return KEEL_E_DUPLICATE;
  if (!KEEL_RESERVE(b->places, b->capplaces, b->nplaces + 1))
    return KEEL_E_NOMEM;
  char *c = dupstr(name);
  if (!c) return KEEL_E_NOMEM;
  b->places[b->nplaces].name = c;
  b->places[b->nplaces++].hex = h;
  return KEEL_OK;
}

keel_status keel_board_set_cd(keel_board *b, keel_hex h, int level) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  if (level < 0 || level > 255) return KEEL_E_ARG;
  if (b->flags[i] & F_CD) return KEEL_E_DUPLICATE;
  b->flags[i] |= F_CD;
  b->cd[i] = (uint8_t)level;
  return KEEL_OK;
}

keel_status keel_board_set_seaboxes(keel_board *b, const keel_boxgrid *g) {
  if (b->finished) return KEEL_E_STATE;
  if (g->radius < 0 || g->radius > 1024 || !keel_hex_is_valid(g->origin)) return KEEL_E_ARG;
  if (b->has_boxes) return KEEL_E_DUPLICATE;
  b->boxes = *g;
  b->has_boxes = 1;
  return KEEL_OK;
}

keel_status keel_board_add_zone(keel_board *b, const char *name, size_t *index) {
  if (b->finished) return KEEL_E_STATE;
  if (keel_area_count(b->areas) >= 0xfffe) return KEEL_E_CAPACITY;
  return keel_area_add(b->areas, name, index);
}

static keel_status zone_cell(keel_board *b, int64_t i, keel_hex h, size_t index) {
  if (index >= keel_area_count(b->areas)) return KEEL_E_ARG;
  if (b->zone[i]) return KEEL_E_DUPLICATE;
  keel_status st = keel_area_add_hex(b->areas, index, h);
  if (st != KEEL_OK) return st;
  b->zone[i] = (uint16_t)(index + 1);
  return KEEL_OK;
}

keel_status keel_board_set_zone(keel_board *b, keel_hex h, size_t index) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  return st != KEEL_OK ? st : zone_cell(b, i, h, index);
}

keel_status keel_board_tag_id(keel_board *b, const char *name, int *id) {
  if (b->finished) {   /* lookups only */
    int f = name ? names_find(&b->tags, name) : 0;
    if (!f) return KEEL_E_STATE;
    *id = f;
    return KEEL_OK;
  }
  return names_intern(&b->tags, name, 0xffff, id);
}

static keel_status tag_cell(keel_board *b, int64_t i, int id) {
  if (!names_get(&b->tags, id)) return KEEL_E_ARG;
  if (!KEEL_RESERVE(b->tagv, b->captags, b->ntags + 1)) return KEEL_E_NOMEM;
  b->tagv[b->ntags].cell = (uint32_t)i;
  b->tagv[b->ntags++].tag = (uint16_t)id;
  return KEEL_OK;
}

keel_status keel_board_add_tag(keel_board *b, keel_hex h, int id) {
  int64_t i;
  keel_status st = build_cell(b, h, &i);
  return st != KEEL_OK ? st : tag_cell(b, i, id);
}

keel_status keel_board_add_strait_passage(keel_board *b, keel_side crossing, keel_side strait) {
  keel_status st = building(b);
  if (st != KEEL_OK) return st;
  size_t sc, ss;
  if ((st = side_slot(b, crossing, &sc)) != KEEL_OK) return st;
  if ((st = side_slot(b, strait, &ss)) != KEEL_OK) return st;
  if (!(b->side[ss] & KEEL_SIDE_NARROW_STRAIT)) return KEEL_E_NOT_FOUND;
  for (size_t k = 0; k < b->npass; k++)
    if (b->pass[k].crossing == crossing) return KEEL_E_DUPLICATE;
  if (!KEEL_RESERVE(b->pass, b->cappass, b->npass + 1)) return KEEL_E_NOMEM;
  b->pass[b->npass].crossing = crossing;
  b->pass[b->npass++].strait = strait;
  return KEEL_OK;
}

/* ---- bulk building: a layer over a rectangle or a row ------------------------ */

/* Set `layer` of the hex at offset (c, r) as the one-hex call does: the same
 * checks in the same order, the cell found by arithmetic. */
static keel_status set_at(keel_board *b, keel_board_layer layer, int64_t c, int64_t r, int value) {
  keel_status st = building(b);
  if (st != KEEL_OK) return st;
  int64_t i = cell_at(b, c, r);
  if (i < 0) return KEEL_E_OFF_BOARD;
  switch (layer) {
  case KEEL_LAYER_TERRAIN: return terrain_cell(b, i, (keel_terrain)value);
  case KEEL_LAYER_TAG: return tag_cell(b, i, value);
  default: {
    keel_hex h;
    if (value < 0) return KEEL_E_ARG;
    if ((st = keel_hex_from_offset(b->conv, c, r, &h)) != KEEL_OK) return st;
    return zone_cell(b, i, h, (size_t)value);
  }
  }
}

keel_status keel_board_fill(keel_board *b, keel_board_layer layer, keel_hex a, keel_hex c,
                            int value, keel_hex *at) {
  if ((unsigned)layer >= KEEL_LAYER_COUNT || !keel_hex_is_valid(a) || !keel_hex_is_valid(c))
    return KEEL_E_ARG;
  int64_t c0, r0, c1, r1;
  keel_hex_to_offset(a, b->conv, &c0, &r0);
  keel_hex_to_offset(c, b->conv, &c1, &r1);
  if (c1 < c0 || r1 < r0) return KEEL_E_ARG;
  for (int64_t r = r0; r <= r1; r++)
    for (int64_t col = c0; col <= c1; col++) {
      keel_status st = set_at(b, layer, col, r, value);
      if (st != KEEL_OK) {
        if (at && keel_hex_from_offset(b->conv, col, r, at) != KEEL_OK) *at = a;
        return st;
      }
    }
  return KEEL_OK;
}

keel_status keel_board_fill_row(keel_board *b, keel_board_layer layer, keel_hex first,
                                const int *values, size_t n, size_t *at) {
  if ((unsigned)layer >= KEEL_LAYER_COUNT || !keel_hex_is_valid(first)) return KEEL_E_ARG;
  int64_t col, row;
  keel_hex_to_offset(first, b->conv, &col, &row);
  for (size_t i = 0; i < n; i++) {
    if (values[i] < 0) continue;
    keel_status st = set_at(b, layer, col + (int64_t)i, row, values[i]);
    if (st != KEEL_OK) {
      if (at) *at = i;
      return st;
    }
  }
  return KEEL_OK;
}

/* ---- finish: derive side classes and coasts, sort the sparse tables ----------- */

static int is_water(int t) {
  return t == KEEL_TERRAIN_SEA || t == KEEL_TERRAIN_RESTRICTED || t == KEEL_TERRAIN_LAKE;
}

static unsigned derived_class(int ta, int tb) {
  if (ta == KEEL_TERRAIN_LAND || tb == KEEL_TERRAIN_LAND) return KEEL_SIDE_ALL_LAND;
  if (ta == KEEL_TERRAIN_COASTAL && tb == KEEL_TERRAIN_COASTAL) return KEEL_SIDE_PARTIAL_WATER;
  return KEEL_SIDE_ALL_WATER;
}

static int wet_class(unsigned f) {
  unsigned w = f & KEEL_SIDE_WATER_MASK;
  return w == KEEL_SIDE_ALL_WATER || w == KEEL_SIDE_PARTIAL_WATER;
}

/* features of side (cell i, direction d 0..5); 0 when the neighbour is off board */
static unsigned side_at(const keel_board *b, keel_hex h, int d, keel_hex *nb, int64_t *nbcell) {
  if (keel_hex_neighbor(h, d, nb) != KEEL_OK) return 0;
  int64_t j = cell_of(b, *nb);
  if (nbcell) *nbcell = j;
  if (j < 0) return 0;
  if (d < 3) return b->side[(size_t)cell_of(b, h) * 3 + (size_t)d];
  return b->side[(size_t)j * 3 + (size_t)(d - 3)];
}

static int cmp_port(const void *x, const void *y) {
  const keel_port *a = x, *c = y;
  return a->hex < c->hex ? -1 : a->hex > c->hex;
}
static int cmp_tag(const void *x, const void *y) {
  const tagent *a = x, *c = y;
  if (a->cell != c->cell) return a->cell < c->cell ? -1 : 1;
  return a->tag < c->tag ? -1 : a->tag > c->tag;
}
static int cmp_place(const void *x, const void *y) {
  return strcmp(((const place *)x)->name, ((const place *)y)->name);
}
static int cmp_pass(const void *x, const void *y) {
  const passage *a = x, *c = y;
  return a->crossing < c->crossing ? -1 : a->crossing > c->crossing;
}

/* Neighbours by cell arithmetic: the offset step (dc, dr) in direction d
 * depends only on the parity of the cell's column (flat) or row (pointy),
 * counted from col0 / row0. Sampled from two neighbouring cells. */
typedef struct cell_steps { int by_row; int64_t dc[2][6], dr[2][6]; } cell_steps;

static keel_status cell_steps_of(const keel_board *b, cell_steps *s) {
  s->by_row = b->conv == KEEL_ODD_R || b->conv == KEEL_EVEN_R;
  for (int p = 0; p < 2; p++) {
    int64_t c = b->col0 + (s->by_row ? 0 : p), r = b->row0 + (s->by_row ? p : 0);
    keel_hex h;
    keel_status st = keel_hex_from_offset(b->conv, c, r, &h);
    if (st != KEEL_OK) return st;
    for (int d = 0; d < 6; d++) {
      keel_hex nb;
      int64_t nc, nr;
      if ((st = keel_hex_neighbor(h, d, &nb)) != KEEL_OK) return st;
      keel_hex_to_offset(nb, b->conv, &nc, &nr);
      s->dc[p][d] = nc - c;
      s->dr[p][d] = nr - r;
    }
  }
  return KEEL_OK;
}

/* the cell next to cell i in direction d 0..5, or -1 when it is not on the board */
static int64_t cell_next(const keel_board *b, const cell_steps *s, size_t i, int d) {
  int64_t x = (int64_t)(i % (size_t)b->cols), y = (int64_t)(i / (size_t)b->cols);
  int p = (int)((s->by_row ? y : x) & 1);
  x += s->dc[p][d];
  y += s->dr[p][d];
  if (x < 0 || y < 0 || x >= b->cols || y >= b->rows) return -1;
  int64_t j = y * b->cols + x;
  return b->terrain[j] == KEEL_TERRAIN_NONE ? -1 : j;
}

keel_status keel_board_finish(keel_board *b) {
  keel_status st = building(b);
  if (st != KEEL_OK) return st;
  cell_steps steps;
  if ((st = cell_steps_of(b, &steps)) != KEEL_OK) return st;
  for (size_t i = 0; i < b->ncells; i++)
    if ((b->flags[i] & F_ONBOARD) && !(b->flags[i] & F_TERRAIN)) b->terrain[i] = (uint8_t)b->deflt;
  /* the coast defences' cells, listed before anything is final */
  size_t ncds = 0;
  for (size_t i = 0; i < b->ncells; i++) ncds += b->terrain[i] != KEEL_TERRAIN_NONE && b->cd[i] > 0;
  free(b->cdcells);
  b->cdcells = NULL;
  b->ncds = 0;
  if (ncds && !(b->cdcells = malloc(ncds * sizeof *b->cdcells))) return KEEL_E_NOMEM;
  for (size_t i = 0; i < b->ncells; i++)
    if (b->terrain[i] != KEEL_TERRAIN_NONE && b->cd[i] > 0) b->cdcells[b->ncds++] = i;
  /* from here on, on board = terrain set */
  b->finished = 1;
  for (size_t i = 0; i < b->ncells; i++) {
    if (b->terrain[i] == KEEL_TERRAIN_NONE) continue;
    for (int d = 0; d < 3; d++) {
      int64_t j = cell_next(b, &steps, i, d);
      uint16_t *f = &b->side[i * 3 + (size_t)d];
      if (j < 0) { *f = 0; continue; }
      if (!(*f & KEEL_SIDE_WATER_MASK))
        *f = (uint16_t)(*f | derived_class(b->terrain[i], b->terrain[j]));
    }
  }
  for (size_t i = 0; i < b->ncells; i++) {
    int t = b->terrain[i];
    if (t == KEEL_TERRAIN_NONE || (b->flags[i] & F_COASTS)) continue;
    int wet[6], nwet = 0;
    for (int d = 0; d < 6; d++) {
      int64_t j = cell_next(b, &steps, i, d);
      unsigned f = j < 0 ? 0 : d < 3 ? b->side[i * 3 + (size_t)d] : b->side[(size_t)j * 3 + (size_t)(d - 3)];
      wet[d] = j >= 0 && wet_class(f) && t != KEEL_TERRAIN_LAND;
      nwet += wet[d];
    }
    uint32_t w = 0;
    if (is_water(t) || nwet == 6) {
      for (int d = 0; d < 6; d++) if (wet[d]) w |= 1u << (4 * d);
    } else if (nwet) {
      int start = 0;
      while (wet[start]) start++;           /* a dry side exists */
      int id = 0;
      for (int k = 1; k <= 6; k++) {
        int d = (start + k) % 6;
        if (!wet[d]) continue;
        if (!wet[(d + 5) % 6]) id++;         /* a run begins */
        if (id > KEEL_COAST_MAX) id = KEEL_COAST_MAX;
        w |= (uint32_t)id << (4 * d);
      }
    }
    b->coast[i] = w;
  }
  if (b->nports) qsort(b->ports, b->nports, sizeof *b->ports, cmp_port);
  if (b->ntags) qsort(b->tagv, b->ntags, sizeof *b->tagv, cmp_tag);
  size_t k = 0;   /* drop repeated (hex, tag) pairs */
  for (size_t i = 0; i < b->ntags; i++)
    if (k == 0 || b->tagv[k - 1].cell != b->tagv[i].cell || b->tagv[k - 1].tag != b->tagv[i].tag)
      b->tagv[k++] = b->tagv[i];
  b->ntags = k;
  if (b->nplaces) qsort(b->places, b->nplaces, sizeof *b->places, cmp_place);
  if (b->npass) qsort(b->pass, b->npass, sizeof *b->pass, cmp_pass);
  return keel_area_connect_by_hexes(b->areas);
}

/* ---- queries ----------------------------------------------------------------------- */

int keel_board_contains(const keel_board *b, keel_hex h) {
  return b->finished && keel_hex_is_valid(h) && cell_of(b, h) >= 0;
}

keel_status keel_board_get_terrain(const keel_board *b, keel_hex h, keel_terrain *out) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st == KEEL_OK) *out = (keel_terrain)b->terrain[i];
  return st;
}

keel_status keel_board_get_features(const keel_board *b, keel_side s, unsigned *features) {
  if (!b->finished) return KEEL_E_STATE;
  size_t slot;
  keel_status st = side_slot(b, s, &slot);
  if (st == KEEL_OK) *features = b->side[slot];
  return st;
}

keel_status keel_board_get_coast(const keel_board *b, keel_hex h, int dir, int *coast) {
  int64_t i;
  if (dir < 0 || dir > 5) return KEEL_E_ARG;
  keel_status st = query_cell(b, h, &i);
  if (st == KEEL_OK) *coast = (int)((b->coast[i] >> (4 * dir)) & 0xfu);
  return st;
}

keel_status keel_board_get_port(const keel_board *b, keel_hex h, keel_port *out) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  if (!(b->flags[i] & F_PORT)) return KEEL_E_NOT_FOUND;
  if (!b->nports) return KEEL_E_NOT_FOUND;
  keel_port key = { h, 0, 0, 0 };
  const keel_port *p = bsearch(&key, b->ports, b->nports, sizeof *b->ports, cmp_port);
  if (!p) return KEEL_E_NOT_FOUND;
  *out = *p;
  return KEEL_OK;
}

size_t keel_board_count_ports(const keel_board *b) { return b->nports; }
keel_status keel_board_at_port(const keel_board *b, size_t i, keel_port *out) {
  if (!b->finished) return KEEL_E_STATE;
  if (i >= b->nports) return KEEL_E_NOT_FOUND;
  *out = b->ports[i];
  return KEEL_OK;
}

size_t keel_board_count_cds(const keel_board *b) { return b->ncds; }
keel_status keel_board_at_cd(const keel_board *b, size_t i, keel_hex *hex, int *level) {
  if (!b->finished) return KEEL_E_STATE;
  if (i >= b->ncds) return KEEL_E_NOT_FOUND;
  *level = b->cd[b->cdcells[i]];
  return keel_board_at_cell(b, b->cdcells[i], hex);
}

keel_status keel_board_find_place(const keel_board *b, const char *name, keel_hex *out) {
  if (!b->finished) return KEEL_E_STATE;
  if (!name) return KEEL_E_ARG;
  if (!b->nplaces) return KEEL_E_NOT_FOUND;
  place key = { (char *)name, 0 };
  const place *p = bsearch(&key, b->places, b->nplaces, sizeof *b->places, cmp_place);
  if (!p) return KEEL_E_NOT_FOUND;
  *out = p->hex;
  return KEEL_OK;
}

keel_status keel_board_place_name(const keel_board *b, keel_hex h, const char **name) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  for (size_t k = 0; k < b->nplaces; k++)
    if (b->places[k].hex == h) { *name = b->places[k].name; return KEEL_OK; }
  return KEEL_E_NOT_FOUND;
}

size_t keel_board_count_places(const keel_board *b) { return b->nplaces; }
keel_status keel_board_at_place(const keel_board *b, size_t i, const char **name, keel_hex *h) {
  if (!b->finished) return KEEL_E_STATE;
  if (i >= b->nplaces) return KEEL_E_NOT_FOUND;
  *name = b->places[i].name;
  *h = b->places[i].hex;
  return KEEL_OK;
}

keel_status keel_board_get_cd(const keel_board *b, keel_hex h, int *level) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st == KEEL_OK) *level = b->cd[i];
  return st;
}

keel_status keel_board_get_seaboxes(const keel_board *b, keel_boxgrid *out) {
  if (!b->has_boxes) return KEEL_E_NOT_FOUND;
  *out = b->boxes;
  return KEEL_OK;
}

keel_status keel_board_box_of(const keel_board *b, keel_hex h, keel_box *out) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  if (!b->has_boxes) return KEEL_E_NOT_FOUND;
  return keel_box_of(&b->boxes, h, out);
}

keel_status keel_board_get_zone(const keel_board *b, keel_hex h, size_t *index) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  if (!b->zone[i]) return KEEL_E_NOT_FOUND;
  *index = (size_t)b->zone[i] - 1;
  return KEEL_OK;
}

const keel_areas *keel_board_get_areas(const keel_board *b) { return b->areas; }

keel_status keel_board_find_tag(const keel_board *b, const char *name, int *id) {
  int f = name ? names_find(&b->tags, name) : 0;
  if (!f) return KEEL_E_NOT_FOUND;
  *id = f;
  return KEEL_OK;
}
const char *keel_board_tag_name(const keel_board *b, int id) { return names_get(&b->tags, id); }

/* first tag entry of a cell (lower bound) */
static size_t tag_lower(const keel_board *b, uint32_t cell) {
  size_t lo = 0, hi = b->ntags;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (b->tagv[mid].cell < cell) lo = mid + 1; else hi = mid;
  }
  return lo;
}

int keel_board_has_tag(const keel_board *b, keel_hex h, int id) {
  int64_t i;
  if (query_cell(b, h, &i) != KEEL_OK) return 0;
  for (size_t k = tag_lower(b, (uint32_t)i); k < b->ntags && b->tagv[k].cell == (uint32_t)i; k++)
    if (b->tagv[k].tag == id) return 1;
  return 0;
}

keel_status keel_board_tags(const keel_board *b, keel_hex h, int *out, size_t cap, size_t *n) {
  int64_t i;
  keel_status st = query_cell(b, h, &i);
  *n = 0;
  if (st != KEEL_OK) return st;
  for (size_t k = tag_lower(b, (uint32_t)i); k < b->ntags && b->tagv[k].cell == (uint32_t)i; k++) {
    if (*n >= cap) return KEEL_E_CAPACITY;
    out[(*n)++] = b->tagv[k].tag;
  }
  return KEEL_OK;
}

keel_status keel_board_tagged(const keel_board *b, int id, keel_hex *out, size_t cap, size_t *n) {
  *n = 0;
  if (!b->finished) return KEEL_E_STATE;
  if (!names_get(&b->tags, id)) return KEEL_E_NOT_FOUND;
  for (size_t k = 0; k < b->ntags; k++) {
    if (b->tagv[k].tag != id) continue;
    if (!out) { (*n)++; continue; }   /* counting only */
    if (*n >= cap) return KEEL_E_CAPACITY;
    keel_board_at_cell(b, b->tagv[k].cell, &out[(*n)++]);
  }
  return KEEL_OK;
}

keel_status keel_board_water_neighbors(const keel_board *b, keel_hex h, int coast,
                                       keel_water_step out[6], size_t *n) {
  int64_t i;
  *n = 0;
  if (coast < 0 || coast > KEEL_COAST_MAX) return KEEL_E_ARG;
  keel_status st = query_cell(b, h, &i);
  if (st != KEEL_OK) return st;
  for (int d = 0; d < 6; d++) {
    int ca = (int)((b->coast[i] >> (4 * d)) & 0xfu);
    if (!ca || (coast && ca != coast)) continue;
    keel_hex nb;
    int64_t j = -1;
    unsigned f = side_at(b, h, d, &nb, &j);
    if (j < 0 || !wet_class(f) || (f & KEEL_SIDE_PROHIBITED)) continue;
    int cb = (int)((b->coast[j] >> (4 * ((d + 3) % 6))) & 0xfu);
    if (!cb) continue;
    keel_water_step *s = &out[(*n)++];
    s->to = nb;
    s->dir = d;
    s->coast = cb;
    keel_side_of(h, d, &s->side);
  }
  return KEEL_OK;
}

keel_status keel_board_riverine_neighbors(const keel_board *b, keel_side s, keel_side out[4],
                                          size_t *n) {
  *n = 0;
  if (!b->finished) return KEEL_E_STATE;
  size_t slot;
  keel_status st = side_slot(b, s, &slot);
  if (st != KEEL_OK) return st;
  keel_hex a, c;
  keel_side_hexes(s, &a, &c);
  int d = keel_side_direction(s);
  /* the two hexes that touch both a and c share the side's two ends */
  for (int k = 0; k < 2; k++) {
    keel_hex x;
    if (keel_hex_neighbor(a, k == 0 ? (d + 5) % 6 : (d + 1) % 6, &x) != KEEL_OK) continue;
    keel_hex ends[2] = { a, c };
    for (int e = 0; e < 2; e++) {
      keel_side t;
      size_t ts;
      if (keel_side_between(ends[e], x, &t) != KEEL_OK) continue;
      if (side_slot(b, t, &ts) != KEEL_OK) continue;
      if (b->side[ts] & KEEL_SIDE_RIVERINE_MASK) out[(*n)++] = t;
    }
  }
  return KEEL_OK;
}

static int cmp_side(const void *x, const void *y) {
  keel_side a = *(const keel_side *)x, c = *(const keel_side *)y;
  return (a > c) - (a < c);
}

keel_status keel_board_riverine_sides(const keel_board *b, keel_side *out, size_t cap, size_t *n) {
  *n = 0;
  if (!b->finished) return KEEL_E_STATE;
  for (size_t i = 0; i < b->ncells; i++) {
    if (b->terrain[i] == KEEL_TERRAIN_NONE) continue;
    for (int d = 0; d < 3; d++) {
      /* a side whose other hex is off the board was cleared at finish */
      if (!(b->side[i * 3 + (size_t)d] & KEEL_SIDE_RIVERINE_MASK)) continue;
      if (!out) { (*n)++; continue; }   /* counting only */
      if (*n >= cap) return KEEL_E_CAPACITY;
      keel_hex h;
      keel_board_at_cell(b, i, &h);
      keel_side_of(h, d, &out[(*n)++]);
    }
  }
  if (out) qsort(out, *n, sizeof *out, cmp_side);
  return KEEL_OK;
}

keel_status keel_board_strait_passage(const keel_board *b, keel_side crossing, keel_side *strait) {
  if (!b->finished) return KEEL_E_STATE;
  size_t slot;
  keel_status st = side_slot(b, crossing, &slot);
  if (st != KEEL_OK) return st;
  if (b->side[slot] & KEEL_SIDE_NARROW_STRAIT) { *strait = crossing; return KEEL_OK; }
  if (!b->npass) return KEEL_E_NOT_FOUND;
  passage key = { crossing, 0 };
  const passage *p = bsearch(&key, b->pass, b->npass, sizeof *b->pass, cmp_pass);
  if (!p) return KEEL_E_NOT_FOUND;
  *strait = p->strait;
  return KEEL_OK;
}

keel_status keel_board_rect_hexes(const keel_board *b, keel_hex a, keel_hex c, keel_hex *out,
                                  size_t cap, size_t *n) {
  *n = 0;
  if (!b->finished) return KEEL_E_STATE;
  if (!keel_hex_is_valid(a) || !keel_hex_is_valid(c)) return KEEL_E_ARG;
  int64_t c0, r0, c1, r1;
  keel_hex_to_offset(a, b->conv, &c0, &r0);
  keel_hex_to_offset(c, b->conv, &c1, &r1);
  if (c1 < c0 || r1 < r0) return KEEL_E_ARG;
  /* only the part inside the bounding rectangle can hold board hexes */
  if (c0 < b->col0) c0 = b->col0;
  if (r0 < b->row0) r0 = b->row0;
  if (c1 > b->col0 + b->cols - 1) c1 = b->col0 + b->cols - 1;
  if (r1 > b->row0 + b->rows - 1) r1 = b->row0 + b->rows - 1;
  for (int64_t r = r0; r <= r1; r++)
    for (int64_t col = c0; col <= c1; col++) {
      if (cell_at(b, col, r) < 0) continue;
      if (!out) { (*n)++; continue; }   /* counting only */
      if (*n >= cap) return KEEL_E_CAPACITY;
      keel_hex_from_offset(b->conv, col, r, &out[(*n)++]);
    }
  return KEEL_OK;
}

size_t keel_board_count_cells(const keel_board *b) { return b->ncells; }
size_t keel_board_count_hexes(const keel_board *b) { return b->nhexes; }

keel_status keel_board_at_cell(const keel_board *b, size_t i, keel_hex *out) {
  if (!b->finished) return KEEL_E_STATE;
  if (i >= b->ncells || b->terrain[i] == KEEL_TERRAIN_NONE) return KEEL_E_OFF_BOARD;
  return keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                            b->row0 + (int64_t)(i / (size_t)b->cols), out);
}

size_t keel_board_memory(const keel_board *b) {
  size_t s = sizeof *b;
  s += b->ncells * (3 * sizeof(uint8_t) + sizeof(uint16_t) * 4 + sizeof(uint32_t));
  s += names_bytes(&b->side_names) + names_bytes(&b->tags);
  s += b->capports * sizeof *b->ports + b->captags * sizeof *b->tagv;
  s += b->capplaces * sizeof *b->places + b->cappass * sizeof *b->pass;
  for (size_t i = 0; i < b->nplaces; i++) s += strlen(b->places[i].name) + 1;
  return s;
}

/* ---- movement: a cost map for a profile, in one pass over the flat arrays ------ */

static int side_matches(const keel_side_match *m, size_t n, unsigned f) {
  for (size_t i = 0; i < n; i++)
    if ((f & m[i].mask) == m[i].value) return 1;
  return 0;
}

/* Per cell: 1 when the hex's owner in c->owners is friendly. NULL with
 * *st = KEEL_OK when c reads no owners. */
static uint8_t *friendly_cells(const keel_board *b, const keel_move_conditions *c, keel_status *st) {
  *st = KEEL_OK;
  if (!c || (!c->friendly_only && !c->nboth)) return NULL;
  if (c->nfriendly > KEEL_FRIENDLY_MAX) { *st = KEEL_E_ARG; return NULL; }
  uint8_t *fr = calloc(b->ncells ? b->ncells : 1, 1);
  if (!fr) { *st = KEEL_E_NOMEM; return NULL; }
  for (size_t i = 0; i < b->ncells; i++) {
    if (b->terrain[i] == KEEL_TERRAIN_NONE) continue;
    keel_hex h;
    keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                       b->row0 + (int64_t)(i / (size_t)b->cols), &h);
    keel_atom o = c->owners ? keel_state_get_owner(c->owners, h) : 0;
    for (size_t k = 0; k < c->nfriendly && !fr[i]; k++) fr[i] = c->friendly[k] == o;
  }
  return fr;
}

static int friendly_cell(const uint8_t *fr, int64_t i) { return i >= 0 && fr[i]; }

keel_status keel_board_owner_hexes(const keel_board *b, const keel_move_conditions *c,
                                   keel_hex **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!b->finished) return KEEL_E_STATE;
  if (!c || (!c->friendly_only && !c->nboth)) return KEEL_OK;
  uint8_t *mark = calloc(b->ncells ? b->ncells : 1, 1);
  if (!mark) return KEEL_E_NOMEM;
  size_t count = 0;
  for (size_t i = 0; i < b->ncells; i++) {
    int t = b->terrain[i];
    if (t == KEEL_TERRAIN_NONE) continue;
    if ((c->friendly_only >> t) & 1u) mark[i] = 1;
    keel_hex h;
    keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                       b->row0 + (int64_t)(i / (size_t)b->cols), &h);
    for (int d = 0; d < 3; d++) {
      if (!side_matches(c->both_friendly, c->nboth, b->side[i * 3 + (size_t)d])) continue;
      keel_hex nb;
      int64_t j = keel_hex_neighbor(h, d, &nb) == KEEL_OK ? cell_of(b, nb) : -1;
      mark[i] = 1;
      if (j >= 0) mark[j] = 1;
    }
  }
  for (size_t i = 0; i < b->ncells; i++) count += mark[i];
  keel_hex *list = malloc((count ? count : 1) * sizeof *list);
  if (!list) { free(mark); return KEEL_E_NOMEM; }
  size_t k = 0;
  for (size_t i = 0; i < b->ncells; i++) {
    if (!mark[i]) continue;
    keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                       b->row0 + (int64_t)(i / (size_t)b->cols), &list[k++]);
  }
  free(mark);
  *out = list;
  *n = count;
  return KEEL_OK;
}

/* the crossing cost of the side (cell i, canonical direction d) to cell j;
 * fr: friendly_cells */
static uint32_t crossing(const keel_board *b, const keel_profile *p, const keel_move_conditions *c,
                         const uint8_t *fr, size_t i, int d, int64_t j, keel_hex h) {
  unsigned f = b->side[i * 3 + (size_t)d];
  unsigned w = f & KEEL_SIDE_WATER_MASK;
  if (!w || j < 0) return KEEL_COST_BLOCKED;
  uint32_t parts[5] = { p->water[w], p->riverine[(f & KEEL_SIDE_RIVERINE_MASK) >> 2],
                        (f & KEEL_SIDE_NARROW_STRAIT) ? p->narrow_strait : 0,
                        (f & KEEL_SIDE_ESTUARY) ? p->estuary : 0,
                        (f & KEEL_SIDE_PROHIBITED) ? p->prohibited : 0 };
  uint32_t sum = 0;
  for (int k = 0; k < 5; k++) {
    if (parts[k] == KEEL_COST_BLOCKED) return KEEL_COST_BLOCKED;
    sum += parts[k];
  }
  if (p->water_route) {
    unsigned ca = (b->coast[i] >> (4 * d)) & 0xfu, cb = (b->coast[j] >> (4 * (d + 3))) & 0xfu;
    if (!wet_class(f) || !ca || !cb) return KEEL_COST_BLOCKED;
  }
  if (c) {
    if (side_matches(c->closed, c->nclosed, f)) return KEEL_COST_BLOCKED;
    if (side_matches(c->both_friendly, c->nboth, f) &&
        !(friendly_cell(fr, (int64_t)i) && friendly_cell(fr, j)))
      return KEEL_COST_BLOCKED;
    if (b->npass && c->nboth) {   /* a crossing that passes through a strait (32.A.5) */
      keel_side s, strait;
      keel_side_of(h, d, &s);
      passage key = { s, 0 };
      const passage *pp = bsearch(&key, b->pass, b->npass, sizeof *b->pass, cmp_pass);
      if (pp) {
        strait = pp->strait;
        size_t slot;
        keel_hex sa, sb;
        keel_side_hexes(strait, &sa, &sb);
        if (side_slot(b, strait, &slot) == KEEL_OK &&
            side_matches(c->both_friendly, c->nboth, b->side[slot]) &&
            !(friendly_cell(fr, cell_of(b, sa)) && friendly_cell(fr, cell_of(b, sb))))
          return KEEL_COST_BLOCKED;
      }
    }
  }
  return sum > KEEL_COST_MAX ? KEEL_COST_MAX : sum;
}

keel_status keel_board_costmap(const keel_board *b, const keel_profile *p,
                               const keel_move_conditions *c, keel_costmap **out) {
  *out = NULL;
  if (!b->finished) return KEEL_E_STATE;
  for (int t = 0; t < KEEL_TERRAIN_COUNT; t++)
    if (p->enter[t] > KEEL_COST_MAX && p->enter[t] != KEEL_COST_BLOCKED) return KEEL_E_RANGE;
  int64_t q0 = INT64_MAX, r0 = INT64_MAX, q1 = INT64_MIN, r1 = INT64_MIN;
  for (size_t i = 0; i < b->ncells; i++) {
    if (b->terrain[i] == KEEL_TERRAIN_NONE) continue;
    keel_hex h;
    keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                       b->row0 + (int64_t)(i / (size_t)b->cols), &h);
    int64_t q = keel_hex_q(h), r = keel_hex_r(h);
    if (q < q0) q0 = q;
    if (q > q1) q1 = q;
    if (r < r0) r0 = r;
    if (r > r1) r1 = r;
  }
  if (q0 > q1) return KEEL_E_STATE;   /* no hexes */
  keel_status st;
  uint8_t *fr = friendly_cells(b, c, &st);
  if (st != KEEL_OK) return st;
  keel_costmap *m;
  if ((st = keel_costmap_new(q0, r0, q1 - q0 + 1, r1 - r0 + 1, &m)) != KEEL_OK) { free(fr); return st; }
  /* keel_costmap_new left every cell blocked; fill the board's hexes */
  for (size_t i = 0; i < b->ncells; i++) {
    int t = b->terrain[i];
    if (t == KEEL_TERRAIN_NONE) continue;
    keel_hex h;
    keel_hex_from_offset(b->conv, b->col0 + (int64_t)(i % (size_t)b->cols),
                       b->row0 + (int64_t)(i / (size_t)b->cols), &h);
    int ok;
    size_t cell = keel__costmap_cell(m, h, &ok);
    uint16_t e = p->enter[t];
    if (c && ((c->friendly_only >> t) & 1u) && !fr[i]) e = KEEL_COST_BLOCKED;
    m->enter[cell] = e;
    for (int d = 0; d < 3; d++) {
      keel_hex nb;
      int64_t j = -1;
      if (keel_hex_neighbor(h, d, &nb) == KEEL_OK) j = cell_of(b, nb);
      m->cross[cell * 3 + (size_t)d] = (uint16_t)crossing(b, p, c, fr, i, d, j, h);
    }
    if (!p->water_route) continue;
    /* two or more water bodies at this hex: number them 1..3 for the search */
    uint32_t w = b->coast[i];
    int ids[KEEL_COASTS] = { 0 }, nid = 0, map[6] = { 0 };
    for (int d = 0; d < 6; d++) {
      int id = (int)((w >> (4 * d)) & 0xfu), k;
      if (!id) continue;
      for (k = 1; k <= nid && ids[k] != id; k++) {}
      if (k > nid) {
        if (nid == KEEL_COASTS - 1) { keel_costmap_free(m); free(fr); return KEEL_E_CAPACITY; }
        ids[++nid] = id;
      }
      map[d] = k;
    }
    if (nid < 2) continue;
    if ((st = keel__costmap_alloc_coasts(m)) != KEEL_OK) { keel_costmap_free(m); free(fr); return st; }
    for (int d = 0; d < 6; d++) m->coast[cell * 6 + (size_t)d] = (uint8_t)map[d];
  }
  free(fr);
  keel__costmap_update_edges(m);
  *out = m;
  return KEEL_OK;
}
