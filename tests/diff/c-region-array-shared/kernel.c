/* c-region-array-shared: an array declared inside a C region (w, at the top
 * of the j loop's body, written and read in the same slab) that the kernel
 * would share between its threads.  The translation passed w to the
 * launcher by a name the host code does not declare, and the build of the
 * translation failed in gcc; C arrays are not kept per thread yet, so it
 * must be refused at the declaration, saying to declare w before the region.
 * Reduced from tests/random/gen_c.py seed 11. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

void scratch(int ni, int nk, int nj, const float a[restrict nj][nk][ni], float o[restrict nj][nk][ni])
{
#pragma stencil region
  for (int j = 0; j < nj; j++) {
    float w[13][42];
    for (int k = 0; k < nk; k++)
      for (int i = 0; i < ni; i++) {
        w[k][i] = 0.75f * a[j][k][i];
        o[j][k][i] = 0.5f * w[k][i] + a[j][k][i];
      }
  }
}
