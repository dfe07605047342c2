/*
 * keel.h — the one public header of the keel kernel.
 *
 * keel is a naval wargame rules kernel: hex, sea-box and sea-zone geometry,
 * boards, dice, and the state of units and their damage. This header is the
 * whole C API; if it is not here, it is not API. Nothing here needs lua.h.
 *
 * Conventions (after H3 and SQLite):
 *   - every fallible call returns a keel_status; results go through
 *     out-parameters; keel_status_str() names a status;
 *   - a hex is a plain 64-bit integer (packed axial q, r), never a pointer;
 *   - a keel_max_*_size() function tells a caller how much to allocate.
 */
#ifndef KEEL_H
#define KEEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define KEEL_API __attribute__((visibility("default")))
#else
#define KEEL_API
#endif

/* ==== status ============================================================ */

typedef enum keel_status {
  KEEL_OK = 0,
  KEEL_E_NOMEM,        /* out of memory */
  KEEL_E_ARG,          /* an argument is out of its domain */
  KEEL_E_RANGE,        /* a coordinate or count is outside what keel can hold */
  KEEL_E_LABEL,        /* a printed label is malformed */
  KEEL_E_SECTION,      /* a map section is unknown */
  KEEL_E_NOT_ADJACENT, /* two hexes that must share a side do not */
  KEEL_E_OFF_BOARD,    /* a hex is not on the board */
  KEEL_E_NOT_FOUND,    /* a named thing (area, place, unit) does not exist */
  KEEL_E_DUPLICATE,    /* a name or id is defined twice */
  KEEL_E_PARSE,        /* a text (map, table, dice, save) does not parse */
  KEEL_E_IO,           /* a file could not be read or written */
  KEEL_E_VERSION,      /* a file is from an incompatible version */
  KEEL_E_CHECKSUM,     /* a file is damaged */
  KEEL_E_CAPACITY,     /* a capacity or limit is exceeded */
  KEEL_E_STATE,        /* the call is not valid in the current state */
  KEEL_E_LIMIT,        /* a CPU, memory or instruction limit was reached */
  KEEL_E_FROZEN,       /* the state is frozen: no change is allowed now */
  KEEL_E_NOT_REGULAR,  /* a path that must be a regular file is something else */
  KEEL_STATUS_COUNT
} keel_status;

/* A short English phrase for a status ("hexes are not adjacent"). */
KEEL_API const char *keel_status_str(keel_status status);

/* The kernel's version, "MAJOR.MINOR.PATCH". */
KEEL_API const char *keel_version(void);

/* ==== hex geometry (kernel/hex.c) ======================================= */

/* A hex: axial (q, r) packed in 64 bits; s = -q - r. Coordinates lie in
 * [-KEEL_HEX_COORD_MAX, KEEL_HEX_COORD_MAX]. */
typedef int64_t keel_hex;
/* A hexside: the side between two adjacent hexes, one id from either hex. */
typedef int64_t keel_side;

#define KEEL_HEX_COORD_MAX ((1 << 29) - 1)

/* Directions, numbered as in Red Blob Games' guide, counter-clockwise from
 * +q: 0 (+1, 0), 1 (+1,-1), 2 (0,-1), 3 (-1, 0), 4 (-1,+1), 5 (0,+1). */
#define KEEL_DIRECTIONS 6

KEEL_API int keel_hex_is_valid_qr(int64_t q, int64_t r);
KEEL_API keel_status keel_hex_from_qr(int64_t q, int64_t r, keel_hex *out);
KEEL_API keel_status keel_hex_from_qrs(int64_t q, int64_t r, int64_t s, keel_hex *out);
KEEL_API int64_t keel_hex_q(keel_hex h);
KEEL_API int64_t keel_hex_r(keel_hex h);
KEEL_API int64_t keel_hex_s(keel_hex h);
KEEL_API int keel_hex_is_valid(keel_hex h);

/* Arithmetic; results outside the coordinate range give KEEL_E_RANGE. */
KEEL_API keel_status keel_hex_add(keel_hex a, keel_hex b, keel_hex *out);
KEEL_API keel_status keel_hex_subtract(keel_hex a, keel_hex b, keel_hex *out);
KEEL_API keel_status keel_hex_scale(keel_hex a, int64_t k, keel_hex *out);
KEEL_API keel_status keel_hex_neighbor(keel_hex h, int dir, keel_hex *out);
KEEL_API keel_status keel_hex_diagonal_neighbor(keel_hex h, int dir, keel_hex *out);
KEEL_API void keel_hex_direction_qr(int dir, int *dq, int *dr);
KEEL_API void keel_hex_diagonal_qr(int dir, int *dq, int *dr);
/* The direction from a to an adjacent b, or -1 when they are not adjacent. */
KEEL_API int keel_hex_direction_to(keel_hex a, keel_hex b);
KEEL_API int64_t keel_hex_distance(keel_hex a, keel_hex b);
/* Rotation by 60 degree steps about a center (positive = left, counter-clockwise). */
KEEL_API keel_status keel_hex_rotate(keel_hex h, keel_hex center, int steps, keel_hex *out);
/* Nearest hex to fractional cube coordinates (ties go to the s, then r
 * component being recomputed, as in Red Blob's hex_round). */
KEEL_API keel_status keel_hex_round(double q, double r, double s, keel_hex *out);

/* Line from a to b inclusive: distance+1 hexes. Ties are broken by nudging
 * both ends by (+1e-6, +1e-6, -2e-6), so a line is the same on every run. */
KEEL_API size_t keel_max_line_size(keel_hex a, keel_hex b);
KEEL_API keel_status keel_hex_line(keel_hex a, keel_hex b, keel_hex *out, size_t cap, size_t *n);
/* Ring of radius k (6k hexes, 1 for k = 0), starting at center + k*dir4 and
 * walking directions 0..5; spiral = center, ring 1, ring 2, ... */
KEEL_API size_t keel_max_ring_size(int64_t radius);
KEEL_API size_t keel_max_disk_size(int64_t radius);
KEEL_API keel_status keel_hex_ring(keel_hex center, int64_t radius, keel_hex *out, size_t cap, size_t *n);
KEEL_API keel_status keel_hex_spiral(keel_hex center, int64_t radius, keel_hex *out, size_t cap, size_t *n);

/* Hexsides. The canonical id belongs to the hex from which the side lies in
 * direction 0, 1 or 2. */
KEEL_API keel_status keel_side_of(keel_hex h, int dir, keel_side *out);
KEEL_API keel_status keel_side_between(keel_hex a, keel_hex b, keel_side *out);
KEEL_API void keel_side_hexes(keel_side side, keel_hex *a, keel_hex *b);
/* Direction of the side as seen from its first hex (0, 1 or 2). */
KEEL_API int keel_side_direction(keel_side side);
KEEL_API int keel_side_is_valid(keel_side side);

/* Offset and doubled coordinates. */
typedef enum keel_offset {
  KEEL_ODD_Q, KEEL_EVEN_Q, KEEL_ODD_R, KEEL_EVEN_R
} keel_offset;
KEEL_API void keel_hex_to_offset(keel_hex h, keel_offset conv, int64_t *col, int64_t *row);
KEEL_API keel_status keel_hex_from_offset(keel_offset conv, int64_t col, int64_t row, keel_hex *out);
typedef enum keel_doubled { KEEL_DOUBLED_Q, KEEL_DOUBLED_R } keel_doubled;
KEEL_API void keel_hex_to_doubled(keel_hex h, keel_doubled conv, int64_t *col, int64_t *row);
KEEL_API keel_status keel_hex_from_doubled(keel_doubled conv, int64_t col, int64_t row, keel_hex *out);

/* Pixel layout for drawing. */
typedef struct keel_layout {
  int pointy;               /* 0: flat-top, 1: pointy-top */
  double size_x, size_y;    /* hex size (center to corner) */
  double origin_x, origin_y;
} keel_layout;
KEEL_API void keel_hex_to_pixel(const keel_layout *l, keel_hex h, double *x, double *y);
KEEL_API void keel_pixel_to_frac(const keel_layout *l, double x, double y,
                                 double *q, double *r, double *s);
KEEL_API void keel_hex_corner(const keel_layout *l, keel_hex h, int corner, double *x, double *y);

