// SPDX-License-Identifier: BSD-2-Clause
/*
 * errno after every successful libcapsicum call that works on the host
 * (no BPF side): it must be the caller's value. pdgetpid() and pdwait4()
 * once left their internal ENOSYS, and with the BPF side loaded the
 * control plane's status 4000 (selftests/test_errno.c covers that half).
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <capsicum/rights_names.h>
#include <sys/capsicum.h>
#include <sys/procdesc.h>

/* No real errno has this value: whatever changes it is seen. */
#define SENTINEL 12345

#define KEEPS_ERRNO(call)                                                      \
	do {                                                                   \
		errno = SENTINEL;                                              \
		(void)(call);                                                  \
		cr_expect_eq(errno, SENTINEL, "%s: errno %d", #call, errno);   \
	} while (0)

Test(keeps_errno, rights_algebra_and_names)
{
	cap_rights_t r, s;
	char buf[128];

	KEEPS_ERRNO(cap_rights_init(&r, CAP_READ, CAP_WRITE));
	KEEPS_ERRNO(cap_rights_init(&s, CAP_READ));
	KEEPS_ERRNO(cap_rights_set(&r, CAP_FSTAT));
	KEEPS_ERRNO(cap_rights_clear(&r, CAP_WRITE));
	KEEPS_ERRNO(cap_rights_is_set(&r, CAP_READ));
	KEEPS_ERRNO(cap_rights_is_valid(&r));
	KEEPS_ERRNO(cap_rights_merge(&r, &s));
	KEEPS_ERRNO(cap_rights_remove(&r, &s));
	KEEPS_ERRNO(cap_rights_contains(&r, &s));
	KEEPS_ERRNO(cap_rights_is_empty(&r));
	KEEPS_ERRNO(capsicum_right_name(CAP_READ));
	cr_expect_eq(capsicum_rights_parse("read,write 0x0200000000000001", &r),
		     0);
	KEEPS_ERRNO(capsicum_rights_parse("read,mmap_rw", &r));
	KEEPS_ERRNO(capsicum_rights_format(&r, buf, sizeof(buf)));
	/* cap_sandboxed() cannot fail, so it reports no ENOSYS either. */
	KEEPS_ERRNO(cap_sandboxed());
}

Test(keeps_errno, process_descriptors_unloaded)
{
	int fd = -1, status = 0;
	pid_t pid, got = 0;

	errno = SENTINEL;
	pid = pdfork(&fd, 0);
	if (pid == 0)
		_exit(errno == SENTINEL ? 7 : 8); /* the child's errno too */
	cr_assert_gt(pid, 0, "pdfork: %d", errno);
	cr_expect_eq(errno, SENTINEL, "pdfork: errno %d", errno);

	errno = SENTINEL;
	cr_expect_eq(pdgetpid(fd, &got), 0);
	cr_expect_eq(got, pid);
	cr_expect_eq(errno, SENTINEL, "pdgetpid: errno %d", errno);

	errno = SENTINEL;
	cr_expect_eq(pdkill(fd, 0), 0);
	cr_expect_eq(errno, SENTINEL, "pdkill: errno %d", errno);

	errno = SENTINEL;
	cr_expect_eq(pdwait4(fd, &status, 0, NULL), pid);
	cr_expect_eq(errno, SENTINEL, "pdwait4: errno %d", errno);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		  "child saw errno %d", WEXITSTATUS(status));
	close(fd);
}
