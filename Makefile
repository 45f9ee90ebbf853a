# git-campaign: GNU make only.  `make` builds build/git-campaign and its man
# pages; `make check` installs what is missing and runs every test; see
# README.md.  V=1 shows the full commands.

VERSION := $(shell cat VERSION)
# the build's own version, with the commit (scripts/version.sh): only
# --version prints it, so only main.o and hook-main.o are rebuilt when it
# changes (the programs are linked aside and renamed into place, so that a
# test running them never sees half a file)
BUILD_VERSION := $(shell sh scripts/version.sh)
PREFIX ?= /usr/local
BUILD ?= build
BIN := $(BUILD)/git-campaign
# what installed hooks run: linked with sqlite only, never libgit2 or
# libcurl, whose loading alone costs a commit ~10 ms (see src/hook-main.c)
HOOK_BIN := $(BUILD)/git-campaign-hook
PROVE_JOBS ?= 2

# pkg-config name -> the Debian package that provides it
PKGS := libgit2 libcurl libcjson sqlite3
deb.libgit2 := libgit2-dev
deb.libcurl := libcurl4-openssl-dev
deb.libcjson := libcjson-dev
deb.sqlite3 := libsqlite3-dev
deb.cmocka := libcmocka-dev

WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wvla -Wundef
# developer and CI builds fail on warnings; WERROR=0 for distribution builds
WERROR ?= 1
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif

CFLAGS ?= -O2 -g
ifeq ($(SAN),1)
CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

LDFLAGS += -Wl,--as-needed

ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARNINGS) $(CFLAGS) \
	-Isrc -DGCAMP_VERSION='"$(VERSION)"' -MMD -MP $(PKG_CFLAGS)

# Goals that must work before the libraries are installed do not look
# them up: they run `make deps` first and then call make again.
NOCONF_GOALS := deps deps-lint check demo asan clean lint
ifneq ($(filter-out $(NOCONF_GOALS),$(or $(MAKECMDGOALS),all)),)
need-pkg = $(if $(shell pkg-config --exists $(1) && echo y),,$(error \
	pkg-config cannot find '$(1)': install the Debian package \
	$(deb.$(1)), or run 'make deps'))
$(foreach p,$(PKGS),$(call need-pkg,$(p)))
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libcurl is only compiled against: src/io/http.c loads it with dlopen, as
# linking it would cost every process start (status, hooks) ~13 ms.
# libgit2 with what it needs, and sqlite, are linked statically (the Debian
# -dev packages ship every archive but GSSAPI's): a start then maps 3 shared
# objects instead of 21, which halves the cost of `status`; src/libgit2-stubs.c,
# linked with libgit2, holds the stand-ins this takes
SQLITE_LIBS := -Wl,-Bstatic -lsqlite3 -Wl,-Bdynamic -ldl -pthread
# zlib, static too, for the hook binary's reads of commits (src/io/gitobj.c)
ZLIB_LIBS := -Wl,-Bstatic -lz -Wl,-Bdynamic
PKG_LIBS := $(shell pkg-config --libs libcjson) $(SQLITE_LIBS) -lm
endif
GIT_LIBS := $(BUILD)/obj/libgit2-stubs.o \
	-Wl,--wrap=git_mbedtls_stream_global_init \
	-Wl,--wrap=git_transport_ssh_global_init \
	-Wl,--wrap=git_mbedtls_stream_new -Wl,--wrap=git_mbedtls_stream_wrap \
	-Wl,--wrap=git_smart_subtransport_ssh -Wl,-Bstatic -lgit2 \
	-lmbedtls -lmbedx509 -lmbedcrypto -lhttp_parser -lssh2 -lcrypto \
	-lpcre2-8 -lz -Wl,-Bdynamic -ldl -pthread

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

