// A small CUDA program for an A/A run of `ab --gpu-control` on a GPU
// machine: 64 Mi floats added 20 times; exits non-zero on any error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

int main()
{
	const int n = 64 << 20;
	float *a, *b, *c;
	if (cudaMalloc(&a, n * 4) || cudaMalloc(&b, n * 4) ||
	    cudaMalloc(&c, n * 4))
		return 1;
	cudaMemset(a, 1, n * 4);
	cudaMemset(b, 2, n * 4);
	for (int k = 0; k < 20; k++)
		vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
	if (cudaDeviceSynchronize() != cudaSuccess)
		return 1;
	float x;
	cudaMemcpy(&x, c, 4, cudaMemcpyDeviceToHost);
	printf("c[0] = %g\n", x);
	return 0;
}
