# Capsicum for Linux on BPF-LSM. One non-recursive Makefile; every output
# goes under $(O). See README.md for the targets.

O ?= build
CC := gcc
CLANG ?= clang
BPFTOOL ?= bpftool
KERNEL ?= 6.12
# The stock kernels of the test matrix (selftests/vm/kernels.txt).
STOCK_KERNELS := 6.1 6.12
VM_TIMEOUT ?= 900

WARN := -Wall -Wextra -Werror
# No checkout path in the binaries (debug info, the BTF of the embedded BPF
# object): a clone elsewhere builds the same bytes, so the VM images and
# the benchmark's numbers are the same there.
REPRO := -ffile-prefix-map=$(CURDIR)=.
CFLAGS := -std=gnu11 -O2 -g $(WARN) $(REPRO) -Iinclude -I$(O)/bpf -MMD -MP
# BPF_PROG hands every program an unused ctx argument.
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 $(WARN) $(REPRO) \
	-Wno-unused-parameter -Ivmlinux -Iinclude -MMD -MP

LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(LIB_SRCS))
BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(O)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS := $(BPF_OBJS:.bpf.o=.skel.h)
# Tests run in link order, the daemon's last, but none depends on it: the
# ones that need Capsicum unloaded unload it themselves (fixture_unload).
SELFTEST_SRCS := $(filter-out selftests/test_daemon.c,$(wildcard selftests/*.c)) \
	selftests/test_daemon.c
SELFTEST_OBJS := $(patsubst %.c,$(O)/%.o,$(SELFTEST_SRCS))
TEST_SRCS := $(wildcard tests/*.c)
TEST_OBJS := $(patsubst %.c,$(O)/%.o,$(TEST_SRCS))

LIBCAPSICUM_A := $(O)/libcapsicum.a
LIBCAPSICUM_SO := $(O)/libcapsicum.so.0
SELFTESTS := $(O)/selftests/capsicum_selftests
UNIT_TESTS := $(O)/tests/unit_tests
CAPSICUMD := $(O)/daemon/capsicumd
DAEMON_SRCS := $(wildcard daemon/*.c)
DAEMON_OBJS := $(patsubst %.c,$(O)/%.o,$(DAEMON_SRCS))
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(patsubst %.c,$(O)/%.o,$(CLI_SRCS))
CAPCTL := $(O)/cli/capctl
# What capctl shares with capsicumd: the audit line, the counters, the hash.
CAPCTL_DAEMON_OBJS := $(addprefix $(O)/daemon/,audit_line.o counters.o load.o)
# Logic the host unit tests exercise without BPF.
UNIT_PURE_OBJS := $(addprefix $(O)/cli/,args.o json.o fmt.o resolve.o) \
	$(addprefix $(O)/daemon/,audit_line.o log.o ratelimit.o notify.o) \
	$(O)/selftests/run_child.o
RUNAS := $(O)/selftests/vm/runas
WAITER := $(O)/selftests/vm/waiter
CAPINFO := $(O)/selftests/vm/capinfo
INITRAMFS := $(O)/vm/initramfs.cpio
RIGHTS_TABLE := $(O)/tests/freebsd_rights_table.h

# BPF objects are inputs of the skeletons; keep them for inspection.
.SECONDARY: $(BPF_OBJS)

.PHONY: all deps test test-unit selftest run vmlinux clean bench
all: $(LIBCAPSICUM_A) $(LIBCAPSICUM_SO) $(SKELS) $(CAPSICUMD) $(CAPCTL) $(SELFTESTS) \
	$(UNIT_TESTS) $(INITRAMFS)

deps:
	O=$(abspath $(O)) scripts/deps.sh

# --- libcapsicum ------------------------------------------------------------
$(O)/lib/%.o: lib/%.c | $(O)/lib
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(LIBCAPSICUM_A): $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(LIBCAPSICUM_SO): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,libcapsicum.so.0 -o $@ $^
	ln -sf libcapsicum.so.0 $(O)/libcapsicum.so

# --- BPF programs and their skeletons ---------------------------------------
$(O)/bpf/%.bpf.o: bpf/%.bpf.c vmlinux/vmlinux.h | $(O)/bpf
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(O)/bpf/%.skel.h: $(O)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(notdir $(<:.bpf.o=_bpf)) >$@.tmp
	mv $@.tmp $@

# --- capsicumd ---------------------------------------------------------------
$(O)/daemon/%.o: daemon/%.c | $(O)/daemon $(SKELS)
	$(CC) $(CFLAGS) -c $< -o $@

$(CAPSICUMD): $(DAEMON_OBJS) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

# --- capctl -------------------------------------------------------------------
$(O)/cli/%.o: cli/%.c | $(O)/cli $(SKELS)
	$(CC) $(CFLAGS) -Idaemon -c $< -o $@

$(CAPCTL): $(CLI_OBJS) $(CAPCTL_DAEMON_OBJS) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

# --- unit tests (host, criterion) -------------------------------------------
$(RIGHTS_TABLE): tests/gen_rights_table.sh tests/data/freebsd14-rights.tsv | $(O)/tests
	sh tests/gen_rights_table.sh tests/data/freebsd14-rights.tsv >$@.tmp
	mv $@.tmp $@

$(O)/tests/%.o: tests/%.c $(RIGHTS_TABLE) | $(O)/tests
	$(CC) $(CFLAGS) -I$(O)/tests -Icli -Idaemon -Iselftests -c $< -o $@

$(UNIT_TESTS): $(TEST_OBJS) $(UNIT_PURE_OBJS) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lcriterion

# The matrix check runs `capsicum_selftests --list` on the host, so every
# run of the unit tests needs the selftest binary built first.
$(O)/tests/test_matrix.o: CFLAGS += -DSELFTESTS_BIN='"$(abspath $(SELFTESTS))"' \
	-DMATRIX_DOC='"$(abspath doc/enforcement.md)"'

# --- VM selftests -----------------------------------------------------------
$(O)/selftests/%.o: selftests/%.c | $(O)/selftests $(SKELS)
	$(CC) $(CFLAGS) -c $< -o $@

$(SELFTESTS): $(SELFTEST_OBJS) $(O)/daemon/load.o $(O)/daemon/pinned.o $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz -lpthread

# The selftests load through the daemon's loader, unchanged.
$(O)/selftests/%.o: CFLAGS += -Idaemon

$(RUNAS): selftests/vm/runas.c | $(O)/selftests/vm
	$(CC) $(CFLAGS) -o $@ $<

$(WAITER): selftests/vm/waiter.c | $(O)/selftests/vm
	$(CC) $(CFLAGS) -o $@ $<

# Static: it runs after an exec in capability mode, where no library loads.
$(CAPINFO): selftests/vm/capinfo.c $(LIBCAPSICUM_A) | $(O)/selftests/vm
	$(CC) $(CFLAGS) -static -o $@ $< $(LIBCAPSICUM_A)

$(INITRAMFS): selftests/vm/mkinitramfs.sh selftests/vm/init $(SELFTESTS) \
		$(RUNAS) $(WAITER) $(CAPINFO) $(CAPSICUMD) $(CAPCTL) daemon/capsicumd.init \
		selftests/vm/demo.sh | $(O)/vm
	selftests/vm/mkinitramfs.sh $@ -t daemon/capsicumd.init:/etc/init.d/capsicumd \
		-t selftests/vm/demo.sh:/usr/share/capsicum/demo.sh \
		-t $(CAPINFO):/bin/capinfo \
		$(SELFTESTS) $(RUNAS) $(WAITER) $(CAPSICUMD) $(CAPCTL)

# --- benchmarks (make bench; not part of make test) -------------------------
# The static exec target goes in with -t: it has no libraries to copy.
BENCH_SRCS := bench/capsicum_bench.c bench/ops.c bench/configs.c bench/floor.c
BENCH_OBJS := $(patsubst %.c,$(O)/%.o,$(BENCH_SRCS))
BENCH := $(O)/bench/capsicum_bench
BENCH_EXIT0 := $(O)/bench/bench_exit0
BENCH_INITRAMFS := $(O)/vm/bench-initramfs.cpio

$(O)/bench/%.o: bench/%.c | $(O)/bench $(SKELS)
	$(CC) $(CFLAGS) -Idaemon -c $< -o $@

$(BENCH): $(BENCH_OBJS) $(O)/daemon/load.o $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

$(BENCH_EXIT0): bench/exit0.c | $(O)/bench
	$(CC) -std=gnu11 -O2 $(WARN) -static -o $@ $<

$(BENCH_INITRAMFS): selftests/vm/mkinitramfs.sh selftests/vm/init $(BENCH) \
		$(BENCH_EXIT0) | $(O)/vm
	selftests/vm/mkinitramfs.sh $@ -t $(BENCH_EXIT0):/usr/bin/bench_exit0 $(BENCH)

bench: $(BENCH_INITRAMFS)
	O=$(abspath $(O)) bench/run.sh $(STOCK_KERNELS)

# --- running ----------------------------------------------------------------
test-unit: $(UNIT_TESTS) $(SELFTESTS)
	$(UNIT_TESTS) --jobs 2

selftest: $(INITRAMFS)
	O=$(abspath $(O)) VM_TIMEOUT=$(VM_TIMEOUT) selftests/vm/matrix.sh $(KERNEL)

# Boots the VM with capsicumd started at boot, sandboxes a demo program and
# shows capctl status and capctl fds of it.
run: $(INITRAMFS)
	O=$(abspath $(O)) selftests/vm/run-vm.sh --kernel $(KERNEL) --daemon \
		--root-only --timeout $(VM_TIMEOUT) -- sh /usr/share/capsicum/demo.sh

test: all
	$(UNIT_TESTS) --jobs 2
	O=$(abspath $(O)) VM_TIMEOUT=$(VM_TIMEOUT) selftests/vm/matrix.sh $(STOCK_KERNELS)

# Regenerates the committed CO-RE header from a kernel image's BTF.
vmlinux:
	scripts/vmlinux-h.sh $(if $(wildcard $(KERNEL)),$(KERNEL),$(O)/kernels/$(KERNEL)/vmlinuz) vmlinux/vmlinux.h

$(O)/lib $(O)/bpf $(O)/daemon $(O)/cli $(O)/tests $(O)/selftests $(O)/selftests/vm $(O)/vm \
		$(O)/bench:
	mkdir -p $@

# Keep the downloaded kernels and apt state: `make deps` is slow to redo.
clean:
	find $(O) -mindepth 1 -maxdepth 1 ! -name kernels ! -name apt \
		-exec rm -rf {} +

-include $(LIB_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(DAEMON_OBJS:.o=.d) $(CLI_OBJS:.o=.d) \
	$(SELFTEST_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(BENCH_OBJS:.o=.d)
