/* An array declared inside a C region (w, in the j loop's body) that the kernel would share between
 * its threads: C arrays are not kept per thread yet, and w has no host copy to move, so it is refused
 * at its declaration, saying to declare it before the region (it was passed to the launcher by a
 * name the host code does not declare: found by tests/random/gen_c.py). */
void kern(int ni, int nk, int nj, const float a[restrict nj][nk][ni], float o[restrict nj][nk][ni])
{
#pragma stencil region
  for (int j = 0; j < nj; j++) {
    float w[13][42];
    for (int k = 0; k < nk; k++)
      for (int i = 0; i < ni; i++) {
        w[k][i] = 0.75f * a[j][k][i];
        o[j][k][i] = 0.5f * w[k][i];
      }
  }
}
