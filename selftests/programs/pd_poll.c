// SPDX-License-Identifier: BSD-2-Clause
/*
 * A FreeBSD supervisor's use of process descriptors, built against the
 * installed tree only (pkg-config libcapsicum, with _FORTIFY_SOURCE, so
 * that glibc's __poll_chk() is called where the count is not constant):
 * poll() reports POLLHUP when a child exits, also when asked no events,
 * keeps reporting it after pdwait4(), and reports no POLLHUP for a pipe;
 * select() reports an exited child's descriptor readable.
 * With -c it does all of it in capability mode. Exit 0 if so, else the
 * number of the first check that failed (and a line on stderr).
 */
#include <sys/capsicum.h>
#include <sys/procdesc.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#define BOUND_MS 10000

static int fail(int check, const char *what)
{
	fprintf(stderr, "pd_poll: check %d failed: %s\n", check, what);
	return check;
}

/* A child that exits once a byte arrives on fd (bounded by an alarm). */
static pid_t child(int *pd, int fd)
{
	pid_t pid = pdfork(pd, 0);
	char c;

	if (pid == 0) {
		alarm(30);
		_exit(read(fd, &c, 1) == 1 ? 0 : 1);
	}
	return pid;
}

/* Counts not known at compile time: poll() of them is __poll_chk(). */
static volatile nfds_t one = 1, both = 2;

int main(int argc, char **argv)
{
	int go_a[2], go_b[2], data[2], pd_a, pd_b, status;
	struct pollfd a = { .events = POLLIN | POLLERR | POLLHUP }, two[2];
	struct timeval now = { 0, 0 };
	fd_set readable;
	pid_t pid_a, pid_b;

	if (pipe(go_a) || pipe(go_b) || pipe(data) ||
	    write(data[1], "d", 1) != 1)
		return fail(1, "pipe");
	if (argc > 1 && !strcmp(argv[1], "-c") && cap_enter())
		return fail(1, "cap_enter");
	pid_a = child(&pd_a, go_a[0]);
	pid_b = child(&pd_b, go_b[0]);
	if (pid_a < 0 || pid_b < 0)
		return fail(1, "pdfork");

	a.fd = pd_a;
	if (poll(&a, 1, 0) != 0)
		return fail(2, "a running child's descriptor polls quiet");
	if (write(go_a[1], "a", 1) != 1)
		return fail(3, "release the first child");
	if (poll(&a, 1, BOUND_MS) != 1 || !(a.revents & POLLHUP))
		return fail(3, "POLLHUP once the child exited");
	a.revents = 0;
	if (poll(&a, 1, 0) != 1 || !(a.revents & POLLHUP))
		return fail(4, "POLLHUP again");

	/* No events asked: POLLHUP alone wakes it, as on FreeBSD. */
	two[0] = (struct pollfd){ .fd = pd_b, .events = 0 };
	two[1] = (struct pollfd){ .fd = go_b[0], .events = POLLOUT };
	if (poll(two, both, 0) != 0)
		return fail(5, "nothing to report yet");
	if (write(go_b[1], "b", 1) != 1)
		return fail(5, "release the second child");
	if (poll(two, both, BOUND_MS) != 1 || two[0].revents != POLLHUP ||
	    two[1].revents != 0)
		return fail(5, "POLLHUP alone for a poll with no events");
	two[0].revents = 0;
	if (poll(two, both, 0) != 1 || two[0].revents != POLLHUP)
		return fail(5,
			    "POLLHUP alone for a poll with no events, no wait");

	FD_ZERO(&readable);
	FD_SET(pd_a, &readable);
	if (select(pd_a + 1, &readable, NULL, NULL, &now) != 1 ||
	    !FD_ISSET(pd_a, &readable))
		return fail(6, "select() reports the exited child readable");

	if (pdwait4(pd_a, &status, 0, NULL) != pid_a ||
	    pdwait4(pd_b, &status, 0, NULL) != pid_b)
		return fail(7, "pdwait4");
	a.revents = 0;
	if (poll(&a, 1, 0) != 1 || !(a.revents & POLLHUP))
		return fail(7, "POLLHUP after pdwait4");

	/* A pipe holding data: POLLIN, and no POLLHUP of ours. */
	two[0] = (struct pollfd){ .fd = data[0], .events = POLLIN };
	if (poll(two, one, 0) != 1 || two[0].revents != POLLIN)
		return fail(8, "a readable pipe is only readable");
	return 0;
}
