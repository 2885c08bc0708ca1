/* A C array of rank 8 (more than the IR's 7) used in a region: one error at the reference. */
void r8(float a[2][2][2][2][2][2][2][2], float *restrict b)
{
#pragma stencil region
  for (int i = 0; i < 2; i++)
    b[i] = a[1][1][1][1][1][1][1][i];
}
