/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Word-at-a-time byte scans (see wordscan.h).
 *
 * A mask has the top bit set in each byte of the word that is of the
 * kind looked for.  The tests subtract per byte, and a borrow runs on
 * into the bytes above: the byte that caused it is always marked, the
 * ones above may be marked falsely, the ones below never are.  On a
 * little-endian machine "above" is a higher address, so the lowest
 * marked byte is the first of the kind; elsewhere the bytes of the
 * marked word are looked at one by one.  memcpy() is the portable
 * unaligned load; compilers make it a single one.
 */
#include <stdint.h>
#include <string.h>

#include "ltpscope/wordscan.h"

#define ONES	0x0101010101010101ull
#define HIGH	(ONES * 0x80)

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_MARKED(m)	((size_t)__builtin_ctzll(m) / 8)
/*
 * Sixteen bytes compared at once where the compiler has vectors (SSE2,
 * NEON): each marked byte becomes 0xff, no borrow to mind.
 */
#define VEC16
typedef unsigned char v16 __attribute__((__vector_size__(16)));
typedef uint64_t v2 __attribute__((__vector_size__(16)));
#if defined(__SSE2__)
/*
 * One bit a byte in one instruction (pmovmskb; GCC and clang name it
 * alike): no move of each half to test it.
 */
typedef char v16c __attribute__((__vector_size__(16)));
typedef signed char v16s __attribute__((__vector_size__(16)));
#define VEC_BITS(vm)	((unsigned)__builtin_ia32_pmovmskb128((v16c)(vm)))
#endif
#endif

enum kind { PLAIN, FIELD };

/*
 * PLAIN marks bytes >= 0x80, < 0x20 or 0x7f (one more is 0x80; the
 * carry out of 0xff runs upwards too); FIELD marks bytes <= 0x20 (~w
 * drops those >= 0x80) and ':' (the XOR makes it zero).
 */
static inline uint64_t
mask(enum kind k, uint64_t w)
{
	uint64_t x;

	if (k == PLAIN)
		return (w | (w - ONES * 0x20) | (w + ONES)) & HIGH;
	x = w ^ ONES * ':';
	return (((w - ONES * 0x21) & ~w) | ((x - ONES) & ~x)) & HIGH;
}

static inline int
is(enum kind k, unsigned char c)
{
	if (k == PLAIN)
		return c < 0x20 || c >= 0x7f;
	return c <= 0x20 || c == ':';
}

#ifdef VEC16
static inline v16
vmask(enum kind k, v16 v)
{
	return (v16)(k == PLAIN ? (v < 0x20) | (v >= 0x7f) :
	    (v <= 0x20) | (v == ':'));
}
#endif

#ifdef VEC_BITS
/*
 * A bit for each byte of the kind in the sixteen at s.  PLAIN in one
 * signed compare: one more than a printable byte is 0x21-0x7f, every
 * other byte gives 0x01-0x20 or a negative one.
 */
static inline unsigned
vbits(enum kind k, const char *s)
{
	v16 v;

	memcpy(&v, s, sizeof(v));
	if (k == PLAIN)
		return ~VEC_BITS((v16s)(v + 1) > 0x20) & 0xffff;
	return VEC_BITS(vmask(k, v));
}
#endif

/* Inline, so that each caller's mask is a few instructions in its loop. */
static inline size_t
scan(enum kind k, const char *s, size_t n)
{
	uint64_t w, m;
	size_t i;
#ifdef VEC_BITS
	unsigned b;
#elif defined(VEC16)
	v16 v;
	v2 vm;
#endif

	i = 0;
#ifdef VEC_BITS
	/* Thirty-two bytes a turn: half the branches. */
	for (; n - i >= 32; i += 32)
		if ((b = vbits(k, s + i) | vbits(k, s + i + 16) << 16) != 0)
			return i + (size_t)__builtin_ctz(b);
	if (n - i >= 16) {
		if ((b = vbits(k, s + i)) != 0)
			return i + (size_t)__builtin_ctz(b);
		i += 16;
	}
	/* The tail as sixteen bytes ending at n, as below for words. */
	if (i < n && n >= 16) {
		b = vbits(k, s + n - 16);
		return b != 0 ? n - 16 + (size_t)__builtin_ctz(b) : n;
	}
#elif defined(VEC16)
	for (; n - i >= 16; i += 16) {
		memcpy(&v, s + i, sizeof(v));
		vm = (v2)vmask(k, v);
		if (vm[0] != 0)
			return i + FIRST_MARKED(vm[0]);
		if (vm[1] != 0)
			return i + 8 + FIRST_MARKED(vm[1]);
	}
#endif
	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, sizeof(w));
		if ((m = mask(k, w)) != 0) {
#ifdef FIRST_MARKED
			return i + FIRST_MARKED(m);
#else
			break;
#endif
		}
	}
#ifdef FIRST_MARKED
	/*
	 * The last few bytes as one word ending at n: those before i are
	 * known not to be of the kind, and nothing borrows into them.
	 */
	if (i < n && n >= 8) {
		memcpy(&w, s + n - 8, sizeof(w));
		m = mask(k, w);
		return m != 0 ? n - 8 + FIRST_MARKED(m) : n;
	}
#endif
	while (i < n && !is(k, (unsigned char)s[i]))
		i++;
	return i;
}

size_t
wordscan_plain(const char *s, size_t n)
{
	return scan(PLAIN, s, n);
}

size_t
wordscan_field(const char *s, size_t n)
{
	return scan(FIELD, s, n);
}

size_t
wordscan_line(const char *s, size_t n, size_t *field)
{
	size_t i = 0, k, f = n;
#ifdef VEC_BITS
	unsigned b, fb;
	v16 v;

	/*
	 * Both kinds from the same load, sixteen bytes a turn: lines are
	 * short.  Among plain bytes a field ends only at a blank or ':';
	 * one past the plain ones is cut off by the minimum.
	 */
	for (; n - i >= 16; i += 16) {
		memcpy(&v, s + i, sizeof(v));
		b = ~VEC_BITS((v16s)(v + 1) > 0x20) & 0xffff;
		fb = VEC_BITS((v == ' ') | (v == ':'));
		if (f == n && fb != 0)
			f = i + (size_t)__builtin_ctz(fb);
		if (b != 0) {
			i += (size_t)__builtin_ctz(b);
			*field = f < i ? f : i;
			return i;
		}
	}
#endif
	/* The bytes before i are plain, and hold the field's end if f < n. */
	k = i + scan(PLAIN, s + i, n - i);
	if (f == n)
		f = i + scan(FIELD, s + i, k - i);
	*field = f < k ? f : k;
	return k;
}
