/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Status and line-class names round-trip; diagnostics format with file
 * and line as every parser relies on.
 */
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/status.h"
#include "tap.h"

int
main(void)
{
	struct diaglist dl;
	char buf[256];
	int i;

	for (i = 0; i < TS__COUNT; i++)
		is_int(test_status_from_name(test_status_name(i)), i,
		    "status %s round-trips", test_status_name(i));
	is_int(test_status_from_name("nonsense"), -1, "unknown status");
	ok(test_status_is_bad(TS_TIMEOUT), "timeout is bad");
	ok(!test_status_is_bad(TS_CONF), "conf is not bad");
	is_str(line_class_name(LC_TFAIL), "TFAIL", "line class name");

	diag_init(&dl);
	diag_error(&dl, "x.master", 12, "bad number '%s'", "1x");
	diag_add(&dl, DIAG_WARNING, "r", 3, 7, "odd");
	is_int(dl.nerrors, 1, "one error counted");
	diag_format(&dl.v[0], buf, sizeof(buf));
	is_str(buf, "x.master:12: error: bad number '1x'", "error format");
	diag_format(&dl.v[1], buf, sizeof(buf));
	is_str(buf, "r:3:7: warning: odd", "warning with column");
	diag_free(&dl);
	return tap_done();
}