/* ==== sea boxes (kernel/hex.c) =========================================== */

/* An overlay of large hexes of the given radius (2: 19 hexes, 5 across)
 * whose box (0,0) is centred on `origin`. A box is packed like a hex, in the
 * overlay's own axial coordinates, so box adjacency is hex adjacency. */
typedef struct keel_boxgrid { int64_t radius; keel_hex origin; } keel_boxgrid;
typedef int64_t keel_box;
KEEL_API keel_status keel_box_of(const keel_boxgrid *g, keel_hex h, keel_box *out);
KEEL_API keel_status keel_box_center(const keel_boxgrid *g, keel_box b, keel_hex *out);
KEEL_API keel_status keel_box_hexes(const keel_boxgrid *g, keel_box b, keel_hex *out, size_t cap, size_t *n);
KEEL_API int64_t keel_box_distance(keel_box a, keel_box b);

/* ==== grids: printed labels and map sections (kernel/grid.c) ============= */

/* How a map prints its hex numbers: XXYY column-row with `digits` digits
 * each, starting at first_col / first_row. Flat-top maps number columns
 * along q (odd-q or even-q shift); pointy-top maps number rows along r. */
typedef struct keel_numbering {
  int pointy;         /* 0: flat-top, columns are vertical */
  int shift_even;     /* 0: odd columns/rows shifted (odd-q/odd-r), 1: even */
  int digits;         /* digits per coordinate, 1..4 (2 gives "2407") */
  int first_col, first_row;
} keel_numbering;

typedef struct keel_grid keel_grid;   /* opaque: numbering + named sections */

#define KEEL_SECTION_NAME_MAX 15
#define KEEL_LABEL_MAX 64

KEEL_API keel_status keel_grid_new(const keel_numbering *n, keel_grid **out);
KEEL_API void keel_grid_free(keel_grid *g);
/* Add a section, placed so that its first column/row lies at offset
 * (col, row) of the global grid. The first section added is the default
 * for labels without a prefix. Section names: 1..15 of [A-Za-z0-9_-]. */
KEEL_API keel_status keel_grid_add_section(keel_grid *g, const char *name,
                                           int64_t col, int64_t row,
                                           int64_t cols, int64_t rows);
KEEL_API size_t keel_grid_count_sections(const keel_grid *g);
KEEL_API const char *keel_grid_section_name(const keel_grid *g, size_t i);
KEEL_API const keel_numbering *keel_grid_numbering(const keel_grid *g);
/* Parse "15B:2407" or "2407"; on failure *err_at is the byte offset of the
 * first character that does not fit. */
KEEL_API keel_status keel_grid_parse(const keel_grid *g, const char *label,
                                     keel_hex *out, size_t *err_at);
/* Print a hex as its label; the section is the first (in order added)
 * whose extent holds it, or KEEL_E_OFF_BOARD. */
KEEL_API keel_status keel_grid_format(const keel_grid *g, keel_hex h,
                                      char *buf, size_t cap);
/* "33:1223/1224" (second label may carry its own prefix); printed with the
 * lower column (then row) first. */
KEEL_API keel_status keel_grid_parse_side(const keel_grid *g, const char *label,
                                          keel_side *out, size_t *err_at);
KEEL_API keel_status keel_grid_format_side(const keel_grid *g, keel_side s,
                                           char *buf, size_t cap);
/* Which section holds the hex (index), or KEEL_E_OFF_BOARD. */
KEEL_API keel_status keel_grid_section_of(const keel_grid *g, keel_hex h, size_t *index);

/* ==== areas: sea zones as sets of hexes and as a graph (kernel/area.c) ==== */

typedef struct keel_areas keel_areas;  /* opaque */
KEEL_API keel_status keel_areas_new(keel_areas **out);
KEEL_API void keel_areas_free(keel_areas *a);
KEEL_API keel_status keel_area_add(keel_areas *a, const char *name, size_t *index);
KEEL_API keel_status keel_area_find(const keel_areas *a, const char *name, size_t *index);
KEEL_API size_t keel_area_count(const keel_areas *a);
KEEL_API const char *keel_area_name(const keel_areas *a, size_t index);
/* A hex belongs to at most one area. */
KEEL_API keel_status keel_area_add_hex(keel_areas *a, size_t index, keel_hex h);
KEEL_API keel_status keel_area_of(const keel_areas *a, keel_hex h, size_t *index);
KEEL_API size_t keel_area_count_hexes(const keel_areas *a, size_t index);
/* Hexes of an area in ascending hex id order. */
KEEL_API keel_status keel_area_hexes(const keel_areas *a, size_t index,
                                     keel_hex *out, size_t cap, size_t *n);
KEEL_API keel_status keel_area_connect(keel_areas *a, size_t i, size_t j);
/* Connect every pair of areas that have two adjacent hexes. */
KEEL_API keel_status keel_area_connect_by_hexes(keel_areas *a);
KEEL_API int keel_area_adjacent(const keel_areas *a, size_t i, size_t j);
/* Neighbours in ascending index order. */
KEEL_API size_t keel_area_count_neighbors(const keel_areas *a, size_t i);
KEEL_API size_t keel_area_neighbor(const keel_areas *a, size_t i, size_t k);
/* Graph distance in steps (breadth first), -1 when unreachable. */
KEEL_API int64_t keel_area_distance(const keel_areas *a, size_t from, size_t to);

/* ==== routes: reach sets and paths over MP costs (kernel/route.c) ========= */

/* A cost map: what it costs a kind of group to enter each hex and cross
 * each hexside, over an axial box of hexes (q0..q0+width-1, r0..r0+height-1).
 * Rules fill it from a board and a movement profile; the search reads only
 * flat arrays. Costs are MPs (0..KEEL_COST_MAX); KEEL_COST_BLOCKED forbids.
 * Coasts: each hexside of a hex may carry a water-body number 1..3 (0: any);
 * a group that entered a hex across a side of coast k leaves it only across
 * sides of coast k or 0 (27.B.5: two coasts separated by land). */
#define KEEL_COST_BLOCKED 0xffffu
#define KEEL_COST_MAX 0xfff0u
#define KEEL_COASTS 4
typedef struct keel_costmap keel_costmap;
typedef struct keel_reach keel_reach;

KEEL_API keel_status keel_costmap_new(int64_t q0, int64_t r0, int64_t width, int64_t height,
                                      keel_costmap **out);
KEEL_API void keel_costmap_free(keel_costmap *m);
KEEL_API int keel_costmap_contains(const keel_costmap *m, keel_hex h);
/* Every hex of the box gets `enter`, every side `cross`; coasts cleared. */
KEEL_API void keel_costmap_fill(keel_costmap *m, uint16_t enter, uint16_t cross);
KEEL_API keel_status keel_costmap_set_enter(keel_costmap *m, keel_hex h, uint16_t cost);
KEEL_API keel_status keel_costmap_get_enter(const keel_costmap *m, keel_hex h, uint16_t *cost);
KEEL_API keel_status keel_costmap_set_cross(keel_costmap *m, keel_side s, uint16_t cost);
KEEL_API keel_status keel_costmap_get_cross(const keel_costmap *m, keel_side s, uint16_t *cost);
KEEL_API keel_status keel_costmap_set_coast(keel_costmap *m, keel_hex h, int dir, int coast);

/* Cheapest costs from `start` (entered on coast `start_coast`, 0: any)
 * within `budget` MPs: Dial's bucket queue. Moving from a to b costs
 * cross(side) + enter(b). Equal costs keep the predecessor with the lower
 * hex id, so results are the same on every run. */
KEEL_API keel_status keel_reach_new(const keel_costmap *m, keel_hex start, int start_coast,
                                    uint32_t budget, keel_reach **out);
KEEL_API void keel_reach_free(keel_reach *r);
/* Memory a reach set holds (for a host's garbage collector). */
KEEL_API size_t keel_reach_bytes(const keel_reach *r);
/* Number of hexes reached (start included) and the i-th, in the order
 * they were settled (cost, then discovery). */
