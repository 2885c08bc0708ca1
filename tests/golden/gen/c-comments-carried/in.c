/* The user's comments inside a C region are carried into the kernel: C is
 * preprocessed, which removes them, so they come from the user's own lines:
 * a whole-line comment above a statement, and comments after the code of a
 * line (// and a block comment that ends the line; not one that goes on). */
void relax(int n, const double *restrict a, double *restrict b, double *restrict c)
{
#pragma stencil region
  for (int i = 1; i < n - 1; i++) {
    // the average of the neighbours
    b[i] = 0.5 * (a[i - 1] + a[i + 1]); // "central" // twice
    c[i] = b[i] + 1.0; /* shifted */
    b[i] = 0.5 * b[i]; /* a comment that
                          goes on */
  }
}
