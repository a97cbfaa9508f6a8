// SPDX-License-Identifier: GPL-2.0
#include "fixture.h"

#include "load.h"
#include "selftest.h"

#include <sys/capsicum.h>
#include <unistd.h>

bool fixture_loaded(void)
{
	if (access(CAPSICUM_PIN_ANSWERS, F_OK) && selftest_is_root())
		capsicum_load(CAPSICUM_PIN_DIR);
	return ASSERT_TRUE(access(CAPSICUM_PIN_ANSWERS, F_OK) == 0,
			   "capsicum programs loaded");
}

int fixture_limit_all_but(int fd, uint64_t right)
{
	cap_rights_t r;

	CAP_ALL(&r);
	cap_rights_clear(&r, right);
	return cap_rights_limit(fd, &r);
}
