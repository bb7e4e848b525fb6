// probe: an independent measurement of this machine's roofline, to check
// `rosenblatt bench` against. It shares no code with rosenblatt: the loops
// below are C with Intel intrinsics (and one inline-assembly chain), built
// by GCC.
//
//	gcc -O2 -o /tmp/probe bench/probe/probe.c && /tmp/probe [-trials N] [L1 L2 L3 DRAM]
//
// The four optional sizes are the read working sets in bytes (suffixes K
// and M allowed); the default is what `rosenblatt bench` uses on a Zen 5
// with a 48 KiB L1D, a 1 MiB L2 and a 32 MiB L3: 24K 512K 16M 128M. Pass the
// sizes `rosenblatt bench` prints to compare like with like.
//
// What it measures, each figure the maximum over the trials (default 30,
// each at least 2 ms, or one pass over the working set) because the
// machine is shared:
//
//	clock    a chain of dependent 64-bit integer adds (1 cycle each)
//	FMA      float32 and float64 FMA throughput per core: 24 (AVX-512) or 12
//	         (AVX2) independent accumulators, VFMADD231 on registers only
//	read     read bandwidth per core at each working set: 512-bit (or
//	         256-bit) loads added into 8 independent integer accumulators,
//	         reading the working set's two halves at once (two streams, as
//	         a Dot reads x and y, and as rosenblatt's loop does), and, in
//	         parentheses, as one stream
//
// The AVX-512 and AVX2 functions carry target attributes, so one binary
// runs both; the AVX-512 ones are skipped on a CPU without AVX512F.
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int trials = 30;

// ---- clock: 64 dependent adds per iteration ----

__attribute__((noinline)) static uint64_t chain(uint64_t n) {
	uint64_t x = 0, one = 1;
	for (uint64_t i = 0; i < n; i++) {
		__asm__ volatile(
#define A "add %1, %0\n\t"
#define A8 A A A A A A A A
		    A8 A8 A8 A8 A8 A8 A8 A8
		    : "+r"(x)
		    : "r"(one));
	}
	return x;
}

// ---- FMA throughput ----

// The accumulators start at different values: identical ones would let the
// compiler merge the chains (common subexpressions) into one.
#define ACC24(T, z) T a0 = z(0), a1 = z(1), a2 = z(2), a3 = z(3), a4 = z(4), a5 = z(5), a6 = z(6), a7 = z(7), \
	a8 = z(8), a9 = z(9), a10 = z(10), a11 = z(11), a12 = z(12), a13 = z(13), a14 = z(14), a15 = z(15), \
	a16 = z(16), a17 = z(17), a18 = z(18), a19 = z(19), a20 = z(20), a21 = z(21), a22 = z(22), a23 = z(23)
#define STEP24(F, x) a0 = F(x, x, a0); a1 = F(x, x, a1); a2 = F(x, x, a2); a3 = F(x, x, a3); a4 = F(x, x, a4); \
	a5 = F(x, x, a5); a6 = F(x, x, a6); a7 = F(x, x, a7); a8 = F(x, x, a8); a9 = F(x, x, a9); a10 = F(x, x, a10); \
	a11 = F(x, x, a11); a12 = F(x, x, a12); a13 = F(x, x, a13); a14 = F(x, x, a14); a15 = F(x, x, a15); \
	a16 = F(x, x, a16); a17 = F(x, x, a17); a18 = F(x, x, a18); a19 = F(x, x, a19); a20 = F(x, x, a20); \
	a21 = F(x, x, a21); a22 = F(x, x, a22); a23 = F(x, x, a23)
#define SUM24(ADD) ADD(ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7))), \
	ADD(ADD(ADD(ADD(a8, a9), ADD(a10, a11)), ADD(ADD(a12, a13), ADD(a14, a15))), \
	ADD(ADD(ADD(a16, a17), ADD(a18, a19)), ADD(ADD(a20, a21), ADD(a22, a23)))))

#define ACC12(T, z) T a0 = z(0), a1 = z(1), a2 = z(2), a3 = z(3), a4 = z(4), a5 = z(5), a6 = z(6), a7 = z(7), \
	a8 = z(8), a9 = z(9), a10 = z(10), a11 = z(11)
#define STEP12(F, x) a0 = F(x, x, a0); a1 = F(x, x, a1); a2 = F(x, x, a2); a3 = F(x, x, a3); a4 = F(x, x, a4); \
	a5 = F(x, x, a5); a6 = F(x, x, a6); a7 = F(x, x, a7); a8 = F(x, x, a8); a9 = F(x, x, a9); a10 = F(x, x, a10); \
	a11 = F(x, x, a11)
#define SUM12(ADD) ADD(ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7))), ADD(ADD(a8, a9), ADD(a10, a11)))

