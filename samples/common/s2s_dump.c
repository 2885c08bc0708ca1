/* s2s_dump.c — the C writer of the dump format described in s2s_dump.h:
 * per array a 32-byte blank-padded name, an int32 type code (1 real4,
 * 2 real8, 3 int32), an int64 element count, then the raw elements.
 *
 * One file is open at a time; it is a program's whole output.  Errors are
 * fatal: a dump that is silently short would make a verification meaningless.
 */
#include "s2s_dump.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *dump_file;
static const char *dump_path;

static void dump_fail(const char *what)
{
  fprintf(stderr, "s2s_dump: %s: %s: %s\n", dump_path ? dump_path : "(no file)", what,
          errno ? strerror(errno) : "not open");
  exit(1);
}

static void dump_bytes(const void *p, size_t size, size_t count)
{
  if (!dump_file)
    dump_fail("write before s2s_dump_open");
  if (count && fwrite(p, size, count, dump_file) != count)
    dump_fail("write failed");
}

void s2s_dump_open(const char *path)
{
  errno = 0;
  dump_path = path;
  dump_file = fopen(path, "wb");
  if (!dump_file)
    dump_fail("cannot open");
}

/* One record: header, then n elements of elem_size bytes. */
static void dump_array(const char *name, int32_t type, const void *a, size_t elem_size, long n)
{
  char padded[S2S_DUMP_NAME_LEN];
  size_t len = strlen(name);
  int64_t count = n;

  errno = 0;
  if (len > S2S_DUMP_NAME_LEN || n < 0) {
    fprintf(stderr, "s2s_dump: array '%s': name longer than %d or negative count %ld\n", name,
            S2S_DUMP_NAME_LEN, n);
    exit(1);
  }
  memset(padded, ' ', sizeof padded);
  memcpy(padded, name, len);
  dump_bytes(padded, 1, sizeof padded);
  dump_bytes(&type, sizeof type, 1);
  dump_bytes(&count, sizeof count, 1);
  dump_bytes(a, elem_size, (size_t)n);
}

void s2s_dump_f32(const char *name, const float *a, long n)
{
  dump_array(name, S2S_DUMP_REAL4, a, sizeof *a, n);
}

void s2s_dump_f64(const char *name, const double *a, long n)
{
  dump_array(name, S2S_DUMP_REAL8, a, sizeof *a, n);
}

void s2s_dump_i32(const char *name, const int32_t *a, long n)
{
  dump_array(name, S2S_DUMP_INT32, a, sizeof *a, n);
}

void s2s_dump_close(void)
{
  errno = 0;
  if (!dump_file)
    dump_fail("close before s2s_dump_open");
  if (fclose(dump_file) != 0)
    dump_fail("close failed");
  dump_file = NULL;
}
