// SPDX-License-Identifier: BSD-2-Clause
/*
 * Placeholder system-call layer: every entry point fails with ENOSYS until
 * the control plane lands, so callers see "not implemented" rather than a
 * limit that silently did nothing.  cap_sandboxed() says false because
 * nothing here can have put the process in capability mode.
 */
#include <errno.h>

#include <sys/capsicum.h>

int cap_rights_limit(int fd, const cap_rights_t *rights)
{
	(void)fd;
	(void)rights;
	errno = ENOSYS;
	return -1;
}

int __cap_rights_get(int version, int fd, cap_rights_t *rights)
{
	(void)version;
	(void)fd;
	(void)rights;
	errno = ENOSYS;
	return -1;
}

int cap_fcntls_limit(int fd, uint32_t fcntlrights)
{
	(void)fd;
	(void)fcntlrights;
	errno = ENOSYS;
	return -1;
}

int cap_fcntls_get(int fd, uint32_t *fcntlrightsp)
{
	(void)fd;
	(void)fcntlrightsp;
	errno = ENOSYS;
	return -1;
}

int cap_ioctls_limit(int fd, const cap_ioctl_t *cmds, size_t ncmds)
{
	(void)fd;
	(void)cmds;
	(void)ncmds;
	errno = ENOSYS;
	return -1;
}

ssize_t cap_ioctls_get(int fd, cap_ioctl_t *cmds, size_t maxcmds)
{
	(void)fd;
	(void)cmds;
	(void)maxcmds;
	errno = ENOSYS;
	return -1;
}

int cap_enter(void)
{
	errno = ENOSYS;
	return -1;
}

int cap_getmode(unsigned int *modep)
{
	(void)modep;
	errno = ENOSYS;
	return -1;
}

bool cap_sandboxed(void)
{
	return false;
}
