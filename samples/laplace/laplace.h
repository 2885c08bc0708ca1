/* laplace.h — the routine of the laplace sample that the translator offloads. */
#ifndef LAPLACE_H
#define LAPLACE_H

/* One weighted Jacobi sweep of the 3-D Laplace equation over the interior
 * points of an nz x ny x nx grid (i, the last index, is contiguous):
 *   unew = u + w * (sum of the 6 neighbours - 6 u).
 * The boundary faces of unew are not written.  u and unew must not overlap
 * (restrict). */
void laplace3d(int nx, int ny, int nz, const double u[restrict nz][ny][nx],
               double unew[restrict nz][ny][nx], double w);

#endif
