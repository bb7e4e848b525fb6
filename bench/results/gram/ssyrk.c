// ssyrk: OpenBLAS's cblas_ssyrk on the float32 4096×784 Gram matrix of
// uniform [-1, 1) data, the peer of gram.Compute. It writes the lower
// triangle (C = A·Aᵀ, no transpose, lower) and, timed separately, the
// copy of it to the upper triangle that gram.Compute also makes (numpy's
// A @ A.T does the same after its syrk call). Each figure is the fastest of
// ROUNDS runs, in wall time and in CPU time of the process (all OpenBLAS
// threads), so that on a machine shared with other processes the time
// spent descheduled can be told apart.
//
//	gcc -O2 -o /tmp/ssyrk bench/results/gram/ssyrk.c -lopenblas
//	OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell /tmp/ssyrk [ROUNDS]
//
// OPENBLAS_CORETYPE (Debian's OpenBLAS is built with DYNAMIC_ARCH) picks the
// kernels: Haswell is its AVX2+FMA one, the peer of rosenblatt's avx2 path.
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(clockid_t c) {
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	const int n = 4096, d = 784;
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	float *a = malloc(sizeof(float) * n * d), *c = malloc(sizeof(float) * n * n);
	unsigned long long s = 11;
	for (long i = 0; i < (long)n * d; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		a[i] = (float)((s >> 40) * 0x1p-24 * 2 - 1);
	}
	memset(c, 0, sizeof(float) * n * n);
	double best = 1e9, bestCPU = 1e9, bestMirror = 1e9;
	for (int r = 0; r <= rounds; r++) {
		double t0 = now(CLOCK_MONOTONIC), p0 = now(CLOCK_PROCESS_CPUTIME_ID);
		cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, d, 1, a, d, 0, c, n);
		double t1 = now(CLOCK_MONOTONIC), p1 = now(CLOCK_PROCESS_CPUTIME_ID);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < i; j++)
				c[(long)j * n + i] = c[(long)i * n + j];
		double t2 = now(CLOCK_MONOTONIC);
		if (r == 0)
			continue; // warm-up: page in C
		if (t1 - t0 < best)
			best = t1 - t0;
		if (p1 - p0 < bestCPU)
			bestCPU = p1 - p0;
		if (t2 - t1 < bestMirror)
			bestMirror = t2 - t1;
	}
	double flop = (double)n * (n + 1) * d;
	const char *th = getenv("OPENBLAS_NUM_THREADS"), *ct = getenv("OPENBLAS_CORETYPE");
	printf("openblas %s threads=%s coretype=%s ssyrk 4096x784: wall %.1f ms (%.1f GFLOP/s counted as N(N+1)D), cpu %.1f ms; mirror %.1f ms; check %g\n",
	       openblas_get_config(), th ? th : "default", ct ? ct : "auto", best * 1e3, flop / best / 1e9, bestCPU * 1e3, bestMirror * 1e3, c[(long)(n - 1) * n + 7]);
	return 0;
}
