/* SPDX-License-Identifier: BSD-2-Clause */
/* The smallest test: exits 0 at once, for measuring runner overhead. */
int
main(void)
{
	return 0;
}