KEEL_API size_t keel_reach_count(const keel_reach *r);
KEEL_API keel_hex keel_reach_hex(const keel_reach *r, size_t i);
/* Cost to reach a hex (over all coasts), or KEEL_E_NOT_FOUND. */
KEEL_API keel_status keel_reach_cost(const keel_reach *r, keel_hex h, uint32_t *cost);
/* Path from the start to h inclusive; *n is the number of hexes. */
KEEL_API keel_status keel_reach_path(const keel_reach *r, keel_hex h, keel_hex *out,
                                     size_t cap, size_t *n);

/* Search options (all optional; NULL opts = none), for one search only:
 *   blocked: hexes (graph: node keys) that may not be entered;
 *   stop:    hexes that may be entered but not left (the start excepted);
 *   allow:   the slow path, a predicate asked once per candidate hex per
 *            search (cached): 1 may enter, 0 may not, < 0 abort the search
 *            (keel_reach_new_ex then returns KEEL_E_LIMIT). */
typedef struct keel_reach_opts {
  const keel_hex *blocked;
  size_t nblocked;
  const keel_hex *stop;
  size_t nstop;
  int (*allow)(void *ud, keel_hex h);
  void *ud;
  /* Where the reach set lives: one block of the given size from alloc
   * (a host's garbage-collected memory; the host frees it, after
   * keel_reach_free has released what keel added). NULL: malloc. */
  void *(*alloc)(void *ud, size_t bytes);
  void *alloc_ud;
} keel_reach_opts;
KEEL_API keel_status keel_reach_new_ex(const keel_costmap *m, keel_hex start, int start_coast,
                                       uint32_t budget, const keel_reach_opts *opts,
                                       keel_reach **out);
/* One move from `from` (entered on coast `coast_in`, 0: any) to the
 * adjacent `to`: its cost and the coast it arrives on; *cost = UINT32_MAX
 * when the cost map forbids it (blocked hex or side, or the coast rule). */
KEEL_API keel_status keel_costmap_step(const keel_costmap *m, keel_hex from, int coast_in,
                                       keel_hex to, uint32_t *cost, int *coast_out);
/* 1 when some hex of the map has two coasts (the search then tracks them). */
KEEL_API int keel_costmap_has_coasts(const keel_costmap *m);

/* Graphs: the same search over nodes named by 64-bit keys (sea boxes, sea
 * zones, hexes and riverine hexsides together) with per-edge costs, held as
 * compressed adjacency (CSR). Add nodes, then directed edges, then finish;
 * ties go to the lower key. Reach sets over a graph answer in keys. */
typedef struct keel_graph keel_graph;
KEEL_API keel_status keel_graph_new(keel_graph **out);
KEEL_API void keel_graph_free(keel_graph *g);
KEEL_API keel_status keel_graph_add_node(keel_graph *g, int64_t key);
/* cost 0..KEEL_COST_MAX; a repeated edge keeps the lower cost */
KEEL_API keel_status keel_graph_add_edge(keel_graph *g, int64_t from, int64_t to, uint16_t cost);
KEEL_API keel_status keel_graph_finish(keel_graph *g);
KEEL_API size_t keel_graph_count_nodes(const keel_graph *g);
KEEL_API size_t keel_graph_count_edges(const keel_graph *g);
KEEL_API int keel_graph_has_node(const keel_graph *g, int64_t key);
/* Neighbours of a node in key order with their costs; at most cap. */
KEEL_API keel_status keel_graph_neighbors(const keel_graph *g, int64_t key, int64_t *out,
                                          uint16_t *costs, size_t cap, size_t *n);
KEEL_API keel_status keel_graph_reach(const keel_graph *g, int64_t start, uint32_t budget,
                                      const keel_reach_opts *opts, keel_reach **out);

/* ==== boards (kernel/board.c) ============================================= */

/* A board: the map a rule system plays on. It owns a grid (printed labels and
 * map sections), a sea-box overlay and the sea zones (keel_areas), and holds
 * per-hex data in flat arrays over the bounding offset rectangle of its
 * sections (struct of arrays, one dense index per hex).
 *
 * Life cycle: keel_board_new, add sections, set data (terrain, sides, ports,
 * ...), keel_board_finish (derives unset hexside classes and coasts, links
 * the sea zones), then query. A finished board never changes, so any number
 * of games may share one. Who owns a hex is game state (keel_state_get_owner). */
typedef struct keel_board keel_board;   /* opaque */

typedef enum keel_terrain {
  KEEL_TERRAIN_NONE = 0,     /* not on the board */
  KEEL_TERRAIN_SEA,          /* all-sea */
  KEEL_TERRAIN_COASTAL,      /* land and sea */
  KEEL_TERRAIN_LAND,         /* all-land */
  KEEL_TERRAIN_RESTRICTED,   /* restricted waters */
  KEEL_TERRAIN_LAKE,
  KEEL_TERRAIN_COUNT
} keel_terrain;
/* "all-sea", "coastal", "all-land", "restricted", "lake" ("none" for 0). */
KEEL_API const char *keel_terrain_name(keel_terrain t);
KEEL_API keel_status keel_terrain_from_name(const char *name, keel_terrain *out);

/* A hexside's features, one 16-bit word: a water class (2 bits), a riverine
 * kind (3 bits), three flags, and a name (bits 8..15, 0: none). */
#define KEEL_SIDE_WATER_MASK     0x0003u
#define KEEL_SIDE_ALL_WATER      0x0001u
#define KEEL_SIDE_PARTIAL_WATER  0x0002u
#define KEEL_SIDE_ALL_LAND       0x0003u
#define KEEL_SIDE_RIVERINE_MASK  0x001cu
#define KEEL_SIDE_RIVER          0x0004u
#define KEEL_SIDE_MAJOR_RIVER    0x0008u
#define KEEL_SIDE_GREAT_RIVER    0x000cu
#define KEEL_SIDE_CANAL          0x0010u
#define KEEL_SIDE_LAKE           0x0014u
#define KEEL_SIDE_NARROW_STRAIT  0x0020u
#define KEEL_SIDE_ESTUARY        0x0040u
#define KEEL_SIDE_PROHIBITED     0x0080u
#define KEEL_SIDE_NAME_SHIFT     8
#define KEEL_SIDE_NAME_MAX       255

/* Coast (water body) ids per hex direction: 0 no water on that side, else
 * 1..KEEL_COAST_MAX. A water route entering a hex by a side of coast c may
 * leave only by sides of coast c (27.B.5). */
#define KEEL_COAST_MAX 15

typedef enum keel_port_size {
  KEEL_PORT_MINOR = 1, KEEL_PORT_STANDARD = 2, KEEL_PORT_MAJOR = 3, KEEL_PORT_GREAT = 4
} keel_port_size;
#define KEEL_PORT_INLAND 0x1u
typedef struct keel_port {
  keel_hex hex;
  int size;          /* keel_port_size */
  int capacity;      /* -1: not given */
  unsigned flags;    /* KEEL_PORT_INLAND */
} keel_port;

/* One step of a water route: across `side` (direction `dir` from the hex
 * left) into `to`, arriving on coast `coast` of `to`. */
typedef struct keel_water_step {
  keel_hex to;
  keel_side side;
  int dir;
  int coast;
} keel_water_step;

KEEL_API keel_status keel_board_new(const keel_numbering *n, keel_board **out);
KEEL_API void keel_board_free(keel_board *b);
/* Sections must have a size (cols, rows > 0); add them all before any data. */
KEEL_API keel_status keel_board_add_section(keel_board *b, const char *name, int64_t col,
                                            int64_t row, int64_t cols, int64_t rows);
KEEL_API const keel_grid *keel_board_get_grid(const keel_board *b);

/* -- building (before keel_board_finish; KEEL_E_STATE after) -- */
KEEL_API keel_status keel_board_set_default_terrain(keel_board *b, keel_terrain t);
/* A hex's terrain may be set once (KEEL_E_DUPLICATE). */
KEEL_API keel_status keel_board_set_terrain(keel_board *b, keel_hex h, keel_terrain t);
/* Side features: flags add up; a second, different water class, riverine
 * kind or name is KEEL_E_DUPLICATE. Both hexes must be on the board. */
