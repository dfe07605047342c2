/*
 * hex.c — hex geometry on axial/cube coordinates, after Red Blob Games'
 * "Hexagonal Grids": directions, distance, rotation, rounding, lines, rings,
 * spirals, hexsides, offset/doubled coordinates, pixel layout, sea boxes.
 *
 * A hex is (q, r) packed in an int64: q in the high 32 bits, r in the low
 * 32 bits (two's complement). A hexside is its first hex shifted left by two
 * with the direction (0..2) in the low bits. Both are plain integers.
 */
#include "keel.h"
#include <math.h>

#define MAXC KEEL_HEX_COORD_MAX

static const int dir_qr[6][2] = {
  {1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}
};
static const int diag_qr[6][2] = {
  {2, -1}, {1, -2}, {-1, -1}, {-2, 1}, {-1, 2}, {1, 1}
};

static keel_hex pack(int64_t q, int64_t r) {
  return (keel_hex)(((uint64_t)q << 32) | ((uint64_t)r & 0xffffffffu));
}

int64_t keel_hex_q(keel_hex h) { return (int64_t)(int32_t)((uint64_t)h >> 32); }
int64_t keel_hex_r(keel_hex h) { return (int64_t)(int32_t)((uint64_t)h & 0xffffffffu); }
int64_t keel_hex_s(keel_hex h) { return -keel_hex_q(h) - keel_hex_r(h); }

int keel_hex_is_valid_qr(int64_t q, int64_t r) {
  return q >= -MAXC && q <= MAXC && r >= -MAXC && r <= MAXC &&
         q + r >= -MAXC && q + r <= MAXC;
}

int keel_hex_is_valid(keel_hex h) {
  return pack(keel_hex_q(h), keel_hex_r(h)) == h &&
         keel_hex_is_valid_qr(keel_hex_q(h), keel_hex_r(h));
}

keel_status keel_hex_from_qr(int64_t q, int64_t r, keel_hex *out) {
  if (!keel_hex_is_valid_qr(q, r)) return KEEL_E_RANGE;
  *out = pack(q, r);
  return KEEL_OK;
}

keel_status keel_hex_from_qrs(int64_t q, int64_t r, int64_t s, keel_hex *out) {
  /* range first: q + r + s of arbitrary integers could overflow */
  if (!keel_hex_is_valid_qr(q, r)) return KEEL_E_RANGE;
  if (s != -q - r) return KEEL_E_ARG;
  return keel_hex_from_qr(q, r, out);
}

keel_status keel_hex_add(keel_hex a, keel_hex b, keel_hex *out) {
  return keel_hex_from_qr(keel_hex_q(a) + keel_hex_q(b), keel_hex_r(a) + keel_hex_r(b), out);
}

keel_status keel_hex_subtract(keel_hex a, keel_hex b, keel_hex *out) {
  return keel_hex_from_qr(keel_hex_q(a) - keel_hex_q(b), keel_hex_r(a) - keel_hex_r(b), out);
}

keel_status keel_hex_scale(keel_hex a, int64_t k, keel_hex *out) {
  if (k > MAXC * 2 || k < -MAXC * 2) return KEEL_E_RANGE;
  return keel_hex_from_qr(keel_hex_q(a) * k, keel_hex_r(a) * k, out);
}

void keel_hex_direction_qr(int dir, int *dq, int *dr) {
  dir = ((dir % 6) + 6) % 6;
  *dq = dir_qr[dir][0];
  *dr = dir_qr[dir][1];
}

void keel_hex_diagonal_qr(int dir, int *dq, int *dr) {
  dir = ((dir % 6) + 6) % 6;
  *dq = diag_qr[dir][0];
  *dr = diag_qr[dir][1];
}

keel_status keel_hex_neighbor(keel_hex h, int dir, keel_hex *out) {
  if (dir < 0 || dir > 5) return KEEL_E_ARG;
  return keel_hex_from_qr(keel_hex_q(h) + dir_qr[dir][0], keel_hex_r(h) + dir_qr[dir][1], out);
}

keel_status keel_hex_diagonal_neighbor(keel_hex h, int dir, keel_hex *out) {
  if (dir < 0 || dir > 5) return KEEL_E_ARG;
  return keel_hex_from_qr(keel_hex_q(h) + diag_qr[dir][0], keel_hex_r(h) + diag_qr[dir][1], out);
}

