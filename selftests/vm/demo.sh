#!/bin/sh
# `make run`: capsicumd was started at boot by its init script; sandbox a
# program with capctl run, and another in capability mode, show what
# capctl sees, and learn a policy. The program is the selftests' waiter:
# it says it runs on a pipe, then waits for stdin's EOF.
set -e
# capctl commands below show their output even when they report trouble.
echo "demo: capsicumd: $(/etc/init.d/capsicumd status)"
echo capsicum >/tmp/demo-file
mkfifo /tmp/demo-ready /tmp/demo-stdin
# stdout limited to CAP_WRITE, fd 3 (a file) to CAP_READ|CAP_SEEK.
capctl run --limit 1=write --limit 3=read,seek -- waiter 4 \
	</tmp/demo-stdin 3</tmp/demo-file 4>/tmp/demo-ready &
pid=$!
exec 5>/tmp/demo-stdin
# One byte on the pipe: capctl has exec'd the sandboxed waiter.
head -c 1 /tmp/demo-ready >/dev/null
# A second sandbox in capability mode: busybox's shell, with one
# directory (fd 3) it may look up and read in; it waits for stdin's EOF.
mkdir /tmp/demo-dir
mkfifo /tmp/demo-ready2 /tmp/demo-stdin2
capctl run --capmode --allow-dir /tmp/demo-dir=lookup,read,fstat -- \
	/bin/busybox sh -c 'echo r >&6; read x || exit 0' \
	</tmp/demo-stdin2 6>/tmp/demo-ready2 5>&- &
cpid=$!
exec 7>/tmp/demo-stdin2
head -c 1 /tmp/demo-ready2 >/dev/null
echo "demo: \$ capctl status"
capctl status || echo "demo: capctl status exited $?"
echo "demo: \$ capctl ps"
capctl ps
echo "demo: \$ capctl fds $pid"
capctl fds "$pid"
echo "demo: \$ capctl --json fds $pid"
capctl --json fds "$pid"
echo "demo: \$ capctl fds $cpid"
capctl fds "$cpid"
exec 5>&- 7>&-
wait "$pid" "$cpid"
# Learning: busybox's shell under capability mode reads a file by its
# absolute path; the refusals are recorded, then allowed, and capctl
# suggests the command line that lets that run through.
echo "demo: \$ capctl run --learn --capmode -- busybox sh -c 'cat /tmp/demo-file'"
capctl run --learn --capmode -- /bin/busybox sh -c 'cat /tmp/demo-file'
echo "demo: done"
