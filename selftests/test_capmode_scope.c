// SPDX-License-Identifier: GPL-2.0
/*
 * Capability mode's allowances and refusals that FreeBSD users expect and
 * the filter alone got wrong: getsid/getpgid of the own pid (the BPF side
 * scopes the pid, also in a forked child), netlink, packet and raw
 * sockets refused, and no argument the kernel would truncate to an
 * allowed value. Each case runs the call outside capability mode first,
 * where it works, so the refusal is capability mode's.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <linux/netlink.h>
#include <netinet/in.h>
#include <sys/capsicum.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A child that enters and checks; 0 if all held (selftest_wait). */
static int in_capmode_child(void)
{
	pid_t parent = getppid(), self = getpid(), sid = getsid(0);
	pid_t pgid = getpgid(0);

	if (getsid(self) != sid || getpgid(self) != pgid)
		return 1;
	if (getsid(parent) < 0 || getpgid(parent) < 0)
		return 2; /* outside capability mode: any process */
	if (cap_enter())
		return 3;
	if (getsid(0) != sid || getsid(self) != sid || getpgid(self) != pgid)
		return 4;
	errno = 0;
	if (getsid(parent) != -1 || errno != ECAPMODE)
		return 5;
	errno = 0;
	if (getpgid(parent) != -1 || errno != ECAPMODE)
		return 6;
	return 0;
}

SELFTEST(capmode_getsid_own_process)
{
	pid_t pid, grandchild;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid == 0)
		_exit(in_capmode_child());
	ASSERT_EQ(selftest_wait(pid), 0, "own pid allowed, parent's ECAPMODE");
	/* A child forked in capability mode has a pid the filter never saw. */
	pid = fork();
	if (pid == 0) {
		pid_t sid = getsid(0);

		if (cap_enter())
			_exit(10);
		grandchild = fork();
		if (grandchild == 0) {
			errno = 0;
			_exit(getsid(getpid()) == sid
				      ? (getsid(getppid()) == -1 &&
							 errno == ECAPMODE
						 ? 0
						 : 12)
				      : 11);
		}
		_exit(selftest_wait(grandchild));
	}
	ASSERT_EQ(selftest_wait(pid), 0, "forked in capability mode");
}

SELFTEST(capmode_refuses_raw_and_netlink_sockets)
{
	int before, s;

	if (!fixture_loaded())
		return;
	/* Any user may open a netlink routing socket outside. */
	before = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (!ASSERT_OK(before, "netlink socket before cap_enter"))
		return;
	if (selftest_is_root()) {
		s = socket(AF_PACKET, SOCK_DGRAM, 0);
		ASSERT_OK(s, "packet socket before, as root");
		close(s);
		s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		ASSERT_OK(s, "raw socket before, as root");
		close(s);
	}
	if (!ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_ERRNO(socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE), ECAPMODE,
		     "netlink route");
	ASSERT_ERRNO(socket(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG),
		     ECAPMODE, "netlink sock_diag");
	ASSERT_ERRNO(socket(AF_PACKET, SOCK_DGRAM, 0), ECAPMODE, "packet");
	ASSERT_ERRNO(socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMP),
		     ECAPMODE, "raw inet");
	ASSERT_ERRNO(socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6), ECAPMODE,
		     "raw inet6");
	ASSERT_ERRNO(socket(AF_INET, SOCK_PACKET, 0), ECAPMODE, "SOCK_PACKET");
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_OK(s, "udp socket still allowed");
	close(s);
	/* Only socket() is filtered: one made before stays usable. */
	struct sockaddr_nl nl;
	socklen_t len = sizeof(nl);

	ASSERT_OK(getsockname(before, (struct sockaddr *)&nl, &len),
		  "netlink socket made before");
}

SELFTEST(capmode_high_half_of_int_arguments)
{
	char name[16];

	if (!fixture_loaded())
		return;
	/* Outside, the kernel truncates the option to PR_GET_NAME. */
	ASSERT_OK(syscall(SYS_prctl, (1UL << 32) | PR_GET_NAME, name, 0, 0, 0),
		  "prctl with bit 32 outside capability mode");
	if (!ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_OK(syscall(SYS_prctl, PR_GET_NAME, name, 0, 0, 0),
		  "prctl(PR_GET_NAME)");
	ASSERT_ERRNO(
		syscall(SYS_prctl, (1UL << 32) | PR_GET_NAME, name, 0, 0, 0),
		ECAPMODE, "prctl(PR_GET_NAME | 1 << 32)");
	ASSERT_ERRNO(syscall(SYS_socket, (1UL << 32) | AF_INET, SOCK_DGRAM, 0),
		     ECAPMODE, "socket(AF_INET | 1 << 32)");
	/* Sign extension is how a negative int arrives: still allowed. */
	ASSERT_OK(syscall(SYS_prctl, 0xffffffff00000000UL | PR_GET_NAME, name,
			  0, 0, 0),
		  "prctl with a sign-extended option");
}
