/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test that skips itself (TCONF): exit 32. */
#include "ltpfake.h"

int
main(void)
{
	fake_res("tst_kconfig.c", 90, "TINFO",
	    "Parsing kernel config '/proc/config.gz'");
	fake_res("tst_kconfig.c", 611, "TINFO",
	    "Constraint 'CONFIG_USER_NS' not satisfied!");
	fake_res("tst_test.c", 1459, "TCONF",
	    "Aborting due to unsuitable kernel config, see above!");
	return fake_summary();
}
