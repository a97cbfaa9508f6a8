// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd: loads and pins the Capsicum BPF programs. This first version
 * only loads (`capsicumd --load`) and exits: enforcement lives in the
 * pinned links, not in this process.
 */
#include "load.h"

#include <capsicum/abi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int ret;

	if (argc != 2 || strcmp(argv[1], "--load")) {
		fprintf(stderr, "usage: capsicumd --load\n");
		return 2;
	}
	ret = capsicum_load(CAPSICUM_PIN_DIR);
	if (ret < 0)
		return 1;
	printf("capsicumd: %s %s\n",
	       ret ? "already loaded at" : "loaded and pinned at",
	       CAPSICUM_PIN_DIR);
	return 0;
}