int keel_hex_direction_to(keel_hex a, keel_hex b) {
  int64_t dq = keel_hex_q(b) - keel_hex_q(a), dr = keel_hex_r(b) - keel_hex_r(a);
  for (int d = 0; d < 6; d++)
    if (dq == dir_qr[d][0] && dr == dir_qr[d][1]) return d;
  return -1;
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

int64_t keel_hex_distance(keel_hex a, keel_hex b) {
  int64_t dq = keel_hex_q(a) - keel_hex_q(b), dr = keel_hex_r(a) - keel_hex_r(b);
  int64_t ds = -dq - dr;
  int64_t m = abs64(dq);
  if (abs64(dr) > m) m = abs64(dr);
  if (abs64(ds) > m) m = abs64(ds);
  return m;
}

keel_status keel_hex_rotate(keel_hex h, keel_hex center, int steps, keel_hex *out) {
  int64_t q = keel_hex_q(h) - keel_hex_q(center);
  int64_t r = keel_hex_r(h) - keel_hex_r(center);
  int64_t s = -q - r;
  int n = ((steps % 6) + 6) % 6;
  for (int i = 0; i < n; i++) {   /* left (counter-clockwise): (q,r,s) -> (-s,-q,-r) */
    int64_t nq = -s, nr = -q, ns = -r;
    q = nq; r = nr; s = ns;
  }
  return keel_hex_from_qr(q + keel_hex_q(center), r + keel_hex_r(center), out);
}

keel_status keel_hex_round(double fq, double fr, double fs, keel_hex *out) {
  if (!isfinite(fq) || !isfinite(fr) || !isfinite(fs)) return KEEL_E_ARG;
  if (fabs(fq) > MAXC || fabs(fr) > MAXC || fabs(fs) > MAXC) return KEEL_E_RANGE;
  double q = round(fq), r = round(fr), s = round(fs);
  double dq = fabs(q - fq), dr = fabs(r - fr), ds = fabs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  else s = -q - r;
  (void)s;
  return keel_hex_from_qr((int64_t)q, (int64_t)r, out);
}

size_t keel_max_line_size(keel_hex a, keel_hex b) {
  return (size_t)keel_hex_distance(a, b) + 1;
}

keel_status keel_hex_line(keel_hex a, keel_hex b, keel_hex *out, size_t cap, size_t *n) {
  int64_t dist = keel_hex_distance(a, b);
  size_t need = (size_t)dist + 1;
  *n = need;
  if (cap < need) return KEEL_E_CAPACITY;
  double aq = (double)keel_hex_q(a) + 1e-06, ar = (double)keel_hex_r(a) + 1e-06;
  double as = (double)keel_hex_s(a) - 2e-06;
  double bq = (double)keel_hex_q(b) + 1e-06, br = (double)keel_hex_r(b) + 1e-06;
  double bs = (double)keel_hex_s(b) - 2e-06;
  double step = dist > 0 ? 1.0 / (double)dist : 0.0;
  for (int64_t i = 0; i <= dist; i++) {
    double t = step * (double)i;
    keel_status st = keel_hex_round(aq * (1 - t) + bq * t, ar * (1 - t) + br * t,
                                    as * (1 - t) + bs * t, &out[i]);
    if (st != KEEL_OK) return st;
  }
  return KEEL_OK;
}

size_t keel_max_ring_size(int64_t radius) {
  return radius <= 0 ? 1 : (size_t)(6 * radius);
}

size_t keel_max_disk_size(int64_t radius) {
  return radius < 0 ? 0 : (size_t)(3 * radius * (radius + 1) + 1);
}

/* Radius limits keep every hex of a ring inside the coordinate range. */
static keel_status ring_into(keel_hex center, int64_t radius, keel_hex *out) {
  int64_t q = keel_hex_q(center) + dir_qr[4][0] * radius;
  int64_t r = keel_hex_r(center) + dir_qr[4][1] * radius;
  size_t k = 0;
  for (int d = 0; d < 6; d++)
    for (int64_t i = 0; i < radius; i++) {
      if (!keel_hex_is_valid_qr(q, r)) return KEEL_E_RANGE;
      out[k++] = pack(q, r);
      q += dir_qr[d][0];
      r += dir_qr[d][1];
    }
  return KEEL_OK;
}

keel_status keel_hex_ring(keel_hex center, int64_t radius, keel_hex *out, size_t cap, size_t *n) {
  if (radius < 0 || radius > MAXC) return KEEL_E_ARG;
  *n = keel_max_ring_size(radius);
  if (cap < *n) return KEEL_E_CAPACITY;
  if (radius == 0) { out[0] = center; return KEEL_OK; }
  return ring_into(center, radius, out);
}

keel_status keel_hex_spiral(keel_hex center, int64_t radius, keel_hex *out, size_t cap, size_t *n) {
  if (radius < 0 || radius > MAXC) return KEEL_E_ARG;
  *n = keel_max_disk_size(radius);
  if (cap < *n) return KEEL_E_CAPACITY;
  out[0] = center;
  size_t k = 1;
  for (int64_t ring = 1; ring <= radius; ring++) {
    keel_status st = ring_into(center, ring, out + k);
    if (st != KEEL_OK) return st;
    k += (size_t)(6 * ring);
  }
  return KEEL_OK;
}

/* ---- hexsides ------------------------------------------------------------ */

keel_status keel_side_of(keel_hex h, int dir, keel_side *out) {
  if (dir < 0 || dir > 5) return KEEL_E_ARG;
  if (!keel_hex_is_valid(h)) return KEEL_E_RANGE;
  keel_hex owner = h;
  if (dir >= 3) {
    keel_status st = keel_hex_neighbor(h, dir, &owner);
    if (st != KEEL_OK) return st;
    dir -= 3;
  }
  *out = (keel_side)(((uint64_t)owner << 2) | (uint64_t)dir);
  return KEEL_OK;
}

keel_status keel_side_between(keel_hex a, keel_hex b, keel_side *out) {
  int d = keel_hex_direction_to(a, b);
  if (d < 0) return KEEL_E_NOT_ADJACENT;
  return keel_side_of(a, d, out);
}

static keel_hex side_owner(keel_side s) {
  /* arithmetic shift right by 2, written without relying on >> of negatives */
  uint64_t u = (uint64_t)s >> 2;
  if (s < 0) u |= (uint64_t)3 << 62;
  return (keel_hex)u;
}

int keel_side_direction(keel_side s) { return (int)((uint64_t)s & 3u); }

int keel_side_is_valid(keel_side s) {
  keel_hex a = side_owner(s), b;
  int d = keel_side_direction(s);
  return d <= 2 && keel_hex_is_valid(a) && keel_hex_neighbor(a, d, &b) == KEEL_OK;
}

void keel_side_hexes(keel_side s, keel_hex *a, keel_hex *b) {
  keel_hex h = side_owner(s);
  int d = keel_side_direction(s);
  *a = h;
  *b = pack(keel_hex_q(h) + dir_qr[d][0], keel_hex_r(h) + dir_qr[d][1]);
}

/* ---- offset and doubled coordinates -------------------------------------- */

/* Red Blob: offset = +1 for EVEN, -1 for ODD; (x & 1) works for negatives. */
void keel_hex_to_offset(keel_hex h, keel_offset conv, int64_t *col, int64_t *row) {
  int64_t q = keel_hex_q(h), r = keel_hex_r(h);
  switch (conv) {
  case KEEL_ODD_Q:  *col = q; *row = r + (q - (q & 1)) / 2; break;
  case KEEL_EVEN_Q: *col = q; *row = r + (q + (q & 1)) / 2; break;
  case KEEL_ODD_R:  *col = q + (r - (r & 1)) / 2; *row = r; break;
  default:          *col = q + (r + (r & 1)) / 2; *row = r; break;
  }
}

keel_status keel_hex_from_offset(keel_offset conv, int64_t col, int64_t row, keel_hex *out) {
  if (col < -MAXC || col > MAXC || row < -MAXC || row > MAXC) return KEEL_E_RANGE;
  int64_t q, r;
  switch (conv) {
  case KEEL_ODD_Q:  q = col; r = row - (col - (col & 1)) / 2; break;
  case KEEL_EVEN_Q: q = col; r = row - (col + (col & 1)) / 2; break;
  case KEEL_ODD_R:  q = col - (row - (row & 1)) / 2; r = row; break;
  case KEEL_EVEN_R: q = col - (row + (row & 1)) / 2; r = row; break;
  default: return KEEL_E_ARG;
  }
  return keel_hex_from_qr(q, r, out);
}

void keel_hex_to_doubled(keel_hex h, keel_doubled conv, int64_t *col, int64_t *row) {
  int64_t q = keel_hex_q(h), r = keel_hex_r(h);
  if (conv == KEEL_DOUBLED_Q) { *col = q; *row = 2 * r + q; }
  else { *col = 2 * q + r; *row = r; }
}

keel_status keel_hex_from_doubled(keel_doubled conv, int64_t col, int64_t row, keel_hex *out) {
  if (col < -3 * MAXC || col > 3 * MAXC || row < -3 * MAXC || row > 3 * MAXC) return KEEL_E_RANGE;
  if (((col + row) & 1) != 0) return KEEL_E_ARG;   /* doubled coords have even sum */
  if (conv == KEEL_DOUBLED_Q) return keel_hex_from_qr(col, (row - col) / 2, out);
  if (conv == KEEL_DOUBLED_R) return keel_hex_from_qr((col - row) / 2, row, out);
  return KEEL_E_ARG;
}

/* ---- pixel layout ------------------------------------------------------------ */

#define SQRT3 1.7320508075688772

void keel_hex_to_pixel(const keel_layout *l, keel_hex h, double *x, double *y) {
  double q = (double)keel_hex_q(h), r = (double)keel_hex_r(h);
  if (l->pointy) {
    *x = (SQRT3 * q + SQRT3 / 2.0 * r) * l->size_x + l->origin_x;
    *y = (1.5 * r) * l->size_y + l->origin_y;
  } else {
    *x = (1.5 * q) * l->size_x + l->origin_x;
    *y = (SQRT3 / 2.0 * q + SQRT3 * r) * l->size_y + l->origin_y;
  }
}

void keel_pixel_to_frac(const keel_layout *l, double x, double y,
                        double *q, double *r, double *s) {
  double px = (x - l->origin_x) / l->size_x, py = (y - l->origin_y) / l->size_y;
  if (l->pointy) {
    *q = SQRT3 / 3.0 * px - 1.0 / 3.0 * py;
    *r = 2.0 / 3.0 * py;
  } else {
    *q = 2.0 / 3.0 * px;
    *r = -1.0 / 3.0 * px + SQRT3 / 3.0 * py;
  }
  *s = -*q - *r;
}

void keel_hex_corner(const keel_layout *l, keel_hex h, int corner, double *x, double *y) {
  double cx, cy;
  keel_hex_to_pixel(l, h, &cx, &cy);
  double start = l->pointy ? 0.5 : 0.0;
  double angle = 2.0 * 3.14159265358979323846 * (start + corner) / 6.0;
  *x = cx + l->size_x * cos(angle);
  *y = cy + l->size_y * sin(angle);
}

/* ---- sea boxes --------------------------------------------------------------- */
/*
 * Hexes of radius R tile the plane with box centres on the lattice spanned
 * by A = (2R+1, -R) and B = (R, R+1) (determinant 3R^2+3R+1, the box size).
 * A box is its lattice coordinates (i, j) packed like a hex; the six
 * neighbouring boxes are +-A, +-B, +-(A-B), i.e. the axial neighbours of
 * (i, j), so box distance is hex distance on the packed box.
 */

static keel_status box_center_qr(const keel_boxgrid *g, int64_t i, int64_t j,
                                 int64_t *q, int64_t *r) {
  int64_t R = g->radius;
  *q = keel_hex_q(g->origin) + i * (2 * R + 1) + j * R;
  *r = keel_hex_r(g->origin) - i * R + j * (R + 1);
  return keel_hex_is_valid_qr(*q, *r) ? KEEL_OK : KEEL_E_RANGE;
}

static int grid_ok(const keel_boxgrid *g) {
  return g->radius >= 0 && g->radius <= 1024 && keel_hex_is_valid(g->origin);
}

keel_status keel_box_of(const keel_boxgrid *g, keel_hex h, keel_box *out) {
  if (!grid_ok(g) || !keel_hex_is_valid(h)) return KEEL_E_ARG;
  int64_t R = g->radius, N = 3 * R * R + 3 * R + 1;
  int64_t q = keel_hex_q(h) - keel_hex_q(g->origin);
  int64_t r = keel_hex_r(h) - keel_hex_r(g->origin);
  /* fractional lattice coordinates, then search the cell around them */
  double fi = (double)((R + 1) * q - R * r) / (double)N;
  double fj = (double)(R * q + (2 * R + 1) * r) / (double)N;
  int64_t i0 = (int64_t)floor(fi), j0 = (int64_t)floor(fj);
  for (int64_t i = i0 - 1; i <= i0 + 2; i++)
    for (int64_t j = j0 - 1; j <= j0 + 2; j++) {
      int64_t cq = i * (2 * R + 1) + j * R, cr = -i * R + j * (R + 1);
      int64_t dq = q - cq, dr = r - cr, ds = -dq - dr;
      if (abs64(dq) <= R && abs64(dr) <= R && abs64(ds) <= R)
        return keel_hex_from_qr(i, j, out);
    }
  return KEEL_E_RANGE;   /* unreachable for a valid tiling */
}

keel_status keel_box_center(const keel_boxgrid *g, keel_box b, keel_hex *out) {
  if (!grid_ok(g) || !keel_hex_is_valid(b)) return KEEL_E_ARG;
  int64_t q, r;
  keel_status st = box_center_qr(g, keel_hex_q(b), keel_hex_r(b), &q, &r);
  if (st != KEEL_OK) return st;
  return keel_hex_from_qr(q, r, out);
}

keel_status keel_box_hexes(const keel_boxgrid *g, keel_box b, keel_hex *out, size_t cap, size_t *n) {
  keel_hex c;
  keel_status st = keel_box_center(g, b, &c);
  if (st != KEEL_OK) return st;
  return keel_hex_spiral(c, g->radius, out, cap, n);
}

int64_t keel_box_distance(keel_box a, keel_box b) { return keel_hex_distance(a, b); }
