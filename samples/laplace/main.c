/* main.c — driver of the laplace sample: set up a 3-D grid, run Jacobi
 * sweeps through laplace3d (laplace.c, the routine that is offloaded), and
 * dump both arrays so that the original build and the translated build can be
 * compared element by element (tests/s2s_compare).
 *
 *   usage: laplace OUT.dat [NX NY NZ [SWEEPS]]     default 97 75 61, 20 sweeps
 *
 * The default sizes are neither powers of two nor multiples of a block size:
 * a kernel that mishandles the last partial block shows up at once.  The
 * arrays are C99 variable-length arrays on the heap, the way numerical C code
 * keeps a 3-D field: u[k][j][i] with i contiguous.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "laplace.h"
#include "s2s_dump.h"

/* A deterministic "noise" in [-0.5, 0.5) from the grid index (no rand(): the
 * two builds must start from identical fields).  It makes every point
 * different, so a kernel that reads a wrong neighbour cannot go unnoticed. */
static double hash_noise(int i, int j, int k)
{
  uint32_t h = (uint32_t)i * 73856093u ^ (uint32_t)j * 19349663u ^ (uint32_t)k * 83492791u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return (double)h / 4294967296.0 - 0.5;
}

static int parse_size(const char *s, int min)
{
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || v < min || v > 100000) {
    fprintf(stderr, "laplace: bad size '%s' (an integer >= %d)\n", s, min);
    exit(2);
  }
  return (int)v;
}

int main(int argc, char **argv)
{
  int nx = 97, ny = 75, nz = 61, sweeps = 20;
  const double pi = 3.14159265358979323846;
  const double w = 0.15; /* Jacobi weight; stable for w <= 1/6 */

  if (argc != 2 && argc != 5 && argc != 6) {
    fprintf(stderr, "usage: %s OUT.dat [NX NY NZ [SWEEPS]]\n", argv[0]);
    return 2;
  }
  if (argc >= 5) {
    nx = parse_size(argv[2], 3);
    ny = parse_size(argv[3], 3);
    nz = parse_size(argv[4], 3);
  }
  if (argc == 6)
    sweeps = parse_size(argv[5], 0);

  double (*u)[ny][nx] = malloc(sizeof(double[nz][ny][nx]));
  double (*unew)[ny][nx] = malloc(sizeof(double[nz][ny][nx]));
  if (!u || !unew) {
    fprintf(stderr, "laplace: out of memory for %d x %d x %d\n", nx, ny, nz);
    return 1;
  }

  /* Boundary faces: a linear function (a solution of Laplace's equation).
   * Interior: the same plus a smooth bump and the noise, for the sweeps to
   * smooth away.  unew starts as a copy: its faces never change, since
   * laplace3d writes interior points only. */
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        double x = (double)i / (nx - 1), y = (double)j / (ny - 1), z = (double)k / (nz - 1);
        int face = i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1;
        double v = 1.0 + x + 0.5 * y - 0.25 * z;
        if (!face)
          v += sin(pi * x) * sin(pi * y) * sin(pi * z) + 0.1 * hash_noise(i, j, k);
        u[k][j][i] = unew[k][j][i] = v;
      }

  for (int s = 0; s < sweeps; s++) {
    laplace3d(nx, ny, nz, u, unew, w);
    double (*t)[ny][nx] = u; /* the new field becomes the input of the next sweep */
    u = unew;
    unew = t;
  }

  double sum = 0.0;
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        sum += u[k][j][i];
  printf("laplace: %d x %d x %d, %d sweeps, interior sum %.12e\n", nx, ny, nz, sweeps, sum);

  /* Every output array, whole: u is the last sweep's result, unew the one before. */
  long n = (long)nx * ny * nz;
  s2s_dump_open(argv[1]);
  s2s_dump_f64("u", &u[0][0][0], n);
  s2s_dump_f64("unew", &unew[0][0][0], n);
  s2s_dump_close();

  free(u);
  free(unew);
  return 0;
}
