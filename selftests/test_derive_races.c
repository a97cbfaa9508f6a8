// SPDX-License-Identifier: GPL-2.0
/*
 * Derived and stale rights under descriptor-number games: a new
 * descriptor gets the rights of the object the kernel really used, and an
 * old entry never revives for a descriptor that reuses its number.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

struct acceptor {
	int fd;
	pid_t tid;
	int got;
};

static void *accept_thread(void *arg)
{
	struct acceptor *a = arg;

	__atomic_store_n(&a->tid, (pid_t)gettid(), __ATOMIC_SEQ_CST);
	a->got = accept(a->fd, NULL, NULL);
	return NULL;
}

/* Is thread tid blocked in accept(2) (syscall 43)? */
static bool in_accept(pid_t tid)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strncmp(buf, "43 ", 3);
}

/*
 * One thread blocks in accept() on a listener limited to accept+read; the
 * other puts a listener with write over the same fd number. The accepted
 * socket has the first listener's rights: it cannot write.
 */
SELFTEST(accept_inherits_the_listener_it_waited_on)
{
	struct sockaddr_in a1, a2;
	struct acceptor acc = { .tid = 0 };
	cap_rights_t ro, rw;
	pthread_t th;
	int l1, l2, c;

	if (!fixture_loaded())
		return;
	l1 = fixture_listener(&a1);
	l2 = fixture_listener(&a2);
	cap_rights_init(&ro, CAP_ACCEPT, CAP_READ);
	cap_rights_init(&rw, CAP_ACCEPT, CAP_READ, CAP_WRITE);
	if (!ASSERT_OK(l1, "l1") || !ASSERT_OK(l2, "l2") ||
	    !ASSERT_OK(cap_rights_limit(l1, &ro), "limit l1") ||
	    !ASSERT_OK(cap_rights_limit(l2, &rw), "limit l2"))
		return;
	acc.fd = l1;
	if (!ASSERT_EQ(pthread_create(&th, NULL, accept_thread, &acc), 0,
		       "thread"))
		return;
	/* Bounded wait for the thread to block in accept: no sleep. */
	for (int i = 0;
	     i < 1000000 && (!__atomic_load_n(&acc.tid, __ATOMIC_SEQ_CST) ||
			     !in_accept(acc.tid));
	     i++)
		sched_yield();
	ASSERT_TRUE(in_accept(acc.tid), "the thread waits in accept");
	ASSERT_EQ(dup2(l2, l1), l1, "l2 over l1's number");
	c = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_OK(connect(c, (struct sockaddr *)&a1, sizeof(a1)),
		  "connect to the first listener");
	pthread_join(th, NULL);
	if (ASSERT_OK(acc.got, "accepted"))
		ASSERT_ERRNO(write(acc.got, "x", 1), ENOTCAPABLE,
			     "the accepted socket has l1's rights");
}

/*
 * A sibling's explicit full entry (dup-then-limit) is forgotten when the
 * sibling closes: the same file, back at that number, is not writable.
 */
SELFTEST(closed_sibling_entry_never_revives)
{
	cap_rights_t r;
	int f = fixture_scratch_file(NULL), got;

	if (!fixture_loaded() || !ASSERT_OK(f, "file"))
		return;
	cap_rights_init(&r, CAP_READ);
	if (!ASSERT_EQ(dup2(f, 200), 200, "sibling at 200") ||
	    !ASSERT_OK(cap_rights_limit(f, &r), "limit f") ||
	    !ASSERT_EQ(write(200, "x", 1), 1, "the sibling stays full") ||
	    !ASSERT_OK(close(200), "close the sibling"))
		return;
	got = fixture_pass_to_self(f);
	if (!ASSERT_OK(got, "received") ||
	    !ASSERT_EQ(dup2(got, 200), 200, "the file back at 200"))
		return;
	ASSERT_ERRNO(write(200, "x", 1), ENOTCAPABLE, "no stale full entry");
}
