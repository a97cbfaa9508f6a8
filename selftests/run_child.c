// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "run_child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Waits for pid's exit up to timeout_s; false if it is still running. */
static bool exited_within(pid_t pid, unsigned int timeout_s)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int n;

	if (pidfd < 0)
		return true; /* no pidfd: wait unbounded, as before */
	do
		n = poll(&p, 1, (int)(timeout_s * 1000));
	while (n < 0 && errno == EINTR);
	close(pidfd);
	return n != 0;
}

int run_child(int (*body)(void *arg), void *arg, unsigned int timeout_s)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("    fork");
		return CHILD_FAIL;
	}
	if (pid == 0) {
		/* Its own group: what the test forks dies with it on timeout.
		 */
		setpgid(0, 0);
		_exit(body(arg));
	}
	/* Both sides set it, so the kill below cannot come first. */
	setpgid(pid, pid);
	if (!exited_within(pid, timeout_s)) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		fprintf(stderr, "    timed out after %u s: killed\n",
			timeout_s);
		return CHILD_TIMEOUT;
	}
	if (waitpid(pid, &status, 0) != pid)
		return CHILD_FAIL;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "    killed by signal %d\n", WTERMSIG(status));
		return CHILD_FAIL;
	}
	return WEXITSTATUS(status);
}
