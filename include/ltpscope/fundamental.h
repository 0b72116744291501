/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * data/fundamental: the ranked list of the Linux calls programs use
 * most, which weighs syscalls on the shopping list (shoplist.h).
 */
#ifndef LTPSCOPE_FUNDAMENTAL_H
#define LTPSCOPE_FUNDAMENTAL_H

#include <stddef.h>

#include "ltpscope/diag.h"

/* data/fundamental: a ranked list of call names. */
struct fundamental {
	char	**names;
	size_t	  n;
};

int	fundamental_parse(struct fundamental *, const char *name,
	    const char *buf, size_t len, struct diaglist *);
/* data/fundamental; -1 if it cannot be read. */
int	fundamental_load_default(struct fundamental *, struct diaglist *);
/* 1-based rank, 0 when not listed. */
size_t	fundamental_rank(const struct fundamental *, const char *);
void	fundamental_free(struct fundamental *);

#endif
