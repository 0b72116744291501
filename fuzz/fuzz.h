/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the fuzz targets (fuzz/fuzz_*.c) share.  Each target is one
 * libFuzzer entry calling a core parser on the bytes; "make fuzz" links
 * each alone with -fsanitize=fuzzer.  tests/test_fuzz_regress.c
 * includes every target with FUZZ_REPLAY defined, which turns each
 * entry into a static fuzz_NAME() it feeds the inputs kept under
 * tests/fixtures/fuzz/NAME/, so a crash found once stays fixed.
 *
 * A target's helpers are static and carry its name, so that all of
 * them fit in the replay program together.
 */
#ifndef LTPSCOPE_FUZZ_H
#define LTPSCOPE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FUZZ_REPLAY
#define FUZZ_TARGET(name) \
	static int fuzz_##name(const uint8_t *data, size_t size)
#else
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
#define FUZZ_TARGET(name) \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

/* An invariant the parser promises: abort, so the input is kept. */
#define FUZZ_CHECK(c) do {						\
	if (!(c)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,	\
		    __LINE__, #c);					\
		abort();						\
	}								\
} while (0)

/* The bytes as a C string (cut at the first NUL); caller frees. */
static inline char *
fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Splits the input at the first "\n--\n": the part before is one file,
 * the part after a second input (output to match rules against, ...).
 */
static inline size_t
fuzz_split(const uint8_t *data, size_t size, const uint8_t **rest,
    size_t *restlen)
{
	size_t i;

	for (i = 0; i + 4 <= size; i++)
		if (memcmp(data + i, "\n--\n", 4) == 0) {
			*rest = data + i + 4;
			*restlen = size - i - 4;
			return i + 1;
		}
	*rest = data + size;
	*restlen = 0;
	return size;
}

/* A small deterministic generator, seeded from the input. */
static inline uint32_t
fuzz_seed(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h != 0 ? h : 1;
}

static inline uint32_t
fuzz_rand(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

#endif
