/* A region pragma inside the block a host_data pragma applies to: one error at the region. */
void use_it(float *a, int n);

void s(int n, float a[restrict n])
{
#pragma stencil data copy(a[0:n])
  {
#pragma stencil host_data use_device(a)
    {
      use_it(a, n);
#pragma stencil region
      for (int i = 0; i < n; i++)
        a[i] = 2.0f * a[i];
    }
  }
}
