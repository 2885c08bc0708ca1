/* A parameter name twice (the Fortran twin was found by fuzzing: the
 * function had fewer symbols than parameters and the IR broke after
 * parsing): one error at the second occurrence, as gcc gives. */
void scale(int n, float *restrict a, float *restrict a)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
}
