// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control plane without the BPF side (the host never has it loaded):
 * every call must fail with ENOSYS, never pretend a limit took effect.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <sys/capsicum.h>

static void expect_enosys(int ret, const char *what)
{
	cr_expect_eq(ret, -1, "%s returned %d", what, ret);
	cr_expect_eq(errno, ENOSYS, "%s: errno %d", what, errno);
	errno = 0;
}

Test(control_unloaded, every_call_is_enosys)
{
	int fd = open("/dev/null", O_RDONLY);

	cap_rights_t r;
	cap_ioctl_t cmds[1] = { 0 };
	uint32_t fcntls;
	unsigned int mode;

	cap_rights_init(&r, CAP_READ);
	expect_enosys(cap_rights_limit(fd, &r), "cap_rights_limit");
	expect_enosys(cap_rights_get(fd, &r), "cap_rights_get");
	expect_enosys(cap_fcntls_limit(fd, CAP_FCNTL_GETFL),
		      "cap_fcntls_limit");
	expect_enosys(cap_fcntls_get(fd, &fcntls), "cap_fcntls_get");
	expect_enosys(cap_ioctls_limit(fd, cmds, 1), "cap_ioctls_limit");
	expect_enosys((int)cap_ioctls_get(fd, cmds, 1), "cap_ioctls_get");
	expect_enosys(cap_enter(), "cap_enter");
	expect_enosys(cap_getmode(&mode), "cap_getmode");
	cr_expect_not(cap_sandboxed());
	close(fd);
}