KEEL_API keel_status keel_board_add_side(keel_board *b, keel_side s, unsigned features);
/* A name for side features (canal "Suez"): id 1..KEEL_SIDE_NAME_MAX. */
KEEL_API keel_status keel_board_side_name_id(keel_board *b, const char *name, int *id);
KEEL_API const char *keel_board_side_name(const keel_board *b, int id);
/* Explicit coasts of a hex, one id per direction 0..5 (0..KEEL_COAST_MAX). */
KEEL_API keel_status keel_board_set_coasts(keel_board *b, keel_hex h, const int coasts[6]);
KEEL_API keel_status keel_board_add_port(keel_board *b, const keel_port *p);
KEEL_API keel_status keel_board_add_place(keel_board *b, const char *name, keel_hex h);
KEEL_API keel_status keel_board_set_cd(keel_board *b, keel_hex h, int level);   /* 0..255 */
KEEL_API keel_status keel_board_set_seaboxes(keel_board *b, const keel_boxgrid *g);
/* Sea zones: index 0.. in the board's keel_areas. */
KEEL_API keel_status keel_board_add_zone(keel_board *b, const char *name, size_t *index);
KEEL_API keel_status keel_board_set_zone(keel_board *b, keel_hex h, size_t index);
/* Free-form tags: interned names, id 1..65535. */
KEEL_API keel_status keel_board_tag_id(keel_board *b, const char *name, int *id);
KEEL_API keel_status keel_board_add_tag(keel_board *b, keel_hex h, int id);
/* Moving across `crossing` passes through the narrow strait `strait` (32.A.5). */
KEEL_API keel_status keel_board_add_strait_passage(keel_board *b, keel_side crossing,
                                                   keel_side strait);
KEEL_API keel_status keel_board_finish(keel_board *b);
/* Bulk building for map loaders: one layer over many hexes in one call,
 * each hex exactly as the one-hex call for the layer sets it (same checks,
 * same statuses). */
typedef enum keel_board_layer {
  KEEL_LAYER_TERRAIN,   /* value: a keel_terrain (keel_board_set_terrain) */
  KEEL_LAYER_ZONE,      /* value: a zone index (keel_board_set_zone) */
  KEEL_LAYER_TAG,       /* value: a tag id (keel_board_add_tag) */
  KEEL_LAYER_COUNT
} keel_board_layer;
/* Every hex of the offset rectangle from corner a (lowest column and row) to
 * corner c (highest), row by row, each row from its lowest column. Stops at
 * the first hex refused: its status, the hex in *at (may be NULL); the hexes
 * before it keep their value. KEEL_E_ARG when c lies before a. */
KEEL_API keel_status keel_board_fill(keel_board *b, keel_board_layer layer, keel_hex a,
                                     keel_hex c, int value, keel_hex *at);
/* n hexes from `first` along its offset row, column by column: values[i]
 * for the i-th, a negative value leaves it. Stops like keel_board_fill with
 * the index in *at (may be NULL). */
KEEL_API keel_status keel_board_fill_row(keel_board *b, keel_board_layer layer, keel_hex first,
                                         const int *values, size_t n, size_t *at);
KEEL_API int keel_board_is_finished(const keel_board *b);

/* -- queries (after finish; KEEL_E_STATE before) -- */
KEEL_API int keel_board_contains(const keel_board *b, keel_hex h);
KEEL_API keel_status keel_board_get_terrain(const keel_board *b, keel_hex h, keel_terrain *out);
/* Features of a side between two on-board hexes, derived classes included. */
KEEL_API keel_status keel_board_get_features(const keel_board *b, keel_side s, unsigned *features);
KEEL_API keel_status keel_board_get_coast(const keel_board *b, keel_hex h, int dir, int *coast);
/* KEEL_E_NOT_FOUND when the hex has no port. */
KEEL_API keel_status keel_board_get_port(const keel_board *b, keel_hex h, keel_port *out);
KEEL_API size_t keel_board_count_ports(const keel_board *b);
KEEL_API keel_status keel_board_at_port(const keel_board *b, size_t i, keel_port *out);
KEEL_API keel_status keel_board_find_place(const keel_board *b, const char *name, keel_hex *out);
/* The first place (by name) at a hex. */
KEEL_API keel_status keel_board_place_name(const keel_board *b, keel_hex h, const char **name);
KEEL_API size_t keel_board_count_places(const keel_board *b);
KEEL_API keel_status keel_board_at_place(const keel_board *b, size_t i, const char **name,
                                         keel_hex *h);
KEEL_API keel_status keel_board_get_cd(const keel_board *b, keel_hex h, int *level);
/* The hexes with a coast defence (level above 0), in the order of
 * keel_board_at_cell: how many, and the i-th with its level. */
KEEL_API size_t keel_board_count_cds(const keel_board *b);
KEEL_API keel_status keel_board_at_cd(const keel_board *b, size_t i, keel_hex *hex, int *level);
/* KEEL_E_NOT_FOUND when the board has no sea boxes. */
KEEL_API keel_status keel_board_get_seaboxes(const keel_board *b, keel_boxgrid *out);
KEEL_API keel_status keel_board_box_of(const keel_board *b, keel_hex h, keel_box *out);
KEEL_API keel_status keel_board_get_zone(const keel_board *b, keel_hex h, size_t *index);
KEEL_API const keel_areas *keel_board_get_areas(const keel_board *b);
KEEL_API keel_status keel_board_find_tag(const keel_board *b, const char *name, int *id);
KEEL_API const char *keel_board_tag_name(const keel_board *b, int id);
KEEL_API int keel_board_has_tag(const keel_board *b, keel_hex h, int id);
/* Tags of a hex in ascending id order; hexes with a tag in index order. */
KEEL_API keel_status keel_board_tags(const keel_board *b, keel_hex h, int *out, size_t cap,
                                     size_t *n);
KEEL_API keel_status keel_board_tagged(const keel_board *b, int id, keel_hex *out, size_t cap,
                                       size_t *n);
/* Water-route neighbours (27.B.5): across all-water or partial-water, not
 * prohibited sides, from coast `coast` of h (0: any coast), in direction
 * order. At most 6. */
KEEL_API keel_status keel_board_water_neighbors(const keel_board *b, keel_hex h, int coast,
                                                keel_water_step out[6], size_t *n);
/* Riverine sides (river, major/great river, canal, lake) that share an end
 * with side s, in a defined order. At most 4. */
KEEL_API keel_status keel_board_riverine_neighbors(const keel_board *b, keel_side s,
                                                   keel_side out[4], size_t *n);
/* Every riverine side of the board (both hexes on it), in ascending side
 * order. out NULL: count only (*n); KEEL_E_CAPACITY past cap. */
KEEL_API keel_status keel_board_riverine_sides(const keel_board *b, keel_side *out, size_t cap,
                                               size_t *n);
KEEL_API keel_status keel_board_strait_passage(const keel_board *b, keel_side crossing,
                                               keel_side *strait);
/* The hexes of the offset rectangle from corner a (lowest column and row)
 * to corner c that are on the board, row by row (as keel_board_fill walks
 * it). out NULL: count only; KEEL_E_CAPACITY past cap; KEEL_E_ARG when c
 * lies before a. */
KEEL_API keel_status keel_board_rect_hexes(const keel_board *b, keel_hex a, keel_hex c,
                                           keel_hex *out, size_t cap, size_t *n);
/* Cells of the dense index: index order is row-major over the bounding
 * offset rectangle; KEEL_E_OFF_BOARD for a cell that is not on the board. */
KEEL_API size_t keel_board_count_cells(const keel_board *b);
KEEL_API keel_status keel_board_at_cell(const keel_board *b, size_t i, keel_hex *out);
KEEL_API size_t keel_board_count_hexes(const keel_board *b);
/* Bytes of board data (arrays, tables, strings), for the bytes/hex figure. */
KEEL_API size_t keel_board_memory(const keel_board *b);

/* -- movement: a cost map straight from the board (board.c, one pass) -- */

/* A movement profile: what one kind of group pays to enter each terrain
 * class and cross each kind of hexside (KEEL_COST_BLOCKED: may not).
 * Crossing a side costs water[class] + riverine[kind] + the cost of each
 * flag it carries; entering the next hex then costs enter[terrain]. */