__attribute__((noinline, target("avx512f"))) static float fma512ps(long n, float v) {
	__m512 x = _mm512_set1_ps(v);
	ACC24(__m512, _mm512_set1_ps);
	for (long i = 0; i < n; i++) {
		STEP24(_mm512_fmadd_ps, x);
	}
	return _mm512_reduce_add_ps(SUM24(_mm512_add_ps));
}

__attribute__((noinline, target("avx512f"))) static double fma512pd(long n, double v) {
	__m512d x = _mm512_set1_pd(v);
	ACC24(__m512d, _mm512_set1_pd);
	for (long i = 0; i < n; i++) {
		STEP24(_mm512_fmadd_pd, x);
	}
	return _mm512_reduce_add_pd(SUM24(_mm512_add_pd));
}

__attribute__((noinline, target("avx2,fma"))) static float fma256ps(long n, float v) {
	__m256 x = _mm256_set1_ps(v);
	ACC12(__m256, _mm256_set1_ps);
	for (long i = 0; i < n; i++) {
		STEP12(_mm256_fmadd_ps, x);
	}
	float out[8];
	_mm256_storeu_ps(out, SUM12(_mm256_add_ps));
	return out[0];
}

__attribute__((noinline, target("avx2,fma"))) static double fma256pd(long n, double v) {
	__m256d x = _mm256_set1_pd(v);
	ACC12(__m256d, _mm256_set1_pd);
	for (long i = 0; i < n; i++) {
		STEP12(_mm256_fmadd_pd, x);
	}
	double out[4];
	_mm256_storeu_pd(out, SUM12(_mm256_add_pd));
	return out[0];
}

// ---- read bandwidth: n 64-bit words (a multiple of 64), passes times ----

__attribute__((noinline, target("avx512f"))) static uint64_t read512(const uint64_t *p, size_t n, long passes) {
	__m512i z = _mm512_setzero_si512(), a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z, a6 = z, a7 = z;
	for (long k = 0; k < passes; k++) {
		for (size_t i = 0; i < n; i += 64) {
			a0 = _mm512_add_epi64(a0, _mm512_load_si512(p + i));
			a1 = _mm512_add_epi64(a1, _mm512_load_si512(p + i + 8));
			a2 = _mm512_add_epi64(a2, _mm512_load_si512(p + i + 16));
			a3 = _mm512_add_epi64(a3, _mm512_load_si512(p + i + 24));
			a4 = _mm512_add_epi64(a4, _mm512_load_si512(p + i + 32));
			a5 = _mm512_add_epi64(a5, _mm512_load_si512(p + i + 40));
			a6 = _mm512_add_epi64(a6, _mm512_load_si512(p + i + 48));
			a7 = _mm512_add_epi64(a7, _mm512_load_si512(p + i + 56));
		}
	}
	__m512i s = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)),
	                             _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7)));
	return _mm512_reduce_add_epi64(s);
}

__attribute__((noinline, target("avx2"))) static uint64_t read256(const uint64_t *p, size_t n, long passes) {
	__m256i z = _mm256_setzero_si256(), a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z, a6 = z, a7 = z;
	for (long k = 0; k < passes; k++) {
		for (size_t i = 0; i < n; i += 64) {
			a0 = _mm256_add_epi64(a0, _mm256_load_si256((const __m256i *)(p + i)));
			a1 = _mm256_add_epi64(a1, _mm256_load_si256((const __m256i *)(p + i + 4)));
			a2 = _mm256_add_epi64(a2, _mm256_load_si256((const __m256i *)(p + i + 8)));
			a3 = _mm256_add_epi64(a3, _mm256_load_si256((const __m256i *)(p + i + 12)));
			a4 = _mm256_add_epi64(a4, _mm256_load_si256((const __m256i *)(p + i + 16)));
			a5 = _mm256_add_epi64(a5, _mm256_load_si256((const __m256i *)(p + i + 20)));
			a6 = _mm256_add_epi64(a6, _mm256_load_si256((const __m256i *)(p + i + 24)));
			a7 = _mm256_add_epi64(a7, _mm256_load_si256((const __m256i *)(p + i + 28)));
			a0 = _mm256_add_epi64(a0, _mm256_load_si256((const __m256i *)(p + i + 32)));
			a1 = _mm256_add_epi64(a1, _mm256_load_si256((const __m256i *)(p + i + 36)));
			a2 = _mm256_add_epi64(a2, _mm256_load_si256((const __m256i *)(p + i + 40)));
			a3 = _mm256_add_epi64(a3, _mm256_load_si256((const __m256i *)(p + i + 44)));
			a4 = _mm256_add_epi64(a4, _mm256_load_si256((const __m256i *)(p + i + 48)));
			a5 = _mm256_add_epi64(a5, _mm256_load_si256((const __m256i *)(p + i + 52)));
			a6 = _mm256_add_epi64(a6, _mm256_load_si256((const __m256i *)(p + i + 56)));
			a7 = _mm256_add_epi64(a7, _mm256_load_si256((const __m256i *)(p + i + 60)));
		}
	}
	__m256i s = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)),
	                             _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7)));
	uint64_t out[4];
	_mm256_storeu_si256((__m256i *)out, s);
	return out[0] + out[1] + out[2] + out[3];
}

