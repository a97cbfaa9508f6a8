// SPDX-License-Identifier: GPL-2.0
/*
 * errno after every successful libcapsicum call with the BPF side loaded.
 * The BPF side answers success with a status in errno (4000,
 * CAPSICUM_STATUS_OK); a successful pdwait4() once left it there. Every
 * call here must leave the caller's errno as it was (FreeBSD's calls do).
 * tests/test_errno.c covers the calls that work without the BPF side.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <sys/capsicum.h>
#include <sys/ioctl.h>
#include <sys/procdesc.h>
#include <sys/wait.h>
#include <unistd.h>

/* No real errno (nor any status of ours) has this value. */
#define SENTINEL 12345

/* call must succeed (>= 0) and leave errno at SENTINEL. */
#define KEEPS_ERRNO(call)                                                      \
	({                                                                     \
		errno = SENTINEL;                                              \
		long long ret_ = (long long)(call);                            \
		int en_ = errno;                                               \
		ASSERT_OK(ret_, #call);                                        \
		ASSERT_EQ(en_, SENTINEL, #call " leaves errno");               \
	})

SELFTEST(errno_kept_by_every_successful_call)
{
	cap_ioctl_t cmds[2] = { FIONREAD, FIONBIO }, got[2];
	cap_rights_t r;
	uint32_t fcntls;
	unsigned int mode;
	int fd, pd = -1, status;
	pid_t pid, child;

	if (!fixture_loaded())
		return;
	fd = open("/dev/null", O_RDWR);
	if (!ASSERT_OK(fd, "open"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_WRITE, CAP_FCNTL, CAP_IOCTL,
			CAP_FSTAT);
	KEEPS_ERRNO(cap_rights_limit(fd, &r));
	KEEPS_ERRNO(cap_rights_get(fd, &r));
	KEEPS_ERRNO(cap_fcntls_limit(fd, CAP_FCNTL_GETFL));
	KEEPS_ERRNO(cap_fcntls_get(fd, &fcntls));
	KEEPS_ERRNO(cap_ioctls_limit(fd, cmds, 2));
	KEEPS_ERRNO(cap_ioctls_get(fd, got, 2));
	KEEPS_ERRNO(cap_getmode(&mode));
	errno = SENTINEL;
	ASSERT_TRUE(!cap_sandboxed(), "not sandboxed");
	ASSERT_EQ(errno, SENTINEL, "cap_sandboxed leaves errno");

	/* The case: pdwait4 (and the other pd calls). */
	errno = SENTINEL;
	child = pdfork(&pd, 0);
	if (child == 0)
		_exit(errno == SENTINEL ? 0 : 1);
	ASSERT_OK(child, "pdfork");
	ASSERT_EQ(errno, SENTINEL, "pdfork leaves errno");
	KEEPS_ERRNO(pdgetpid(pd, &pid));
	KEEPS_ERRNO(pdkill(pd, 0));
	KEEPS_ERRNO(pdwait4(pd, &status, 0, NULL));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "pdfork left the child's errno");
	close(pd);

	/* The same inside capability mode, entered last. */
	KEEPS_ERRNO(cap_enter());
	KEEPS_ERRNO(cap_enter());
	KEEPS_ERRNO(cap_getmode(&mode));
	errno = SENTINEL;
	ASSERT_TRUE(cap_sandboxed(), "sandboxed");
	ASSERT_EQ(errno, SENTINEL, "cap_sandboxed leaves errno");
	KEEPS_ERRNO(cap_rights_get(fd, &r));
	KEEPS_ERRNO(cap_ioctls_get(fd, got, 2));
	KEEPS_ERRNO(cap_rights_limit(fd, &r));
	child = pdfork(&pd, 0);
	if (child == 0)
		_exit(0);
	KEEPS_ERRNO(pdgetpid(pd, &pid));
	KEEPS_ERRNO(pdwait4(pd, &status, 0, NULL));
	close(fd);
}
