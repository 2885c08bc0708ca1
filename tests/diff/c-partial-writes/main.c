/* Driver of c-partial-writes: before each region, a holds values of its
 * own; afterwards every element a region skips must still hold that value
 * and every element it writes the value written.  The expected array is
 * computed element by element from the conditions.  Dumps every result. */
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

enum { NI = 37, NJ = 23 };

void every_other_row(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni]);
void stop_at_negative(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni]);
void skip_negative(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni]);
void whole(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni]);

static float a[NJ][NI], b[NJ][NI], e[NJ][NI];

static void reset(void)
{
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      a[j][i] = e[j][i] = -100.0f - (float)i - 0.01f * (float)j;
}

static void check(const char *what)
{
  int bad = 0;
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      bad += a[j][i] != e[j][i];
  if (bad) {
    printf("c-partial-writes: %s: %d elements differ\n", what, bad);
    exit(1);
  }
  s2s_dump_f32(what, &a[0][0], (long)NI * NJ);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      b[j][i] = (float)((i * 37 + j * 11) % 101) / 101.0f - 0.5f;
  s2s_dump_open(argv[1]);

  reset();
  every_other_row(NI, NJ, b, a);
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      if (j % 2 == 0)
        e[j][i] = 2.0f * b[j][i];
  check("every_other_row");

  reset();
  stop_at_negative(NI, NJ, b, a);
  for (int i = 0; i < NI; i++) {
    int top = 0;
    while (top < NJ && !(b[top][i] < -0.3f))
      top++;
    for (int j = 0; j < top; j++)
      e[j][i] = b[j][i] + 10.0f;
  }
  check("stop_at_negative");

  reset();
  skip_negative(NI, NJ, b, a);
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      if (b[j][i] >= 0.0f)
        e[j][i] = b[j][i] + 20.0f;
  check("skip_negative");

  reset();
  whole(NI, NJ, b, a);
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      e[j][i] = b[j][i] + 50.0f;
  check("whole");

  s2s_dump_close();
  return 0;
}