// read2_512 and read2_256 read the two halves of the n words at once (two
// streams), as a Dot reads x and y and as rosenblatt's read loop does.
__attribute__((noinline, target("avx512f"))) static uint64_t read2_512(const uint64_t *p, size_t n, long passes) {
	__m512i z = _mm512_setzero_si512(), a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z, a6 = z, a7 = z;
	const uint64_t *q = p + n / 2;
	for (long k = 0; k < passes; k++) {
		for (size_t i = 0; i < n / 2; i += 32) {
			a0 = _mm512_add_epi64(a0, _mm512_load_si512(p + i));
			a1 = _mm512_add_epi64(a1, _mm512_load_si512(q + i));
			a2 = _mm512_add_epi64(a2, _mm512_load_si512(p + i + 8));
			a3 = _mm512_add_epi64(a3, _mm512_load_si512(q + i + 8));
			a4 = _mm512_add_epi64(a4, _mm512_load_si512(p + i + 16));
			a5 = _mm512_add_epi64(a5, _mm512_load_si512(q + i + 16));
			a6 = _mm512_add_epi64(a6, _mm512_load_si512(p + i + 24));
			a7 = _mm512_add_epi64(a7, _mm512_load_si512(q + i + 24));
		}
	}
	__m512i s = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)),
	                             _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7)));
	return _mm512_reduce_add_epi64(s);
}

__attribute__((noinline, target("avx2"))) static uint64_t read2_256(const uint64_t *p, size_t n, long passes) {
	__m256i z = _mm256_setzero_si256(), a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z, a6 = z, a7 = z;
	const uint64_t *q = p + n / 2;
	for (long k = 0; k < passes; k++) {
		for (size_t i = 0; i < n / 2; i += 32) {
			a0 = _mm256_add_epi64(a0, _mm256_load_si256((const __m256i *)(p + i)));
			a1 = _mm256_add_epi64(a1, _mm256_load_si256((const __m256i *)(q + i)));
			a2 = _mm256_add_epi64(a2, _mm256_load_si256((const __m256i *)(p + i + 4)));
			a3 = _mm256_add_epi64(a3, _mm256_load_si256((const __m256i *)(q + i + 4)));
			a4 = _mm256_add_epi64(a4, _mm256_load_si256((const __m256i *)(p + i + 8)));
			a5 = _mm256_add_epi64(a5, _mm256_load_si256((const __m256i *)(q + i + 8)));
			a6 = _mm256_add_epi64(a6, _mm256_load_si256((const __m256i *)(p + i + 12)));
			a7 = _mm256_add_epi64(a7, _mm256_load_si256((const __m256i *)(q + i + 12)));
			a0 = _mm256_add_epi64(a0, _mm256_load_si256((const __m256i *)(p + i + 16)));
			a1 = _mm256_add_epi64(a1, _mm256_load_si256((const __m256i *)(q + i + 16)));
			a2 = _mm256_add_epi64(a2, _mm256_load_si256((const __m256i *)(p + i + 20)));
			a3 = _mm256_add_epi64(a3, _mm256_load_si256((const __m256i *)(q + i + 20)));
			a4 = _mm256_add_epi64(a4, _mm256_load_si256((const __m256i *)(p + i + 24)));
			a5 = _mm256_add_epi64(a5, _mm256_load_si256((const __m256i *)(q + i + 24)));
			a6 = _mm256_add_epi64(a6, _mm256_load_si256((const __m256i *)(p + i + 28)));
			a7 = _mm256_add_epi64(a7, _mm256_load_si256((const __m256i *)(q + i + 28)));
		}
	}
	__m256i s = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)),
	                             _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7)));
	uint64_t out[4];
	_mm256_storeu_si256((__m256i *)out, s);
	return out[0] + out[1] + out[2] + out[3];
}

// ---- timing ----

static volatile double sinkd;
static volatile uint64_t sinku;

// calibrate returns an n for which run(n) takes about target seconds.
static long calibrate(double (*run)(long), double target) {
	long n = 1;
	for (;;) {
		double dt = run(n);
		if (dt >= target / 4 || n > (1L << 40)) {
			long m = (long)(n * target / (dt > 0 ? dt : 1e-9));
			return m > 0 ? m : 1;
		}
		n *= 4;
	}
}

