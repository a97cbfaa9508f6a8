# Capsicum for Linux on BPF-LSM. One non-recursive Makefile; every output
# goes under $(O). See README.md for the targets.

O ?= build
CC := gcc
CLANG ?= clang
BPFTOOL ?= bpftool
KERNEL ?= 6.12
# The stock kernels of the test matrix (selftests/vm/kernels.txt).
STOCK_KERNELS := 6.1 6.12
# Plus our patched 6.12 (kernel/), built by `make kernel`.
KERNELS := $(STOCK_KERNELS) patched
VM_TIMEOUT ?= 900
VERSION := 0.1.0

# make install: GNU-style directories, all overridable.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# systemd reads units from /usr/local/lib/systemd/system too.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# Init scripts are found in /etc/init.d only, whatever the prefix.
INITDIR ?= /etc/init.d

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
# Tests run in link order, the daemon's first, though none depends on it
# (the ones that need Capsicum unloaded unload it themselves,
# fixture_unload): capsicumd's audit tests then read a log the rest of the
# suite has not yet flooded with its denials (doc/daemon.md).
SELFTEST_SRCS := selftests/test_daemon.c \
	$(filter-out selftests/test_daemon.c,$(wildcard selftests/*.c))
SELFTEST_OBJS := $(patsubst %.c,$(O)/%.o,$(SELFTEST_SRCS))
TEST_SRCS := $(wildcard tests/*.c)
TEST_OBJS := $(patsubst %.c,$(O)/%.o,$(TEST_SRCS))

LIBCAPSICUM_A := $(O)/libcapsicum.a
LIBCAPSICUM_SO := $(O)/libcapsicum.so.0
# libcasper (casper/): its own library, as on FreeBSD, over libcapsicum.
CASPER_SRCS := $(wildcard casper/*.c)
CASPER_OBJS := $(patsubst %.c,$(O)/%.o,$(CASPER_SRCS))
LIBCASPER_A := $(O)/libcasper.a
LIBCASPER_SO := $(O)/libcasper.so.0
SELFTESTS := $(O)/selftests/capsicum_selftests
UNIT_TESTS := $(O)/tests/unit_tests
CAPSICUMD := $(O)/daemon/capsicumd
DAEMON_SRCS := $(wildcard daemon/*.c)
DAEMON_OBJS := $(patsubst %.c,$(O)/%.o,$(DAEMON_SRCS))
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(patsubst %.c,$(O)/%.o,$(CLI_SRCS))
CAPCTL := $(O)/cli/capctl
# What capsicumd, capctl, the selftests and the bench share (admin/):
# loading and pinning, the pinned state, counters, the audit line, the
# query protocol. A static library of the tree's own, never installed;
# each program links only the members it uses.
ADMIN_SRCS := $(wildcard admin/*.c)
ADMIN_OBJS := $(patsubst %.c,$(O)/%.o,$(ADMIN_SRCS))
LIBADMIN_A := $(O)/libcapsicum-admin.a
# Logic the host unit tests exercise without BPF.
UNIT_PURE_OBJS := $(addprefix $(O)/cli/,args.o json.o fmt.o policy.o run_line.o \
		learn.o learn_report.o) \
	$(addprefix $(O)/daemon/,log.o ratelimit.o notify.o) \
	$(addprefix $(O)/admin/,audit_line.o parse_num.o query.o resolve.o) \
	$(O)/selftests/run_child.o
RUNAS := $(O)/selftests/vm/runas
WAITER := $(O)/selftests/vm/waiter
CAPINFO := $(O)/selftests/vm/capinfo
INITRAMFS := $(O)/vm/initramfs.cpio
# make install's tree under $(O)/stage (same directories, DESTDIR=$(STAGE)):
# what the consumer test builds against through pkg-config, and the VM gets.
STAGE := $(abspath $(O))/stage
STAGE_STAMP := $(O)/stage.stamp
CAPH_CAT := $(O)/selftests/programs/caph_cat
# A supervisor polling process descriptors, built the same way, fortified
# (glibc's __poll_chk): selftests/test_procdesc.c and test-install run it.
PD_POLL := $(O)/selftests/programs/pd_poll
# The libcasper programs, built the same way, run by selftests/test_casper.c.
CASPER_PROGRAMS := $(addprefix $(O)/selftests/programs/,fa_wc fa_head net_client pwd_lookup \
	syslog_msg grp_lookup nv_pwd)
# capctl run --learn's selftest program: plain libc, nothing of ours.
LEARN_PROBE := $(O)/selftests/programs/learn_probe
RIGHTS_TABLE := $(O)/tests/freebsd_rights_table.h

# BPF objects are inputs of the skeletons; keep them for inspection.
.SECONDARY: $(BPF_OBJS)

.PHONY: all deps test test-unit selftest run vmlinux clean bench bpf-headers \
	install uninstall test-install installables deb kernel fuzz test-fuzz \
	doc-tables
all: $(LIBCAPSICUM_A) $(LIBCAPSICUM_SO) $(LIBCASPER_A) $(LIBCASPER_SO) $(SKELS) \
	$(CAPSICUMD) $(CAPCTL) $(SELFTESTS) $(UNIT_TESTS) $(CAPH_CAT) $(CASPER_PROGRAMS) \
	$(INITRAMFS)

deps:
	O=$(abspath $(O)) scripts/deps.sh

# --- libcapsicum ------------------------------------------------------------
$(O)/lib/%.o: lib/%.c | $(O)/lib
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(LIBCAPSICUM_A): $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The version script exports the installed headers' functions only; the
# tree's own programs that need internals link libcapsicum.a.
$(LIBCAPSICUM_SO): $(LIB_OBJS) lib/libcapsicum.map
	$(CC) -shared -Wl,-soname,libcapsicum.so.0 \
		-Wl,--version-script=lib/libcapsicum.map -o $@ $(LIB_OBJS)
	ln -sf libcapsicum.so.0 $(O)/libcapsicum.so

# --- the admin library --------------------------------------------------------
$(O)/admin/%.o: admin/%.c | $(O)/admin $(SKELS)
	$(CC) $(CFLAGS) -Iadmin -c $< -o $@

$(LIBADMIN_A): $(ADMIN_OBJS)
	rm -f $@ && ar rcs $@ $^

# --- libcasper ----------------------------------------------------------------
$(O)/casper/%.o: casper/%.c | $(O)/casper
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(LIBCASPER_A): $(CASPER_OBJS)
	rm -f $@ && ar rcs $@ $^

$(LIBCASPER_SO): $(CASPER_OBJS) casper/libcasper.map $(LIBCAPSICUM_SO)
	$(CC) -shared -Wl,-soname,libcasper.so.0 \
		-Wl,--version-script=casper/libcasper.map -o $@ $(CASPER_OBJS) \
		-L$(O) -lcapsicum
	ln -sf libcasper.so.0 $(O)/libcasper.so

# --- make install / uninstall ----------------------------------------------
# The headers a program of ours needs: FreeBSD's, the ABI <sys/capsicum.h>
# includes, and the rights-name extension. pins.h and fdtable_iter.h are
# the daemon's business and stay out.
PUBLIC_HEADERS := sys/capsicum.h sys/procdesc.h capsicum_helpers.h \
	capsicum/abi.h capsicum/rights_names.h linux/capsicum.h libcasper.h \
	casper/cap_fileargs.h casper/cap_net.h casper/cap_pwd.h casper/cap_grp.h \
	casper/cap_syslog.h casper/cap_dns.h sys/nv.h nv.h
MAN3 := $(wildcard doc/man/*.3)
MAN8 := $(wildcard doc/man/*.8)

# $(call install_to,ROOT): the whole installation under ROOT (DESTDIR).
# The .pc file, the unit and the init script name the directories of this
# installation, so they are written here, never built ahead.
define install_to
	install -d $(1)$(INCLUDEDIR)/sys $(1)$(INCLUDEDIR)/capsicum \
		$(1)$(INCLUDEDIR)/casper $(1)$(INCLUDEDIR)/linux $(1)$(LIBDIR) \
		$(1)$(PKGCONFIGDIR) $(1)$(BINDIR) $(1)$(SBINDIR) $(1)$(MANDIR)/man3 \
		$(1)$(MANDIR)/man8 $(1)$(SYSTEMDUNITDIR) $(1)$(INITDIR)
	for h in $(PUBLIC_HEADERS); do install -m 0644 include/$$h $(1)$(INCLUDEDIR)/$$h || exit 1; done
	install -m 0755 $(LIBCAPSICUM_SO) $(1)$(LIBDIR)/libcapsicum.so.0
	ln -sf libcapsicum.so.0 $(1)$(LIBDIR)/libcapsicum.so
	install -m 0644 $(LIBCAPSICUM_A) $(1)$(LIBDIR)/libcapsicum.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		lib/libcapsicum.pc.in >$(1)$(PKGCONFIGDIR)/libcapsicum.pc
	chmod 0644 $(1)$(PKGCONFIGDIR)/libcapsicum.pc
	install -m 0755 $(LIBCASPER_SO) $(1)$(LIBDIR)/libcasper.so.0
	ln -sf libcasper.so.0 $(1)$(LIBDIR)/libcasper.so
	install -m 0644 $(LIBCASPER_A) $(1)$(LIBDIR)/libcasper.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		casper/libcasper.pc.in >$(1)$(PKGCONFIGDIR)/libcasper.pc
	chmod 0644 $(1)$(PKGCONFIGDIR)/libcasper.pc
	install -m 0755 $(CAPCTL) $(1)$(BINDIR)/capctl
	install -m 0755 $(CAPSICUMD) $(1)$(SBINDIR)/capsicumd
	install -m 0644 $(MAN3) $(1)$(MANDIR)/man3
	install -m 0644 $(MAN8) $(1)$(MANDIR)/man8
	scripts/man-links.sh $(MAN3) | while read -r alias page; do \
		ln -sf $$page $(1)$(MANDIR)/man3/$$alias || exit 1; done
	sed 's|/usr/sbin/capsicumd|$(SBINDIR)/capsicumd|' daemon/capsicumd.service \
		>$(1)$(SYSTEMDUNITDIR)/capsicumd.service
	chmod 0644 $(1)$(SYSTEMDUNITDIR)/capsicumd.service
	sed 's|/usr/sbin/capsicumd|$(SBINDIR)/capsicumd|' daemon/capsicumd.init \
		>$(1)$(INITDIR)/capsicumd
	chmod 0755 $(1)$(INITDIR)/capsicumd
endef

# Removes what install_to installed, and the directories only it created.
define uninstall_from
	rm -f $(addprefix $(1)$(INCLUDEDIR)/,$(PUBLIC_HEADERS)) \
		$(1)$(LIBDIR)/libcapsicum.so.0 $(1)$(LIBDIR)/libcapsicum.so \
		$(1)$(LIBDIR)/libcapsicum.a $(1)$(PKGCONFIGDIR)/libcapsicum.pc \
		$(1)$(LIBDIR)/libcasper.so.0 $(1)$(LIBDIR)/libcasper.so \
		$(1)$(LIBDIR)/libcasper.a $(1)$(PKGCONFIGDIR)/libcasper.pc \
		$(1)$(BINDIR)/capctl $(1)$(SBINDIR)/capsicumd \
		$(addprefix $(1)$(MANDIR)/man3/,$(notdir $(MAN3))) \
		$(addprefix $(1)$(MANDIR)/man8/,$(notdir $(MAN8))) \
		$(1)$(SYSTEMDUNITDIR)/capsicumd.service $(1)$(INITDIR)/capsicumd
	scripts/man-links.sh $(MAN3) | while read -r alias page; do \
		rm -f $(1)$(MANDIR)/man3/$$alias; done
	-rmdir $(1)$(INCLUDEDIR)/capsicum $(1)$(INCLUDEDIR)/casper \
		$(1)$(INCLUDEDIR)/linux $(1)$(INCLUDEDIR)/sys 2>/dev/null
endef

INSTALL_INPUTS := $(LIBCAPSICUM_A) $(LIBCAPSICUM_SO) lib/libcapsicum.pc.in $(CAPCTL) \
	$(LIBCASPER_A) $(LIBCASPER_SO) casper/libcasper.pc.in \
	$(CAPSICUMD) $(addprefix include/,$(PUBLIC_HEADERS)) $(MAN3) $(MAN8) \
	daemon/capsicumd.service daemon/capsicumd.init scripts/man-links.sh

# What make install installs, built alone (debian/rules): no tests, no VM.
installables: $(INSTALL_INPUTS)

install: $(INSTALL_INPUTS)
	$(call install_to,$(DESTDIR))

uninstall:
	$(call uninstall_from,$(DESTDIR))

$(STAGE_STAMP): $(INSTALL_INPUTS)
	rm -rf $(STAGE)
	$(call install_to,$(STAGE))
	touch $@

# A FreeBSD-style program built as any user of the library would: only the
# staged tree and pkg-config, none of the tree's own flags or headers.
STAGE_PKG_CONFIG := PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$(STAGE)$(PKGCONFIGDIR) \
	PKG_CONFIG_SYSROOT_DIR=$(STAGE) pkg-config
$(CAPH_CAT): selftests/programs/caph_cat.c $(STAGE_STAMP) | $(O)/selftests/programs
	flags=$$($(STAGE_PKG_CONFIG) --cflags --libs libcapsicum) && \
		$(CC) -std=gnu11 -O2 $(WARN) $(REPRO) -o $@ $< $$flags

$(PD_POLL): selftests/programs/pd_poll.c $(STAGE_STAMP) | $(O)/selftests/programs
	flags=$$($(STAGE_PKG_CONFIG) --cflags --libs libcapsicum) && \
		$(CC) -std=gnu11 -O2 -D_FORTIFY_SOURCE=2 $(WARN) $(REPRO) -o $@ $< $$flags

$(LEARN_PROBE): selftests/programs/learn_probe.c | $(O)/selftests/programs
	$(CC) -std=gnu11 -O2 $(WARN) $(REPRO) -o $@ $<

$(CASPER_PROGRAMS): $(O)/selftests/programs/%: selftests/programs/%.c $(STAGE_STAMP) \
		| $(O)/selftests/programs
	flags=$$($(STAGE_PKG_CONFIG) --cflags --libs libcasper) && \
		$(CC) -std=gnu11 -O2 $(WARN) $(REPRO) -o $@ $< $$flags

# Installs are complete and reversible, man pages render cleanly, the
# shared library exports the headers' functions and nothing else, and the
# installed headers also build in strict ISO C and as C++.
test-install: $(STAGE_STAMP) $(CAPH_CAT) $(CASPER_PROGRAMS) $(PD_POLL)
	LD_LIBRARY_PATH=$(STAGE)$(LIBDIR) $(PD_POLL)
	scripts/check-exports.sh $(STAGE)$(INCLUDEDIR) $(STAGE)$(LIBDIR)/libcapsicum.so.0 \
		$(STAGE)$(LIBDIR)/libcasper.so.0
	printf '%s\n' '#include <capsicum_helpers.h>' '#include <sys/procdesc.h>' \
		'#include <capsicum/rights_names.h>' '#include <libcasper.h>' \
		'#include <casper/cap_fileargs.h>' '#include <casper/cap_net.h>' \
		'#include <casper/cap_pwd.h>' '#include <casper/cap_grp.h>' \
		'#include <casper/cap_syslog.h>' '#include <casper/cap_dns.h>' \
		'#include <linux/capsicum.h>' '#include <sys/nv.h>' '#include <nv.h>' \
		'int main(void) { caph_cache_tzdata(); return caph_enter(); }' \
		>$(O)/strict_headers.c
	flags=$$($(STAGE_PKG_CONFIG) --cflags libcapsicum) && \
		$(CC) -std=c11 -pedantic $(WARN) -fsyntax-only $$flags $(O)/strict_headers.c && \
		$(CC) -x c++ $(WARN) -fsyntax-only $$flags $(O)/strict_headers.c
	for m in $(STAGE)$(MANDIR)/man*/*; do \
		w=$$(MANWIDTH=80 man --warnings -l $$m 2>&1 >/dev/null); \
		[ -z "$$w" ] || { echo "$$m: $$w"; exit 1; }; done
	rm -rf $(O)/unstage && cp -a $(STAGE) $(O)/unstage
	$(call uninstall_from,$(abspath $(O))/unstage)
	left=$$(find $(O)/unstage ! -type d) && [ -z "$$left" ] || \
		{ echo "uninstall left: $$left"; exit 1; }
	@echo "test-install: install, man pages, exports, pkg-config consumer and uninstall ok"

# The Debian packages (debian/), built from a copy of the tree so that
# debian/rules clean does not wipe this build; lintian errors fail it.
DEB_DIR := $(O)/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	tar -cf - --exclude=./.git --exclude=./$(O) . | tar -xf - -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && dpkg-buildpackage -us -uc -b
	lintian --fail-on error $(DEB_DIR)/*.changes
	@ls $(DEB_DIR)/*.deb

# --- BPF programs and their skeletons ---------------------------------------
$(O)/bpf/%.bpf.o: bpf/%.bpf.c vmlinux/vmlinux.h | $(O)/bpf
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(O)/bpf/%.skel.h: $(O)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(notdir $(<:.bpf.o=_bpf)) >$@.tmp
	mv $@.tmp $@

# The object's hash for the version stamp, so that what only reads the
# pinned state (capctl) need not carry the object (admin/object_hash.c).
OBJECT_HASH_TOOL := $(O)/scripts/object_hash
$(OBJECT_HASH_TOOL): scripts/object_hash.c | $(O)/scripts
	$(CC) $(CFLAGS) -o $@ $<

$(O)/bpf/capsicum_object_hash.h: $(O)/bpf/capsicum.bpf.o $(OBJECT_HASH_TOOL)
	$(OBJECT_HASH_TOOL) $< CAPSICUM_OBJECT_HASH >$@.tmp
	mv $@.tmp $@

$(O)/admin/object_hash.o: $(O)/bpf/capsicum_object_hash.h

# --- capsicumd ---------------------------------------------------------------
$(O)/daemon/%.o: daemon/%.c | $(O)/daemon $(SKELS)
	$(CC) $(CFLAGS) -Iadmin -c $< -o $@

# The query socket answers with capctl's own reading of the pins
# (admin/state.c, admin/resolve.c).
$(CAPSICUMD): $(DAEMON_OBJS) $(LIBADMIN_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

# Second builds of capsicumd for the live-upgrade selftest
# (selftests/test_upgrade.c): the same sources, the BPF object built with
# -DCAPSICUM_BUILD_VARIANT=N (bpf/capsicum.bpf.c): 1 differs in its bytes
# only (another object hash, the same maps), 2 also grows the bss (a
# layout change an upgrade refuses). Only the loader, which embeds the
# object, is compiled again; the rest is the main build's.
VARIANTS := 1 2
CAPSICUMD_VARIANTS := $(foreach v,$(VARIANTS),$(O)/variant$(v)/capsicumd)
.SECONDARY: $(foreach v,$(VARIANTS),$(addprefix $(O)/variant$(v)/,bpf/capsicum.bpf.o \
	bpf/capsicum.skel.h bpf/capsicum_object_hash.h admin/load.o admin/upgrade.o \
	admin/object_hash.o))

$(O)/variant%/bpf/capsicum.bpf.o: bpf/capsicum.bpf.c vmlinux/vmlinux.h
	mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) -DCAPSICUM_BUILD_VARIANT=$* -c $< -o $@

$(O)/variant%/bpf/capsicum.skel.h: $(O)/variant%/bpf/capsicum.bpf.o
	$(BPFTOOL) gen skeleton $< name capsicum_bpf >$@.tmp
	mv $@.tmp $@

$(O)/variant%/bpf/capsicum_object_hash.h: $(O)/variant%/bpf/capsicum.bpf.o $(OBJECT_HASH_TOOL)
	$(OBJECT_HASH_TOOL) $< CAPSICUM_OBJECT_HASH >$@.tmp
	mv $@.tmp $@

$(O)/variant%/admin/load.o: admin/load.c $(O)/variant%/bpf/capsicum.skel.h
	mkdir -p $(dir $@)
	$(CC) -I$(O)/variant$*/bpf $(CFLAGS) -Iadmin -c $< -o $@

$(O)/variant%/admin/upgrade.o: admin/upgrade.c $(O)/variant%/bpf/capsicum.skel.h
	mkdir -p $(dir $@)
	$(CC) -I$(O)/variant$*/bpf $(CFLAGS) -Iadmin -c $< -o $@

$(O)/variant%/admin/object_hash.o: admin/object_hash.c $(O)/variant%/bpf/capsicum_object_hash.h
	mkdir -p $(dir $@)
	$(CC) -I$(O)/variant$*/bpf $(CFLAGS) -Iadmin -c $< -o $@

# The variant's members come before the archive, so its own stay out.
$(O)/variant%/capsicumd: $(DAEMON_OBJS) $(O)/variant%/admin/load.o \
		$(O)/variant%/admin/upgrade.o $(O)/variant%/admin/object_hash.o \
		$(LIBADMIN_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

# --- capctl -------------------------------------------------------------------
$(O)/cli/%.o: cli/%.c | $(O)/cli $(SKELS)
	$(CC) $(CFLAGS) -Iadmin -c $< -o $@

$(CAPCTL): $(CLI_OBJS) $(LIBADMIN_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

# --- unit tests (host, criterion) -------------------------------------------
$(RIGHTS_TABLE): tests/gen_rights_table.sh tests/data/freebsd14-rights.tsv | $(O)/tests
	sh tests/gen_rights_table.sh tests/data/freebsd14-rights.tsv >$@.tmp
	mv $@.tmp $@

# A unit test names the component it tests in its includes ("cli/args.h"),
# from the tree's root; only the admin library's directory is a path.
$(O)/tests/%.o: tests/%.c $(RIGHTS_TABLE) | $(O)/tests
	$(CC) $(CFLAGS) -I. -I$(O)/tests -Iadmin -c $< -o $@

$(O)/tests/test_object_hash.o: $(O)/bpf/capsicum_object_hash.h $(O)/bpf/capsicum.skel.h

# doc/enforcement.md's index of the operation table (tests/optable_doc.h):
# `make doc-tables` rewrites it between its markers; make test-unit fails
# while the doc's copy is stale.
OPTABLE_DOC := $(O)/scripts/optable-doc
$(OPTABLE_DOC): scripts/optable-doc.c tests/optable_doc.c tests/optable_doc.h \
		$(LIBCAPSICUM_A) | $(O)/scripts
	$(CC) $(CFLAGS) -I. -o $@ scripts/optable-doc.c tests/optable_doc.c $(LIBCAPSICUM_A)

doc-tables: $(OPTABLE_DOC) $(SELFTESTS)
	$(SELFTESTS) --list | $(OPTABLE_DOC) >$(O)/optable-index.md
	awk -v idx=$(O)/optable-index.md \
		'/^<!-- optable index end -->$$/ { while ((getline l <idx) > 0) print l; skip = 0 } \
		 !skip { print } /^<!-- optable index: / { skip = 1 }' \
		doc/enforcement.md >$(O)/enforcement.md.tmp
	mv $(O)/enforcement.md.tmp doc/enforcement.md

$(UNIT_TESTS): $(TEST_OBJS) $(UNIT_PURE_OBJS) $(LIBCASPER_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lcriterion

# The matrix check runs `capsicum_selftests --list` on the host, so every
# run of the unit tests needs the selftest binary built first.
$(O)/tests/test_matrix.o: CFLAGS += -DSELFTESTS_BIN='"$(abspath $(SELFTESTS))"' \
	-DMATRIX_DOC='"$(abspath doc/enforcement.md)"' \
	-DSECURITY_DOC='"$(abspath doc/security.md)"'
$(O)/tests/test_optable.o: CFLAGS += -DSELFTESTS_BIN='"$(abspath $(SELFTESTS))"' \
	-DMATRIX_DOC='"$(abspath doc/enforcement.md)"'

# --- fuzzing (doc/security.md, "Testing") -----------------------------------
# Host targets under libFuzzer, with ASan and UBSan: what capctl and
# capsicumd parse, and libcasper's wire format as a sandboxed program can
# write it. New inputs go to the build's corpus; tests/fuzz/*corpus is the
# committed seed corpus (and every input that once found a bug).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
# What make test gives each host fuzzer: well under a minute.
FUZZ_TEST_SECONDS ?= 30
FUZZ_PARSE := $(O)/tests/fuzz/fuzz_parse
FUZZ_PARSE_SRCS := tests/fuzz/fuzz_parse.c cli/args.c cli/json.c cli/policy.c \
	cli/run_line.c cli/fmt.c \
	$(filter-out daemon/capsicumd.c,$(DAEMON_SRCS)) $(ADMIN_SRCS) $(LIB_SRCS)
FUZZ_CASPER := $(O)/tests/fuzz/fuzz_casper_msg
FUZZ_CFLAGS := -std=gnu11 -g -O1 $(WARN) $(REPRO) -I. -Iinclude -I$(O)/bpf -Iadmin \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

$(FUZZ_PARSE): $(FUZZ_PARSE_SRCS) daemon/capsicumd.c $(SKELS) | $(O)/tests/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_PARSE_SRCS) -lbpf -lelf -lz

$(FUZZ_CASPER): tests/fuzz/fuzz_casper_msg.c casper/msg.c casper/msg.h | $(O)/tests/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_casper_msg.c casper/msg.c

# $(call run_fuzz,BINARY,SEEDS,SECONDS,EXTRA): a bounded run from the seed
# corpus; its log is kept, and shown if it finds something.
define run_fuzz
	mkdir -p $(1).corpus
	$(1) -max_total_time=$(3) -timeout=10 -rss_limit_mb=2048 $(4) \
		-artifact_prefix=$(1)- -print_final_stats=1 $(1).corpus $(2) \
		2>$(1).log || { tail -n 60 $(1).log; exit 1; }
	grep -E '^stat::number_of_executed_units|^Done' $(1).log
endef

# make test's share: each host fuzzer for FUZZ_TEST_SECONDS.
test-fuzz: $(FUZZ_PARSE) $(FUZZ_CASPER)
	$(call run_fuzz,$(FUZZ_PARSE),tests/fuzz/corpus,$(FUZZ_TEST_SECONDS),-dict=tests/fuzz/parse.dict)
	$(call run_fuzz,$(FUZZ_CASPER),tests/fuzz/casper-corpus,$(FUZZ_TEST_SECONDS),)

# On demand, longer: each host fuzzer for FUZZ_SECONDS.
fuzz: $(FUZZ_PARSE) $(FUZZ_CASPER)
	$(call run_fuzz,$(FUZZ_PARSE),tests/fuzz/corpus,$(FUZZ_SECONDS),-dict=tests/fuzz/parse.dict)
	$(call run_fuzz,$(FUZZ_CASPER),tests/fuzz/casper-corpus,$(FUZZ_SECONDS),)

# --- VM selftests -----------------------------------------------------------
$(O)/selftests/%.o: selftests/%.c | $(O)/selftests $(SKELS)
	$(CC) $(CFLAGS) -c $< -o $@

$(SELFTESTS): $(SELFTEST_OBJS) $(LIBADMIN_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz -lpthread

# The selftests load through capsicumd's loader (admin/load.c), unchanged.
$(O)/selftests/%.o: CFLAGS += -Iadmin

$(RUNAS): selftests/vm/runas.c | $(O)/selftests/vm
	$(CC) $(CFLAGS) -o $@ $<

$(WAITER): selftests/vm/waiter.c | $(O)/selftests/vm
	$(CC) $(CFLAGS) -o $@ $<

# Static: it runs after an exec in capability mode, where no library loads.
$(CAPINFO): selftests/vm/capinfo.c $(LIBCAPSICUM_A) | $(O)/selftests/vm
	$(CC) $(CFLAGS) -static -o $@ $< $(LIBCAPSICUM_A)

# The staged library goes where make install puts it; caph_cat finds it
# there through LD_LIBRARY_PATH, as the guest has no ld.so.cache. One zone
# file lets the tests check caph_cache_tzdata() with a real zone.
$(INITRAMFS): selftests/vm/mkinitramfs.sh selftests/vm/init $(SELFTESTS) \
		$(RUNAS) $(WAITER) $(CAPINFO) $(CAPSICUMD) $(CAPCTL) daemon/capsicumd.init \
		selftests/vm/demo.sh $(STAGE_STAMP) $(CAPH_CAT) $(PD_POLL) $(CASPER_PROGRAMS) \
		$(LEARN_PROBE) $(CAPSICUMD_VARIANTS) | $(O)/vm
	selftests/vm/mkinitramfs.sh $@ -t daemon/capsicumd.init:/etc/init.d/capsicumd \
		-t selftests/vm/demo.sh:/usr/share/capsicum/demo.sh \
		-t $(CAPINFO):/bin/capinfo \
		-t $(STAGE)$(LIBDIR)/libcapsicum.so.0:$(LIBDIR)/libcapsicum.so.0 \
		-t $(STAGE)$(LIBDIR)/libcasper.so.0:$(LIBDIR)/libcasper.so.0 \
		-t $(CAPH_CAT):/usr/libexec/capsicum/caph_cat \
		-t $(PD_POLL):/usr/libexec/capsicum/pd_poll \
		$(foreach p,$(CASPER_PROGRAMS),-t $(p):/usr/libexec/capsicum/$(notdir $(p))) \
		-t $(LEARN_PROBE):/usr/libexec/capsicum/learn_probe \
		-t /usr/share/zoneinfo/Europe/Berlin:/usr/share/zoneinfo/Europe/Berlin \
		$(foreach v,$(VARIANTS),-t $(O)/variant$(v)/capsicumd:/usr/bin/capsicumd-variant$(v)) \
		$(SELFTESTS) $(RUNAS) $(WAITER) $(CAPSICUMD) $(CAPCTL)

# --- benchmarks (make bench; not part of make test) -------------------------
# The static exec target goes in with -t: it has no libraries to copy.
BENCH_SRCS := bench/capsicum_bench.c bench/ops.c bench/configs.c bench/floor.c
BENCH_OBJS := $(patsubst %.c,$(O)/%.o,$(BENCH_SRCS))
BENCH := $(O)/bench/capsicum_bench
BENCH_EXIT0 := $(O)/bench/bench_exit0
BENCH_INITRAMFS := $(O)/vm/bench-initramfs.cpio

$(O)/bench/%.o: bench/%.c | $(O)/bench $(SKELS)
	$(CC) $(CFLAGS) -Iadmin -c $< -o $@

$(BENCH): $(BENCH_OBJS) $(LIBADMIN_A) $(LIBCAPSICUM_A)
	$(CC) -o $@ $^ -lbpf -lelf -lz

$(BENCH_EXIT0): bench/exit0.c | $(O)/bench
	$(CC) -std=gnu11 -O2 $(WARN) -static -o $@ $<

$(BENCH_INITRAMFS): selftests/vm/mkinitramfs.sh selftests/vm/init $(BENCH) \
		$(BENCH_EXIT0) | $(O)/vm
	selftests/vm/mkinitramfs.sh $@ -t $(BENCH_EXIT0):/usr/bin/bench_exit0 $(BENCH)

bench: $(BENCH_INITRAMFS) kernel
	O=$(abspath $(O)) bench/run.sh $(KERNELS)

# --- running ----------------------------------------------------------------
# Each bpf/*.bpf.h compiles on its own: it includes what it uses, so no
# header works only because of capsicum.bpf.c's include order. (Unused
# static functions are expected: a header serves the ones after it.)
BPF_HEADERS := $(wildcard bpf/*.bpf.h)
bpf-headers: $(BPF_HEADERS)
	@for h in $(BPF_HEADERS); do \
		printf '#include "%s"\n' "$$h" | \
		$(CLANG) $(BPF_CFLAGS) -Wno-unused-function -I. -fsyntax-only \
			-x c - -o /dev/null || { echo "$$h does not compile alone"; exit 1; }; \
	done

test-unit: $(UNIT_TESTS) $(SELFTESTS) bpf-headers test-install
	$(UNIT_TESTS) --jobs 2

selftest: $(INITRAMFS) $(if $(filter patched,$(KERNEL)),kernel)
	O=$(abspath $(O)) VM_TIMEOUT=$(VM_TIMEOUT) selftests/vm/matrix.sh $(KERNEL)

# Boots the VM with capsicumd started at boot, sandboxes a demo program and
# shows capctl status and capctl fds of it.
run: $(INITRAMFS)
	O=$(abspath $(O)) selftests/vm/run-vm.sh --kernel $(KERNEL) --daemon \
		--root-only --timeout $(VM_TIMEOUT) -- sh /usr/share/capsicum/demo.sh

test: all bpf-headers test-install test-fuzz deb kernel
	$(UNIT_TESTS) --jobs 2
	O=$(abspath $(O)) VM_TIMEOUT=$(VM_TIMEOUT) selftests/vm/matrix.sh $(KERNELS)

# The patched 6.12 (kernel/README): unpack, apply the series, configure,
# build; reused while its inputs are unchanged.
kernel:
	kernel/build.sh $(abspath $(O))
	kernel/check-nosecurity.sh $(abspath $(O))

# Regenerates the committed CO-RE header from a kernel image's BTF.
vmlinux:
	scripts/vmlinux-h.sh $(if $(wildcard $(KERNEL)),$(KERNEL),$(O)/kernels/$(KERNEL)/vmlinuz) vmlinux/vmlinux.h

$(O)/lib $(O)/admin $(O)/bpf $(O)/daemon $(O)/cli $(O)/tests $(O)/selftests $(O)/selftests/vm $(O)/vm \
		$(O)/bench $(O)/selftests/programs $(O)/casper $(O)/tests/fuzz $(O)/scripts:
	mkdir -p $@

# Keep the downloaded kernels and apt state: `make deps` is slow to redo.
clean:
	[ ! -d $(O) ] || find $(O) -mindepth 1 -maxdepth 1 ! -name kernels ! -name apt \
		-exec rm -rf {} +

-include $(LIB_OBJS:.o=.d) $(ADMIN_OBJS:.o=.d) $(CASPER_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(DAEMON_OBJS:.o=.d) $(CLI_OBJS:.o=.d) \
	$(SELFTEST_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(BENCH_OBJS:.o=.d) \
	$(foreach v,$(VARIANTS),$(O)/variant$(v)/bpf/capsicum.bpf.d $(O)/variant$(v)/admin/load.d \
		$(O)/variant$(v)/admin/upgrade.d $(O)/variant$(v)/admin/object_hash.d)
