/* A bare index tten[k] in a C data clause: error; a sub-array needs start:length (tten[k:1]). */
void hdiff_level(int its, int ite, int jts, int jte, float khdif,
                 const float *t, float *tten, int k)
{
  int nx = ite - its + 1;
  int ny = jte - jts + 1;

#pragma stencil region copyin(t[0:(nx+2)*(ny+2)]) copy(tten[k])
  for (int j = 1; j <= ny; j++)
    for (int i = 1; i <= nx; i++)
      tten[(j-1)*nx + i-1] += khdif * (t[j*(nx+2) + i+1] + t[j*(nx+2) + i-1]
                                     + t[(j+1)*(nx+2) + i] + t[(j-1)*(nx+2) + i]
                                     - 4.0f * t[j*(nx+2) + i]);
}
