// Three kernels for `git campaign ncu` on a GPU machine, each launched four
// times: vadd (memory-bound), spin (FMA chains: compute-bound) and tiny (one
// block: a short launch, latency-bound). Checks its results; exits non-zero
// on any CUDA error or wrong answer.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *x, int n, float base)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = base + (float)(i % 1000) * 0.001f;
}

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void spin(float *x, int n, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float a = x[i], b = 0.999f, c = 0.001f, d = a * 0.5f;
	for (int k = 0; k < iters; k++) {
		a = fmaf(a, b, c);
		d = fmaf(d, b, c);
	}
	x[i] = a + d;
}

__global__ void tiny(float *x)
{
	x[threadIdx.x] += 1.0f;
}

#define CK(call)                                                               \
	do {                                                                   \
		cudaError_t e = (call);                                        \
		if (e != cudaSuccess) {                                        \
			fprintf(stderr, "kernels: %s: %s\n", #call,            \
				cudaGetErrorString(e));                        \
			return 1;                                              \
		}                                                              \
	} while (0)

int main()
{
	const int n = 16 << 20, sn = 1 << 20;
	float *a, *b, *c, *s, *t, h[2];
	CK(cudaMalloc(&a, n * 4));
	CK(cudaMalloc(&b, n * 4));
	CK(cudaMalloc(&c, n * 4));
	CK(cudaMalloc(&s, sn * 4));
	CK(cudaMalloc(&t, 32 * 4));
	fill<<<(n + 255) / 256, 256>>>(a, n, 1.0f);
	fill<<<(n + 255) / 256, 256>>>(b, n, 2.0f);
	fill<<<(sn + 255) / 256, 256>>>(s, sn, 0.5f);
	fill<<<1, 32>>>(t, 32, 0.0f);
	CK(cudaGetLastError());
	for (int k = 0; k < 4; k++) {
		vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
		spin<<<(sn + 255) / 256, 256>>>(s, sn, 4096);
		tiny<<<1, 32>>>(t);
		CK(cudaGetLastError());
	}
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h, c + 1001, 4, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(h + 1, t, 4, cudaMemcpyDeviceToHost));
	if (fabsf(h[0] - 3.002f) > 1e-5f || h[1] != 4.0f) {
		fprintf(stderr, "kernels: wrong answer %g %g\n", h[0], h[1]);
		return 1;
	}
	printf("kernels: ok\n");
	return 0;
}
