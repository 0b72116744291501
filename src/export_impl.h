/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/export*.c: what every format of the shopping list says
 * alike (export_row.c, below the formats), and each format's writer,
 * which export.c's export_write() picks.
 */
#ifndef LTPSCOPE_EXPORT_IMPL_H
#define LTPSCOPE_EXPORT_IMPL_H

#include <stdio.h>

#include "ltpscope/export.h"

/* export_row.c */
extern const char *const export_source_names[];
const char	*export_linux_name(int);
int		 export_arch_columns(const struct shoplist *);
const char	*export_arch_status(const struct shop_test *, size_t);
const char	*export_arch_scope(const struct shop_test *);
void		 export_unlisted(const struct shoplist *, FILE *, const char *,
		    const char *);

/* One file each, above export_row.c. */
void	export_csv(const struct shoplist *, FILE *);
void	export_md(const struct shoplist *, FILE *);
void	export_json(const struct shoplist *, FILE *);
void	export_html(const struct shoplist *, FILE *);

#endif
