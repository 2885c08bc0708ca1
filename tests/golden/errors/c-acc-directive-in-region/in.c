/* c-acc-directive-in-region: host pragmas inside a `#pragma acc kernels`
 * region are errors that name them as written (`#pragma acc data`,
 * `#pragma acc wait`), not as `#pragma stencil ...`; so are two loop
 * pragmas before one loop, a `#pragma acc wait` as the body of an if
 * without braces and a `#pragma acc data` followed by a declaration. */
void s(int n, float *restrict a)
{
#pragma acc kernels
  {
#pragma acc data copy(a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = 2.0f * a[i];
#pragma acc wait
#pragma acc loop
#pragma acc loop
    for (int i = 0; i < n; i++)
      a[i] = 2.0f * a[i];
  }
  if (n > 3)
#pragma acc wait
  ;
#pragma acc data copy(a[0:n])
  int k = 0;
  a[k] = 1.0f;
}
