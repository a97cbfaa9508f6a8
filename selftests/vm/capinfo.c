// SPDX-License-Identifier: GPL-2.0
/*
 * capinfo: a static program that asks libcapsicum what it is: its mode,
 * and the rights of the descriptors named on its command line. The
 * selftests fexecve it inside capability mode, where a dynamic program
 * could not load its libraries. Output: "mode N" then "FD RIGHTS0 RIGHTS1".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/capsicum.h>

int main(int argc, char **argv)
{
	unsigned int mode;
	cap_rights_t r;

	if (cap_getmode(&mode)) {
		perror("capinfo: cap_getmode");
		return 1;
	}
	printf("mode %u\n", mode);
	for (int i = 1; i < argc; i++) {
		int fd = atoi(argv[i]);

		if (cap_rights_get(fd, &r)) {
			perror("capinfo: cap_rights_get");
			return 1;
		}
		printf("%d %#llx %#llx\n", fd,
		       (unsigned long long)r.cr_rights[0],
		       (unsigned long long)r.cr_rights[1]);
	}
	return 0;
}
