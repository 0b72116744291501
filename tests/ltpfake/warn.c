/* LTP-like test that passes with a warning: exit 4 (TWARN). */
#include "ltpfake.h"

int
main(void)
{
	fake_res("tst_kconfig.c", 42, "TWARN",
	    "KCONFIG_PATH='/nonexistent/config' does not exist");
	fake_header();
	fake_res("warn01.c", 56, "TPASS", "sticky bit is set as expected");
	return fake_summary();
}