typedef struct keel_profile {
  uint16_t enter[KEEL_TERRAIN_COUNT];   /* by keel_terrain ([0] unused) */
  uint16_t water[4];        /* by water class: [1] all-water, [2] partial, [3] all-land */
  uint16_t riverine[8];     /* by (features & KEEL_SIDE_RIVERINE_MASK) >> 2; [0] none */
  uint16_t narrow_strait, estuary, prohibited;   /* added when the flag is set */
  int water_route;          /* 1: water routes (27.B.5): dry sides blocked, coasts kept */
} keel_profile;

/* Which sides a condition covers: (features & mask) == value. */
typedef struct keel_side_match { unsigned mask, value; } keel_side_match;
#define KEEL_MATCH_MAX 8

/* Entry conditions that depend on the game, applied in C while the cost map
 * is built (the fast paths; a rule's own predicate is keel_reach_opts.allow):
 *   owners         the game state whose hex ownership the friendly
 *                  conditions read (NULL: nobody owns any hex). The cost
 *                  map is a snapshot of it: build again when
 *                  keel_state_get_owner_version changes;
 *   friendly       sides (atoms of `owners`) friendly to the moving group,
 *                  nfriendly of them; a 0 makes hexes nobody owns friendly;
 *   friendly_only  bit t: hexes of terrain t may be entered only if friendly;
 *   both_friendly  sides crossed only when both their hexes are friendly; a
 *                  crossing with a strait passage (32.A.5) is judged by the
 *                  strait's two hexes;
 *   closed         sides that may not be crossed at all.
 * The board holds no owners: a hex's owner is game state (keel_state_get_owner). */
#define KEEL_FRIENDLY_MAX 8
typedef struct keel_move_conditions {
  const struct keel_state *owners;
  int32_t friendly[KEEL_FRIENDLY_MAX];   /* keel_atom */
  size_t nfriendly;
  unsigned friendly_only;
  keel_side_match both_friendly[KEEL_MATCH_MAX];
  size_t nboth;
  keel_side_match closed[KEEL_MATCH_MAX];
  size_t nclosed;
} keel_move_conditions;

/* A cost map over the board's hexes (its axial bounding box) for a profile
 * under conditions (NULL: none). Coasts (27.B.5) come from the board: a hex
 * whose sides touch two or more water bodies is searched by coast. */
KEEL_API keel_status keel_board_costmap(const keel_board *b, const keel_profile *p,
                                        const keel_move_conditions *c, keel_costmap **out);
/* The hexes whose owners a cost map under c reads (friendly_only terrains,
 * the hexes of both_friendly sides), in cell order: *out malloc'd (free
 * it), *n of them; none when c reads no owners. Two cost maps of a profile
 * under c are the same when these hexes have the same owners. */
KEEL_API keel_status keel_board_owner_hexes(const keel_board *b, const keel_move_conditions *c,
                                            keel_hex **out, size_t *n);

/* ==== dice (kernel/dice.c) =============================================== */

/* Generators. splitmix64 (advance *x, return the next output) and
 * xoshiro256** (Blackman and Vigna); names hash with keel_hash_bytes. */
typedef struct keel_rng { uint64_t s[4]; } keel_rng;
KEEL_API uint64_t keel_splitmix64_next(uint64_t *x);
/* State = the first four splitmix64 outputs from `seed`. */
KEEL_API void keel_rng_seed(keel_rng *r, uint64_t seed);
KEEL_API uint64_t keel_rng_next(keel_rng *r);
/* Uniform in 0..n-1 (0 for n <= 1), unbiased: outputs below 2^64 mod n are
 * rejected and drawn again. */
KEEL_API uint64_t keel_rng_below(keel_rng *r, uint64_t n);
/* An all-zero state is the one state xoshiro256** cannot leave. */
KEEL_API int keel_rng_is_valid(const keel_rng *r);

/* A set of named streams (dice for one game). A stream is created on first
 * use; its generator is keel_rng_seed(seed ^ keel_hash_bytes(name)), so rolls
 * made on one stream never shift another. Each stream counts its rolls.
 * Forced faces (a FIFO queue shared by all streams) replace the faces of the
 * next dice rolled, without advancing any generator. */
typedef struct keel_dice keel_dice;   /* opaque */

#define KEEL_DICE_NAME_MAX 63      /* stream names: 1..63 of 0x21..0x7e */
#define KEEL_DICE_MAX_COUNT 100    /* dice per roll */
#define KEEL_DICE_MAX_SIDES 1000   /* faces per die */
#define KEEL_DICE_FORCED_MAX 256   /* queued forced faces */

KEEL_API keel_status keel_dice_new(uint64_t seed, keel_dice **out);
KEEL_API void keel_dice_free(keel_dice *d);
KEEL_API uint64_t keel_dice_get_seed(const keel_dice *d);
KEEL_API int keel_dice_name_is_valid(const char *name);
/* The fresh generator of stream `name` under `seed`. */
KEEL_API void keel_dice_stream_rng(uint64_t seed, const char *name, keel_rng *out);
/* Index of stream `name`, created if new (find: KEEL_E_NOT_FOUND if new).
 * Indices are in creation order and stay valid until keel_dice_load. */
KEEL_API keel_status keel_dice_stream(keel_dice *d, const char *name, size_t *index);
KEEL_API keel_status keel_dice_find(const keel_dice *d, const char *name, size_t *index);
KEEL_API size_t keel_dice_count_streams(const keel_dice *d);
/* A count that moves whenever what keel_dice_save writes changes (a roll, a
 * new stream, a load): equal versions, equal saved states. */
KEEL_API uint64_t keel_dice_get_version(const keel_dice *d);
KEEL_API const char *keel_dice_stream_name(const keel_dice *d, size_t i);
/* Exact state of one stream: generator words and roll count. */
KEEL_API keel_status keel_dice_get_state(const keel_dice *d, size_t i, keel_rng *rng, uint64_t *rolls);
KEEL_API keel_status keel_dice_set_state(keel_dice *d, size_t i, const keel_rng *rng, uint64_t rolls);

/* One roll of `count` dice of `sides` faces on a stream: faces[0..count-1],
 * *forced = 1 when any face came from the forced queue, *index = the
 * stream's roll number (1, 2, ...). A queued forced face larger than
 * `sides` gives KEEL_E_RANGE and changes nothing. */
KEEL_API keel_status keel_dice_roll(keel_dice *d, size_t stream, int count, int sides,
                                    int *faces, int *forced, uint64_t *index);
/* One uniform integer in 1..n as one roll (forced queue applies). */
KEEL_API keel_status keel_dice_range(keel_dice *d, size_t stream, uint64_t n,
                                     uint64_t *out, int *forced, uint64_t *index);
/* Queue forced faces (each >= 1); KEEL_E_CAPACITY past KEEL_DICE_FORCED_MAX. */
KEEL_API keel_status keel_dice_force(keel_dice *d, const int64_t *faces, size_t n);
KEEL_API size_t keel_dice_count_forced(const keel_dice *d);
KEEL_API void keel_dice_clear_forced(keel_dice *d);
/* Bulk Monte Carlo: roll count d sides `nrolls` times on a stream and count
 * each sum in counts[sum - count] (cap >= count * (sides - 1) + 1). Ignores
 * the forced queue; advances the stream and adds nrolls to its roll count. */
KEEL_API keel_status keel_dice_histogram(keel_dice *d, size_t stream, int count, int sides,
                                         uint64_t nrolls, uint64_t *counts, size_t cap);

/* Text form of the whole state (not the forced queue), one stream a line in
 * name order:
 *   keel-dice 1
 *   seed 000000000000002a
 *   stream NAME ROLLS S0 S1 S2 S3      (ROLLS decimal; S0..S3 16 hex digits)
 * Load replaces the seed and all streams, or on failure changes nothing and
 * sets *err_line (1-based) and *why (a static English phrase). */
KEEL_API size_t keel_max_dice_save_size(const keel_dice *d);
KEEL_API keel_status keel_dice_save(const keel_dice *d, char *buf, size_t cap, size_t *len);
KEEL_API keel_status keel_dice_load(keel_dice *d, const char *text, size_t len,
                                    size_t *err_line, const char **why);

/* ==== game state (kernel/state.c, journal.c, save.c) ====================== */

/* The state of one game: units (counters), groups, game-wide named values,
 * hex ownership. Every change goes through a primitive that records it (old
 * and new value, and the rule id that caused it) so that it can be journaled,
 * rolled back, undone, redone, hashed and saved. See doc/state.md. */