SRCS := $(sort $(wildcard src/*/*.c src/*/*/*.c))
# the built-in templates (src/util/template.h), compiled into the binary
TEMPLATES := $(sort $(wildcard templates/*.md))
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/templates.o
LIB := $(BUILD)/libgcamp.a
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
MAN_SRCS := $(sort $(wildcard man/*.scd))
MANS := $(MAN_SRCS:man/%.scd=$(BUILD)/man/%)

.PHONY: all deps deps-lint check test demo asan install uninstall lint clean man unit \
	fuzz fuzz-long depcheck compile_commands
.DELETE_ON_ERROR:

all: $(BIN) $(HOOK_BIN) man

man: $(MANS)

$(BUILD)/gen/build-version: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD_VERSION)' | cmp -s - $@ || echo '$(BUILD_VERSION)' >$@
$(BUILD)/obj/main.o $(BUILD)/obj/hook-main.o: $(BUILD)/gen/build-version
$(BUILD)/obj/main.o $(BUILD)/obj/hook-main.o: \
	ALL_CFLAGS += -DGCAMP_BUILD='"$(BUILD_VERSION)"'
.PHONY: FORCE

$(BIN): $(BUILD)/obj/main.o $(LIB) $(BUILD)/obj/libgit2-stubs.o
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@.tmp $(BUILD)/obj/main.o $(LIB) \
		$(GIT_LIBS) $(PKG_LIBS) && mv -f $@.tmp $@

$(HOOK_BIN): $(BUILD)/obj/hook-main.o $(LIB)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@.tmp $^ $(SQLITE_LIBS) $(ZLIB_LIBS) -lm && mv -f $@.tmp $@

$(LIB): $(OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/gen/templates.c: $(TEMPLATES) scripts/embed-templates.sh
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)sh scripts/embed-templates.sh $(TEMPLATES) > $@

$(BUILD)/obj/gen/templates.o: $(BUILD)/gen/templates.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB) $(BUILD)/obj/libgit2-stubs.o
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) -o $@ \
		$< $(LIB) $(LDFLAGS) $(GIT_LIBS) $(PKG_LIBS) \
		$(or $(shell pkg-config --libs cmocka),$(error install \
		$(deb.cmocka), or run 'make deps'))

$(BUILD)/man/%: man/%.scd
	@mkdir -p $(@D)
	$(call say,SCDOC,$<)
	$(Q)command -v scdoc >/dev/null || { echo "scdoc is missing:" \
		"install the Debian package scdoc, or run 'make deps'" >&2; \
		exit 1; }
	$(Q)scdoc < $< > $@

# stand-ins for libcuda.so.1 (tests/stub/libcuda.c), built without the
# sanitizers: a plain shared object loads into any build of the tool
STUB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra \
	-Werror -shared -fPIC -fvisibility=hidden
STUBS := $(BUILD)/tests/stub/libcuda.so.1 \
	$(BUILD)/tests/stub/legacy/libcuda.so.1

$(BUILD)/tests/stub/libcuda.so.1: tests/stub/libcuda.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(STUB_CFLAGS) -o $@ $<

$(BUILD)/tests/stub/legacy/libcuda.so.1: tests/stub/libcuda.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(STUB_CFLAGS) -DSTUB_LEGACY_ONLY -o $@ $<

# test drivers (tests/driver/NAME.c): programs the e2e tests feed
DRIVERS := $(BUILD)/tests/ab-judge $(BUILD)/tests/ab-finish

$(DRIVERS): $(BUILD)/tests/%: tests/driver/%.c $(LIB) \
		$(BUILD)/obj/libgit2-stubs.o
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(GIT_LIBS) \
		$(PKG_LIBS)

unit: $(UNIT_BINS) $(STUBS) $(DRIVERS)

TEST_FILES := $(UNIT_BINS) $(sort $(wildcard tests/e2e/*.bats)) \
	tests/fuzz/run-corpus.sh
# T="stats 50-measure" runs only the tests whose path holds one of the words
ifneq ($(T),)
TEST_FILES := $(foreach f,$(TEST_FILES),$(if $(strip \
	$(foreach t,$(T),$(findstring $(t),$(f)))),$(f)))
endif

# Runs every test (unit, end-to-end, fuzz targets on their corpora) under
# prove; one summary.
test: all unit $(if $(filter tests/fuzz/%,$(TEST_FILES)),fuzz)
	$(Q)BIN_DIR=$(abspath $(BUILD)) MAN_DIR=$(abspath $(BUILD)/man) \
		SRC_DIR=$(CURDIR) CMOCKA_MESSAGE_OUTPUT=TAP \
		FUZZ_DIR=$(abspath $(FUZZ_DIR)) FUZZ_TARGETS="$(FUZZ_HAVE) template" \
		FUZZ_SKIPPED="$(filter-out $(FUZZ_HAVE),$(FUZZ_FORMATS))" \
		FUZZ_TIME=$(FUZZ_TIME) \
		prove -j$(PROVE_JOBS) --exec tests/tap-run $(TEST_FILES)

# Fuzzing: one libFuzzer binary per importer (-DFUZZ_FORMAT), and one for
# the template engine (util/template.c), built with clang and its sanitizers
# into build/fuzz from import/ and util/ alone: the importers are parsers
# over bytes that use util/ only, and run no program. `make check` runs each
# on tests/fuzz/corpus/NAME for FUZZ_TIME seconds (tests/fuzz/run-corpus.sh).
# A format with no row in import_formats[] yet is skipped, by name.
FUZZ_FORMATS := ncu nsys jfr hyperfine junit tornado-test benchmark-runner llm
FUZZ_CC ?= clang
FUZZ_TIME ?= 4
FUZZ_DIR := build/fuzz
FUZZ_SAN := address,undefined
FUZZ_HAVE := $(foreach f,$(FUZZ_FORMATS),$(if $(shell grep -s -E \
	'^[[:space:]]*\{"$(f)",' src/import/formats.c),$(f)))
FUZZ_SRCS := $(sort $(wildcard src/import/*.c src/util/*.c))
FUZZ_OBJS := $(FUZZ_SRCS:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BINS := $(FUZZ_HAVE:%=$(FUZZ_DIR)/fuzz-%) $(FUZZ_DIR)/fuzz-template
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L \
	$(filter-out -Werror,$(WARNINGS)) -O1 -g -fno-omit-frame-pointer \
	-fsanitize=$(FUZZ_SAN) -fno-sanitize-recover=all -Isrc -MMD -MP \
	$(PKG_CFLAGS)

fuzz: $(FUZZ_BINS)
	$(if $(filter-out $(FUZZ_HAVE),$(FUZZ_FORMATS)),@printf '  %-6s %s\n' \
		SKIP "$(filter-out $(FUZZ_HAVE),$(FUZZ_FORMATS)) (not in \
		import_formats[])")

# Fails loudly, with the packages to install, when clang or its libFuzzer
# runtime is missing.
$(FUZZ_DIR)/toolchain.ok:
	@mkdir -p $(@D)
	$(Q)command -v $(FUZZ_CC) >/dev/null || { echo "fatal: $(FUZZ_CC)" \
		"is missing: install the Debian packages clang and" \
		"libclang-rt-dev, or run 'make deps'" >&2; exit 1; }
	$(Q)printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
		'{ return (int)(d && n > 99); }' > $(@D)/probe.c
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) -o $(@D)/probe \
		$(@D)/probe.c || { echo "fatal: $(FUZZ_CC) cannot link a" \
		"libFuzzer target: install the Debian package" \
		"libclang-rt-dev, or run 'make deps'" >&2; exit 1; }
	$(Q)touch $@

$(FUZZ_DIR)/obj/%.o: src/%.c | $(FUZZ_DIR)/toolchain.ok
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/libimport.a: $(FUZZ_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# the template engine: a repository's templates are input too
$(FUZZ_DIR)/fuzz-template: tests/fuzz/fuzz_template.c $(FUZZ_DIR)/libimport.a
	$(call say,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
		-MF $(FUZZ_DIR)/obj/fuzz-template.d -o $@ $< \
		$(FUZZ_DIR)/libimport.a $(shell pkg-config --libs libcjson) -lm

$(FUZZ_DIR)/fuzz-%: tests/fuzz/fuzz_import.c $(FUZZ_DIR)/libimport.a
	$(call say,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_FORMAT='"$*"' \
		-MF $(FUZZ_DIR)/obj/fuzz-$*.d -o $@ $< $(FUZZ_DIR)/libimport.a \
		$(shell pkg-config --libs libcjson) -lm

# The long run: every target FUZZ_LONG seconds (default 180), no input over
# one second; new inputs that add coverage are merged into the corpus by hand
# (build/fuzz/fuzz-NAME -merge=1 tests/fuzz/corpus/NAME NEW_DIR).
FUZZ_LONG ?= 180
fuzz-long: fuzz
	$(Q)FUZZ_DIR=$(abspath $(FUZZ_DIR)) SRC_DIR=$(CURDIR) \
		FUZZ_TARGETS="$(FUZZ_HAVE) template" FUZZ_TIME=$(FUZZ_LONG) \
		FUZZ_UNIT_TIMEOUT=1 sh tests/fuzz/run-corpus.sh

deps:
	$(Q)sh scripts/deps.sh

deps-lint:
	$(Q)sh scripts/deps.sh --lint

check: deps
	$(Q)$(MAKE) --no-print-directory test

# The crash-point harness in full: every kill point of every command it
# covers, 30 timed kills each (make check runs a sample: 96-crash.bats),
# then the concurrency scenarios for 50 rounds each (make check runs 3).
.PHONY: crash
crash: all
	$(Q)BIN_DIR=$(abspath $(BUILD)) tests/crash/crash.sh
	$(Q)BIN_DIR=$(abspath $(BUILD)) MAN_DIR=$(abspath $(BUILD)/man) \
		SRC_DIR=$(CURDIR) CONC_ROUNDS=50 \
		prove --exec tests/tap-run tests/e2e/97-concurrency.bats

asan: deps
	$(Q)ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(MAKE) --no-print-directory BUILD=build/asan SAN=1 test

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh examples/demo.sh $(abspath $(BIN))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/git-campaign
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/git-campaign
	install -m 755 $(HOOK_BIN) $(DESTDIR)$(PREFIX)/bin/git-campaign-hook
	install -m 644 $(filter %.1,$(MANS)) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(filter %.5,$(MANS)) $(DESTDIR)$(PREFIX)/share/man/man5
	install -D -m 644 contrib/completion/git-campaign.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/git-campaign
	install -D -m 644 contrib/completion/_git-campaign \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_git-campaign
	for d in hooks templates; do \
		[ -d $$d ] || continue; \
		(cd $$d && find . -type f) | while read -r f; do \
			install -D -m $$( [ -x $$d/$$f ] && echo 755 || echo 644 ) \
				$$d/$$f \
				$(DESTDIR)$(PREFIX)/share/git-campaign/$$d/$$f; \
		done; \
	done

# Removes exactly what install put, and the folders of its own that are
# then empty; the shared ones (bin, man1, ...) stay.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/git-campaign \
		$(DESTDIR)$(PREFIX)/bin/git-campaign-hook
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(notdir \
		$(filter %.1,$(MANS)))) \
		$(addprefix $(DESTDIR)$(PREFIX)/share/man/man5/,$(notdir \
		$(filter %.5,$(MANS))))
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/git-campaign \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_git-campaign
	for d in hooks templates; do \
		[ -d $$d ] || continue; \
		(cd $$d && find . -type f) | while read -r f; do \
			rm -f $(DESTDIR)$(PREFIX)/share/git-campaign/$$d/$$f; \
		done; \
		[ ! -d $(DESTDIR)$(PREFIX)/share/git-campaign/$$d ] || \
		find $(DESTDIR)$(PREFIX)/share/git-campaign/$$d -depth \
			-type d -empty -delete; \
	done
	[ ! -d $(DESTDIR)$(PREFIX)/share/git-campaign ] || \
		rmdir --ignore-fail-on-non-empty \
		$(DESTDIR)$(PREFIX)/share/git-campaign

FORMATTED := $(SRCS) $(wildcard src/*.c src/*/*.h src/*/*/*.h tests/unit/*.c \
	tests/unit/*.h tests/fuzz/*.c tests/stub/*.c tests/driver/*.c)
lint: deps-lint
	clang-format --dry-run --Werror $(FORMATTED)
	cppcheck --quiet --error-exitcode=1 --std=c11 --inline-suppr \
		--enable=warning,portability,performance \
		--suppress=missingIncludeSystem -Isrc src tests/unit
	$(Q)$(MAKE) --no-print-directory depcheck

# The dependency rule of the domain folders, the table owners and the link
# closures of the hook and the fuzz build, read from the objects as the
# linker sees them (scripts/depcheck.py)
TOP_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(wildcard src/*.c))
depcheck: $(LIB) $(TOP_OBJS)
	$(Q)python3 scripts/depcheck.py $(BUILD)/obj src

# for clangd and other tools: the pattern rule's command for each source
compile_commands:
	@mkdir -p $(BUILD)
	$(call say,GEN,$(BUILD)/compile_commands.json)
	$(Q)python3 scripts/compile-commands.py $(BUILD)/obj $(CC) \
		$(filter-out -MMD -MP,$(ALL_CFLAGS)) -- $(SRCS) \
		$(wildcard src/*.c) > $(BUILD)/compile_commands.json.tmp
	$(Q)mv $(BUILD)/compile_commands.json.tmp $(BUILD)/compile_commands.json

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(BUILD)/obj/main.d $(BUILD)/obj/hook-main.d $(BUILD)/obj/libgit2-stubs.d $(UNIT_BINS:=.d) \
	$(FUZZ_OBJS:.o=.d) $(FUZZ_HAVE:%=$(FUZZ_DIR)/obj/fuzz-%.d) \
	$(FUZZ_DIR)/obj/fuzz-template.d
