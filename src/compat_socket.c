/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sockets of a QEMU box (qemubox.c): a client of its monitor's
 * unix-domain socket, and a free TCP port on 127.0.0.1 for its ssh.
 * Every system has <sys/un.h> and <netinet/in.h>; a file of its own
 * only because the NetBSD header sysroot that "make check-netbsd"
 * compiles against has neither, so the rest of qemubox.c is checked.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"

size_t
compat_unix_path_max(void)
{
	struct sockaddr_un sun;

	return sizeof(sun.sun_path) - 1;
}

int
compat_unix_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd, e;

	if (strlen(path) > compat_unix_path_max()) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
compat_free_tcp_port(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, port = -1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(fd);
	return port;
}
