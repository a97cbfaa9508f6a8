// SPDX-License-Identifier: GPL-2.0
/*
 * waiter READY_FD: the sandboxed program of the daemon selftests and of
 * `make run`. Says it is running by writing one byte to READY_FD (so a
 * test knows capctl run has exec'd it, without sleeping), then waits until
 * stdin reaches end of file. On a line "write FD" it tries a 1-byte write
 * to FD and answers the errno (0 for success) on READY_FD.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[64];
	int ready, fd;

	if (argc != 2) {
		fprintf(stderr, "usage: waiter READY_FD\n");
		return 2;
	}
	ready = atoi(argv[1]);
	if (write(ready, "r", 1) != 1)
		return 1;
	/* stdin is read with read(2): stdio would be buffered past a line. */
	for (;;) {
		size_t n = 0;
		char c;
		int err;

		while (n + 1 < sizeof(line) && read(0, &c, 1) == 1 && c != '\n')
			line[n++] = c;
		if (n == 0)
			return 0; /* end of file */
		line[n] = '\0';
		if (sscanf(line, "write %d", &fd) != 1)
			continue;
		err = write(fd, "w", 1) == 1 ? 0 : errno;
		if (write(ready, &(unsigned char){ (unsigned char)err }, 1) !=
		    1)
			return 1;
	}
}
