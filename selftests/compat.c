// SPDX-License-Identifier: GPL-2.0
#include "compat.h"

#include <errno.h>
#include <sys/mman.h>

long i386_syscall(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

void *compat_low_page(void)
{
	static void *page;

	if (!page) {
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		if (page == MAP_FAILED)
			page = NULL;
	}
	return page;
}

int compat_result(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return 0;
}
