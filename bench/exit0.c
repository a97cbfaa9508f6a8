// SPDX-License-Identifier: GPL-2.0
/* What the exec benchmark runs: a static binary, so no loader is timed. */
int main(void)
{
	return 0;
}
