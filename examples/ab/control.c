/* The A/B demo's control: work the change under test does not touch, so
 * its time must not move between the arms. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void)
{
	struct timespec t0, t1;
	volatile double sink = 0;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 3000000; i++)
		sink += (double)i * 0.5;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("loop: %.1f us\n",
	       (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e3);
	return 0;
}
