/* A stand-in for a fusion kernel, for the A/B demo: a fixed set-up cost,
 * then ITERS frames of WORK passes over a voxel block each. It prints the
 * time of its own loop, as kfusion prints its frame times.
 * usage: integrate [ITERS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define VOXELS (1 << 14)
#ifndef WORK
#define WORK 5 /* passes per frame: the per-iteration cost */
#endif

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 64, f, v;
	float *grid = calloc(VOXELS, sizeof(*grid));
	struct timespec t0, t1;
	int w;

	if (!grid)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (v = 0; v < 40 * VOXELS; v++) /* set-up: a fixed cost */
		grid[v % VOXELS] += 0.5f;
	for (f = 0; f < iters; f++)
		for (w = 0; w < WORK; w++)
			for (v = 0; v < VOXELS; v++)
				grid[v] = grid[v] * 0.99f + 0.01f * (float)w;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("voxel %.3f\n", (double)grid[VOXELS / 2]);
	printf("loop: %.1f us\n",
	       (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e3);
	free(grid);
	return 0;
}