typedef struct keel_state keel_state;   /* opaque */

/* An interned string: 0 is "none"; ids are private to one keel_state and
 * depend on history, so nothing hashed or saved uses them (their text is). */
typedef int32_t keel_atom;

typedef enum keel_vkind {
  KEEL_V_NIL, KEEL_V_BOOL, KEEL_V_INT, KEEL_V_FLOAT, KEEL_V_STR
} keel_vkind;
/* A named value: printed values, group attributes, flags and counters. */
typedef struct keel_value {
  keel_vkind kind;
  union { int64_t i; double f; keel_atom s; } u;   /* BOOL uses i (0/1) */
} keel_value;

/* The side of a counter that is up. */
typedef enum keel_face { KEEL_FACE_FULL, KEEL_FACE_DAMAGED, KEEL_FACE_HALF, KEEL_FACE_COUNT } keel_face;

/* Where a unit is. `where` is a hex (HEX, PORT), a packed sea box (BOX), a
 * sea zone index (ZONE), a unit id (UNIT: carried as cargo), else 0. */
typedef enum keel_loc_kind {
  KEEL_LOC_OFF, KEEL_LOC_HEX, KEEL_LOC_PORT, KEEL_LOC_BOX, KEEL_LOC_ZONE,
  KEEL_LOC_UNIT, KEEL_LOC_DEAD, KEEL_LOC_COUNT
} keel_loc_kind;
typedef struct keel_loc { keel_loc_kind kind; int64_t where; } keel_loc;

/* Fixed unit fields (set with keel_state_set). */
typedef enum keel_field {
  KEEL_F_NAME, KEEL_F_TYPE, KEEL_F_SIDE, KEEL_F_FACE, KEEL_F_HITS, KEEL_F_POINTS,
  KEEL_F_LOC, KEEL_F_COUNT
} keel_field;

typedef struct keel_unit_info {
  int32_t id;
  keel_atom name, type, side;
  keel_face face;
  int64_t hits, points;
  keel_loc loc;
} keel_unit_info;

KEEL_API keel_status keel_state_new(keel_state **out);
KEEL_API void keel_state_free(keel_state *st);
/* Bytes held by the state (units, groups, strings, undo log, journal). */
KEEL_API size_t keel_state_memory(const keel_state *st);
/* Bytes held for units only (records, values, markers). */
KEEL_API size_t keel_state_unit_memory(const keel_state *st);

/* Strings. */
KEEL_API keel_status keel_state_intern(keel_state *st, const char *s, size_t len, keel_atom *out);
KEEL_API keel_atom keel_state_atom_find(const keel_state *st, const char *s, size_t len);
KEEL_API const char *keel_state_atom_str(const keel_state *st, keel_atom a, size_t *len);

/* The rule whose code is running: every change records it. A stack, so a
 * rule calling another names the inner one while it runs. */
KEEL_API keel_status keel_state_push_rule(keel_state *st, keel_atom rule);
KEEL_API void keel_state_pop_rule(keel_state *st);
KEEL_API keel_atom keel_state_get_rule(const keel_state *st);

/* Units: ids are 1, 2, 3 ... in creation order; iteration is in id order. */
KEEL_API keel_status keel_state_unit_new(keel_state *st, keel_atom name, keel_atom type,
                                         keel_atom side, int32_t *id);
KEEL_API int32_t keel_state_count_units(const keel_state *st);
KEEL_API keel_status keel_state_get_unit(const keel_state *st, int32_t id, keel_unit_info *out);
/* Set a fixed field: v is an atom for NAME/TYPE/SIDE, a number for
 * FACE/HITS/POINTS (hits and points >= 0); LOC goes through keel_state_move. */
KEEL_API keel_status keel_state_set(keel_state *st, int32_t id, keel_field f, int64_t v);
/* Move a unit; UNIT (cargo) refuses a loop (a unit inside itself). */
KEEL_API keel_status keel_state_move(keel_state *st, int32_t id, keel_loc loc);
/* Named values, kept sorted by name; a NIL value removes the name. */
KEEL_API keel_status keel_state_get_value(const keel_state *st, int32_t id, keel_atom key, keel_value *out);
KEEL_API keel_status keel_state_set_value(keel_state *st, int32_t id, keel_atom key, keel_value v);
KEEL_API size_t keel_state_count_values(const keel_state *st, int32_t id);
KEEL_API keel_status keel_state_at_value(const keel_state *st, int32_t id, size_t i,
                                              keel_atom *key, keel_value *v);
/* Named markers with counts, sorted by name; a count of 0 removes one. */
KEEL_API int64_t keel_state_get_marker(const keel_state *st, int32_t id, keel_atom key);
KEEL_API keel_status keel_state_set_marker(keel_state *st, int32_t id, keel_atom key, int64_t count);
KEEL_API size_t keel_state_count_markers(const keel_state *st, int32_t id);
KEEL_API keel_status keel_state_at_marker(const keel_state *st, int32_t id, size_t i,
                                               keel_atom *key, int64_t *count);

/* Damage primitives (rule modules build their damage models from these). */
KEEL_API keel_status keel_state_add_hits(keel_state *st, int32_t id, int64_t n);
KEEL_API keel_status keel_state_add_marker(keel_state *st, int32_t id, keel_atom key, int64_t n);
/* points -= n; KEEL_E_ARG if that would go below 0. */
KEEL_API keel_status keel_state_reduce_points(keel_state *st, int32_t id, int64_t n);
/* A new unit with the same name, type, side, face, values and place holding
 * `points` of the original's points. */
KEEL_API keel_status keel_state_split(keel_state *st, int32_t id, int64_t points, int32_t *new_id);
/* b's points go to a; b goes off map with 0 points. */
KEEL_API keel_status keel_state_combine(keel_state *st, int32_t a, int32_t b);
/* To the dead pile with its cargo (recursively, cargo first in id order);
 * leaves every group. */
KEEL_API keel_status keel_state_eliminate(keel_state *st, int32_t id);

/* The index (kernel/index.c): kept by every change, undo and redo; not
 * hashed, journaled or saved. A list returned as a pointer holds ids in
 * increasing order and is valid until the state next changes; none: NULL
 * with *n = 0. */
/* The units at exactly `loc` (a hex at sea and the same hex's port differ). */
KEEL_API const int32_t *keel_state_units_at(const keel_state *st, keel_loc loc, size_t *n);
/* The units at any location of `kind` (every unit at sea on the map: HEX). */
KEEL_API const int32_t *keel_state_units_at_kind(const keel_state *st, keel_loc_kind kind, size_t *n);
/* The units of `side` (an atom). */
KEEL_API const int32_t *keel_state_units_of_side(const keel_state *st, keel_atom side, size_t *n);
/* The groups `unit` is in. */
KEEL_API const int32_t *keel_state_groups_of(const keel_state *st, int32_t unit, size_t *n);
/* A query of units: by location (by_loc: of kind loc.kind; and by_where: at
 * loc.where too), side and type (0: any). */
typedef struct keel_unit_query {
  int by_loc, by_where;
  keel_loc loc;
  keel_atom side, type;
} keel_unit_query;
/* The units the query matches, in id order; *n how many (more than cap:
 * KEEL_E_CAPACITY, the first cap written). out NULL: only counts. */
KEEL_API keel_status keel_state_find_units(const keel_state *st, const keel_unit_query *q,
                                           int32_t *out, size_t cap, size_t *n);
/* The groups holding a unit the query matches, in id order. When out is NULL
 * or too small (KEEL_E_CAPACITY), *n is a count of room enough for them. */
KEEL_API keel_status keel_state_find_groups(const keel_state *st, const keel_unit_query *q,
                                            int32_t *out, size_t cap, size_t *n);

/* Cargo: the units whose location is inside `carrier`, in id order. */
KEEL_API keel_status keel_state_cargo(const keel_state *st, int32_t carrier,
                                      int32_t *out, size_t cap, size_t *n);
/* Capacity check over one or more carriers that carry together: capacity =
 * sum of the carriers' values "capacity.<measure>", used = sum of their
 * cargo's "size.<measure>". Excess: the shortest tail of that cargo (in id
 * order, carriers in the order given) whose removal brings used within
 * capacity. */
