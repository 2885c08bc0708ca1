/* OpenACC enter data in one function (an init), regions and update self in
 * another (no warning: the enter data holds b), exit data with finalize in a
 * third; the clause report lines of all three. */
void init(int n, float a[n], float b[n])
{
#pragma acc enter data copyin(a[0:n]) create(b[0:n])
}

void step(int n, float a[restrict n], float b[restrict n])
{
  for (int s = 0; s < 10; s++) {
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
#pragma acc update self(b[0:n])
  }
}

void finish(int n, float a[n], float b[n])
{
#pragma acc exit data copyout(b[0:n]) delete(a[0:n]) finalize
}
