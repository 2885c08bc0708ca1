/* devcopy.c (host-data-device-copy): what a CUDA-aware MPI's transfer does
 * to the addresses it is handed.  With the CUDA runtime linked in (the
 * translation's GPU build, and the emulation, whose runtime defines the
 * same functions) the bytes move with cudaMemcpy(cudaMemcpyDefault), which
 * takes host and device addresses alike, and the call returns once they
 * have landed (cudaDeviceSynchronize), as a receive does; in the reference
 * (gfortran alone, no CUDA) with memmove. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind) __attribute__((weak));
extern int cudaDeviceSynchronize(void) __attribute__((weak));

void device_copy(void *dst, const void *src, const long *bytes)
{
  if (!cudaMemcpy) {
    memmove(dst, src, (size_t)*bytes);
    return;
  }
  if (cudaMemcpy(dst, src, (size_t)*bytes, 4 /* cudaMemcpyDefault */) != 0 ||
      cudaDeviceSynchronize() != 0) {
    fprintf(stderr, "device_copy: cudaMemcpy of %ld bytes failed\n", *bytes);
    abort();
  }
}