typedef struct keel_cargo_report { int64_t capacity, used, over; size_t excess_n; } keel_cargo_report;
KEEL_API keel_status keel_state_cargo_check(const keel_state *st, const int32_t *carriers, size_t ncarriers,
                                            const char *measure, keel_cargo_report *rep,
                                            int32_t *excess, size_t cap);

/* Groups: ordered sets of units with named attributes (mp, kind, known,
 * reserve, ...). Ids 1, 2, 3 ... */
KEEL_API keel_status keel_state_group_new(keel_state *st, keel_atom name, int32_t *id);
KEEL_API int32_t keel_state_count_groups(const keel_state *st);
KEEL_API keel_atom keel_state_group_get_name(const keel_state *st, int32_t gid);
/* Insert at 0-based position pos (-1: at the end); a unit is at most once in a group. */
KEEL_API keel_status keel_state_group_add(keel_state *st, int32_t gid, int32_t unit, int64_t pos);
KEEL_API keel_status keel_state_group_remove(keel_state *st, int32_t gid, int32_t unit);
KEEL_API size_t keel_state_group_count_units(const keel_state *st, int32_t gid);
KEEL_API int32_t keel_state_group_at_unit(const keel_state *st, int32_t gid, size_t i);
KEEL_API keel_status keel_state_group_get_value(const keel_state *st, int32_t gid, keel_atom key, keel_value *out);
KEEL_API keel_status keel_state_group_set_value(keel_state *st, int32_t gid, keel_atom key, keel_value v);
KEEL_API size_t keel_state_group_count_values(const keel_state *st, int32_t gid);
KEEL_API keel_status keel_state_group_at_value(const keel_state *st, int32_t gid, size_t i,
                                               keel_atom *key, keel_value *v);

/* Game-wide named values: turn, phase, segment, step, canal status, weather, VPs ... */
KEEL_API keel_value keel_state_get_global(const keel_state *st, keel_atom key);
KEEL_API keel_status keel_state_set_global(keel_state *st, keel_atom key, keel_value v);
KEEL_API size_t keel_state_count_globals(const keel_state *st);
KEEL_API keel_status keel_state_at_global(const keel_state *st, size_t i, keel_atom *key, keel_value *v);

/* Keyed values: structured rule data (zones of control per side and hex,
 * lists of hexes per unit, ...) rather than data packed into strings. A
 * keyed map is named by an atom ("zoc") and maps a key of 1..KEEL_KEY_MAX
 * parts, each an integer (KEEL_V_INT) or a string (KEEL_V_STR, an atom of at
 * most KEEL_KEY_STR_MAX bytes), to a value; a NIL value removes the key.
 * Journaled, rolled back, undone, hashed and saved like game-wide values.
 * Entries are in key order: part by part, integers before strings,
 * integers by value, strings by bytes (a prefix first), a shorter key
 * before a longer one it begins. get of a key never set gives NIL; at
 * counts from 0 and gives KEEL_E_RANGE past the end. */
#define KEEL_KEY_MAX 3
#define KEEL_KEY_STR_MAX 255
typedef struct keel_key { int n; keel_value part[KEEL_KEY_MAX]; } keel_key;
KEEL_API keel_status keel_state_get_keyed(const keel_state *st, keel_atom map, const keel_key *key,
                                          keel_value *out);
KEEL_API keel_status keel_state_set_keyed(keel_state *st, keel_atom map, const keel_key *key, keel_value v);
KEEL_API size_t keel_state_count_keyed(const keel_state *st, keel_atom map);
KEEL_API keel_status keel_state_at_keyed(const keel_state *st, keel_atom map, size_t i,
                                         keel_key *key, keel_value *v);

/* Hex ownership: hex -> side (0: nobody). */
KEEL_API keel_atom keel_state_get_owner(const keel_state *st, keel_hex h);
KEEL_API keel_status keel_state_set_owner(keel_state *st, keel_hex h, keel_atom side);
KEEL_API size_t keel_state_count_owned(const keel_state *st);
/* A number that changes whenever any hex's owner changes, by a set, a
 * rollback, an undo or a redo: what was computed from the owners at one
 * version still holds while the version is the same. Never goes back. */
KEEL_API uint64_t keel_state_get_owner_version(const keel_state *st);

/* Owners shared by many games: hex -> side name, built once (the owners a
 * board's map declares) and read by every game started on it, which then
 * holds only the owners that differ from it. keel_owner_base_new takes n
 * hexes and for each the index (0..nnames-1) of its side in names; a hex
 * given again takes its later side. At most 255 names. Reference counted:
 * a state holds a reference while it uses one; release drops the
 * caller's. */
typedef struct keel_owner_base keel_owner_base;
KEEL_API keel_status keel_owner_base_new(const keel_hex *hexes, const uint8_t *sides, size_t n,
                                         const char *const *names, size_t nnames, keel_owner_base **out);
KEEL_API void keel_owner_base_release(keel_owner_base *base);
KEEL_API size_t keel_owner_base_count(const keel_owner_base *base);
/* A state with no owners yet (none ever set, no base, no action, no open
 * transaction: else KEEL_E_STATE) starts from base's owners: the same
 * owners, count and hash as setting each one, in O(number of sides). Like
 * a change outside any action, it is not journaled and cannot be undone. */
KEEL_API keel_status keel_state_set_owner_base(keel_state *st, keel_owner_base *base);
/* A number that changes whenever anything in the state changes (a unit,
 * group, value, marker, global, owner or keyed value), by a change, a
 * rollback, an undo or a redo. What was worked out from the state at one
 * version still holds while the version is the same. Never goes back. */
KEEL_API uint64_t keel_state_get_version(const keel_state *st);

/* The 64-bit state hash, kept up to date by every change (Zobrist style:
 * equal states have equal hashes whatever their history). _full recomputes
 * it from scratch (tests compare the two). */
KEEL_API uint64_t keel_state_hash(const keel_state *st);
KEEL_API uint64_t keel_state_hash_full(const keel_state *st);
/* FNV-1a 64 of bytes (rule files, checksums). */
KEEL_API uint64_t keel_hash_bytes(const void *p, size_t n);

/* Transactions: all or nothing. begin returns a mark; rollback puts the
 * state (and the journal, the actions and what can be redone) back exactly
 * as at the mark. Nest freely. */
typedef struct keel_mark {
  size_t ops, journal, journal_text, actions, rules, redo, redo_ops; int64_t action_seq; int depth, in_action, loose;
} keel_mark;
KEEL_API keel_status keel_state_begin(keel_state *st, keel_mark *mark);
KEEL_API keel_status keel_state_commit(keel_state *st, const keel_mark *mark);
KEEL_API keel_status keel_state_rollback(keel_state *st, const keel_mark *mark);

/* Actions: the unit of undo. order_json (may be NULL) is journaled as is. */
KEEL_API keel_status keel_state_action_begin(keel_state *st, const char *name, const char *order_json);
/* The same, for an order a side gave: the journal's action line names the
 * side (an atom; 0: none, as keel_state_action_begin). */
KEEL_API keel_status keel_state_action_begin_by(keel_state *st, const char *name, const char *order_json,
                                                keel_atom side);
/* Freeze the state (frozen nonzero; it nests) or thaw it once: while it is
 * frozen every change and every new action is refused with KEEL_E_FROZEN,
 * so that what only looks at a game (listing its legal actions) provably
 * changes nothing. Thawing a state that is not frozen is KEEL_E_STATE. */
KEEL_API keel_status keel_state_set_frozen(keel_state *st, int frozen);
KEEL_API int keel_state_is_frozen(const keel_state *st);
KEEL_API keel_status keel_state_action_end(keel_state *st);
KEEL_API size_t keel_state_count_actions(const keel_state *st);   /* undoable */
KEEL_API size_t keel_state_count_redos(const keel_state *st);
KEEL_API int64_t keel_state_action_number(const keel_state *st);  /* last begun, 1-based */
/* Set the number of the last action begun, for a state loaded from a save
 * (its history is not saved, its numbering is: numbers are never reused).
 * Only on a state with no actions, no redo and no open transaction, and n >= 0. */