static long fma_kind;
static double run_fma(long n) {
	double t = now();
	switch (fma_kind) {
	case 0: sinkd = fma512ps(n, 1); break;
	case 1: sinkd = fma512pd(n, 1); break;
	case 2: sinkd = fma256ps(n, 1); break;
	case 3: sinkd = fma256pd(n, 1); break;
	}
	return now() - t;
}

static double run_chain(long n) {
	double t = now();
	sinku = chain(n);
	return now() - t;
}

static const uint64_t *rbuf;
static size_t rwords;
static int rwidth, rstreams;
static double run_read(long passes) {
	double t = now();
	if (rstreams == 2) {
		sinku = rwidth == 512 ? read2_512(rbuf, rwords, passes) : read2_256(rbuf, rwords, passes);
	} else {
		sinku = rwidth == 512 ? read512(rbuf, rwords, passes) : read256(rbuf, rwords, passes);
	}
	return now() - t;
}

// best returns the maximum of work(n)/time over the trials.
static double best(double (*run)(long), double work_per_n, double target) {
	long n = calibrate(run, target);
	double b = 0;
	for (int i = 0; i < trials; i++) {
		double r = work_per_n * n / run(n);
		if (r > b) b = r;
	}
	return b;
}

static size_t parse_size(const char *s) {
	char *end;
	double v = strtod(s, &end);
	if (*end == 'K' || *end == 'k') v *= 1024;
	if (*end == 'M' || *end == 'm') v *= 1024 * 1024;
	if (*end == 'G' || *end == 'g') v *= 1024.0 * 1024 * 1024;
	return (size_t)v;
}

int main(int argc, char **argv) {
	size_t sizes[4] = {24 << 10, 512 << 10, 16 << 20, 128 << 20};
	const char *names[4] = {"L1", "L2", "L3", "DRAM"};
	int ns = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-trials") == 0 && i + 1 < argc) {
			trials = atoi(argv[++i]);
		} else if (ns < 4) {
			sizes[ns++] = parse_size(argv[i]);
		} else {
			fprintf(stderr, "usage: probe [-trials N] [L1 L2 L3 DRAM]\n");
			return 2;
		}
	}
	if (ns != 0 && ns != 4) {
		fprintf(stderr, "usage: probe [-trials N] [L1 L2 L3 DRAM] (all four sizes or none)\n");
		return 2;
	}
	__builtin_cpu_init();
	int has512 = __builtin_cpu_supports("avx512f"), has2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	printf("probe: maximum over %d trials of each figure\n", trials);

	double hz = best(run_chain, 64, 2e-3);
	printf("clock      %8.2f GHz   (dependent 64-bit add chain)\n", hz / 1e9);

	struct { int on, kind; const char *name; double flops; } fmas[] = {
	    {has512, 0, "AVX-512 float32", 24 * 16 * 2}, {has512, 1, "AVX-512 float64", 24 * 8 * 2},
	    {has2, 2, "AVX2 float32", 12 * 8 * 2}, {has2, 3, "AVX2 float64", 12 * 4 * 2},
	};
	for (int i = 0; i < 4; i++) {
		if (!fmas[i].on) continue;
		fma_kind = fmas[i].kind;
		double f = best(run_fma, fmas[i].flops, 2e-3);
		printf("FMA peak   %8.1f GFLOP/s %s per core (%.1f flops/cycle)\n", f / 1e9, fmas[i].name, f / hz);
	}

	size_t maxb = 0;
	for (int i = 0; i < 4; i++) {
		sizes[i] &= ~(size_t)511;
		if (sizes[i] < 512) sizes[i] = 512;
		if (sizes[i] > maxb) maxb = sizes[i];
	}
	// Huge pages where the kernel gives them (madvise mode), as
	// rosenblatt bench asks for its own buffer: like with like.
	size_t huge = (size_t)2 << 20;
	size_t alloc = (maxb + huge - 1) / huge * huge;
	uint64_t *buf = aligned_alloc(huge, alloc);
	if (!buf) { perror("aligned_alloc"); return 1; }
	madvise(buf, alloc, MADV_HUGEPAGE); // advice: small pages if it fails
	for (size_t i = 0; i < maxb / 8; i++) buf[i] = i;
	for (int w = 0; w < 2; w++) {
		rwidth = w == 0 ? 512 : 256;
		if ((rwidth == 512 && !has512) || (rwidth == 256 && !has2)) continue;
		for (int i = 0; i < 4; i++) {
			rbuf = buf, rwords = sizes[i] / 8;
			double bw[2];
			for (rstreams = 1; rstreams <= 2; rstreams++) {
				bw[rstreams - 1] = best(run_read, (double)sizes[i], 2e-3);
			}
			printf("read %-4s  %8.1f GB/s    %d-bit loads, %zu KiB, two streams (one stream: %.1f)\n",
			       names[i], bw[1] / 1e9, rwidth, sizes[i] >> 10, bw[0] / 1e9);
		}
	}
	free(buf);
	return 0;
}