KEEL_API keel_status keel_state_set_action_number(keel_state *st, int64_t n);
KEEL_API keel_status keel_state_undo(keel_state *st, size_t n);
/* The undo depth: at most n actions stay undoable (KEEL_UNDO_DEPTH by
 * default); older ones are dropped, with their undo records, whenever no
 * transaction is open, so a long game holds a bounded undo log. n = 0: no
 * action can be undone. Setting it drops at once what is past it (only
 * with no transaction open: KEEL_E_STATE). doc/state.md. */
#define KEEL_UNDO_DEPTH 1000
KEEL_API keel_status keel_state_set_undo_depth(keel_state *st, size_t n);
KEEL_API size_t keel_state_get_undo_depth(const keel_state *st);
KEEL_API keel_status keel_state_redo(keel_state *st, size_t n);

/* The journal: JSON lines, one event each (doc/journal.md), rendered from
 * the state's events when asked for; *text (NUL-terminated) stays valid
 * until the state next changes. The whole text: a streamed journal that
 * dropped lines it wrote gives KEEL_E_RANGE (read it from its file). */
KEEL_API void keel_state_journal_enable(keel_state *st, int on);
KEEL_API keel_status keel_state_journal(keel_state *st, const char **text, size_t *len);
/* Append one line (a complete JSON object without the newline). */
KEEL_API keel_status keel_state_journal_append(keel_state *st, const char *line, size_t len);
/* One roll of the dice (doc/journal.md, `roll`): the line is written from
 * these fields. rule NULL: the rule in force (keel_state_get_rule); reason
 * NULL: null. Strings are bytes of the given lengths. */
typedef struct keel_roll_line {
  const char *rule; size_t rule_len;
  const char *reason; size_t reason_len;
  const char *stream; size_t stream_len;
  const char *expr; size_t expr_len;
  const int64_t *faces; int count;
  int64_t modifier, total;
  int forced;
  uint64_t n;
} keel_roll_line;
KEEL_API keel_status keel_state_journal_roll(keel_state *st, const keel_roll_line *r);
KEEL_API keel_status keel_state_journal_clear(keel_state *st);
/* The journal as lines numbered from 0 for the whole game, read without
 * copying it: the number of lines and bytes so far, and the text of the
 * lines from `line` on (*text valid until the state next changes). A
 * streamed journal no longer holds the lines it wrote and dropped: asking
 * for one is KEEL_E_RANGE, as is a line past the end. */
KEEL_API keel_status keel_state_journal_count(keel_state *st, size_t *lines, size_t *bytes);
KEEL_API keel_status keel_state_journal_since(keel_state *st, size_t line, const char **text, size_t *len);
/* Stream the journal: sink(ud, text, len) receives its lines in order,
 * each exactly once (from the first not yet written), and the state drops
 * what it wrote. sink NULL: stop streaming. keel_state_journal_flush
 * writes only with no transaction open (what is inside one may still be
 * taken back; there it writes nothing), and unless `all` only once the
 * journal held reaches KEEL_JOURNAL_FLUSH_BYTES; a sink that fails gives
 * KEEL_E_IO and the lines stay held. Lines from keel_state_journal_keep's
 * line on stay held once written (a reader that has not read them yet;
 * SIZE_MAX: none, the default). doc/journal.md. */
typedef keel_status (*keel_journal_sink)(void *ud, const char *text, size_t len);
#define KEEL_JOURNAL_FLUSH_BYTES ((size_t)1 << 20)
KEEL_API void keel_state_journal_stream(keel_state *st, keel_journal_sink sink, void *ud);
KEEL_API keel_status keel_state_journal_flush(keel_state *st, int all);
KEEL_API void keel_state_journal_keep(keel_state *st, size_t line);

/* Save and load (kernel/save.c, doc/save.md). meta: n pairs of key and
 * value strings written in order into the save's header. */
KEEL_API keel_status keel_state_save_text(const keel_state *st, const char *const *meta_keys,
                                          const char *const *meta_vals, size_t nmeta,
                                          char **out, size_t *len);
/* Parse a save; on failure *err (malloc'd, caller frees) says why and
 * where ("line 12: ..."). The meta pairs come back malloc'd in *meta
 * (2*nmeta strings, key then value; free with keel_save_meta_free). */
KEEL_API keel_status keel_state_load_text(const char *text, size_t len, keel_state **out,
                                          char ***meta, size_t *nmeta, char **err);
KEEL_API void keel_save_meta_free(char **meta, size_t nmeta);
/* The same through a file: save writes it atomically (keel_file_write_atomic);
 * load refuses a file over KEEL_SAVE_MAX bytes before reading it, and on any
 * failure sets *err (malloc'd, without the path) as load_text does. */
#define KEEL_SAVE_MAX ((size_t)1 << 30)
#define KEEL_SAVE_VERSION 2        /* written; versions 1 .. KEEL_SAVE_VERSION are read */
KEEL_API keel_status keel_state_save(const keel_state *st, const char *path, const char *const *meta_keys,
                                     const char *const *meta_vals, size_t nmeta);
KEEL_API keel_status keel_state_load(const char *path, keel_state **out, char ***meta, size_t *nmeta,
                                     char **err);

/* ==== files (kernel/file.c) ============================================= */

/* Write a file atomically: temp file in the same directory, fsync, rename
 * over path, fsync the directory. The old file survives any crash.
 * On KEEL_E_IO or KEEL_E_NOT_FOUND (write or read), errno holds why.
 * Only a regular file is replaced: a character device or a FIFO is written
 * into (a FIFO without a reader fails at once), a symlink's target is
 * written (the link stays), anything else is KEEL_E_NOT_REGULAR (a
 * directory: KEEL_E_IO, EISDIR). */
KEEL_API keel_status keel_file_write_atomic(const char *path, const char *data, size_t len);
/* Read a whole regular file of at most max bytes (KEEL_E_CAPACITY if
 * larger); anything else (a FIFO, a device) is KEEL_E_NOT_REGULAR at once,
 * a directory KEEL_E_IO with EISDIR. */
KEEL_API keel_status keel_file_read(const char *path, size_t max, char **out, size_t *len);
/* Why a file call failed, in words: errno's (err, read right after the
 * call) for KEEL_E_IO and KEEL_E_NOT_FOUND, else the status's. */
KEEL_API const char *keel_file_reason(keel_status s, int err);


/* ==== sandbox: memory and CPU limits for scripts (kernel/sandbox.c) ====== */

/* A memory account for keel_sandbox_alloc: bytes in use, the limit (0: no
 * limit), the highest use seen and how many requests were refused. */
typedef struct keel_memlimit {
  size_t used, limit, peak;
  size_t refusals;
} keel_memlimit;

/* An allocator with the shape of lua_Alloc: ud is a keel_memlimit. A request
 * that would take `used` over `limit` returns NULL (Lua then raises "not
 * enough memory"); shrinking and freeing always succeed. */
KEEL_API void *keel_sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* The CPU limit of an action. keel_watchdog_start costs a clock read and a
 * few stores while the action stays within its limit; when the limit passes,
 * a POSIX timer signal (SIGRTMIN + KEEL_WATCHDOG_SIGNAL_OFFSET, sent to the
 * thread that started it) calls fire(ud) from the signal handler, so `fire`
 * must be async-signal-safe (lua_sethook is). Start, stop and free a
 * watchdog on the thread that runs the action. */
#define KEEL_WATCHDOG_SIGNAL_OFFSET 6
typedef struct keel_watchdog keel_watchdog;   /* opaque */
typedef void (*keel_watchdog_fn)(void *ud);
KEEL_API keel_status keel_watchdog_new(keel_watchdog_fn fire, void *ud, keel_watchdog **out);
KEEL_API void keel_watchdog_free(keel_watchdog *w);
/* Watch an action that may run for limit_ns nanoseconds of wall time. */
KEEL_API keel_status keel_watchdog_start(keel_watchdog *w, uint64_t limit_ns);
KEEL_API void keel_watchdog_stop(keel_watchdog *w);
/* 1 when the action started last went over its limit. */
KEEL_API int keel_watchdog_fired(const keel_watchdog *w);
KEEL_API int keel_watchdog_active(const keel_watchdog *w);

#ifdef __cplusplus
}
#endif
#endif /* KEEL_H */
