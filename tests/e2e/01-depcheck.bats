#!/usr/bin/env bats
# scripts/depcheck.py on small trees of sources and objects made here, not
# on the real one: each rule it checks fails on a deliberately wrong use.

load helper

setup() {
	setup_world
}

# unit FILE.c 'C TEXT': writes src/FILE.c and compiles it to obj/FILE.o
unit() {
	mkdir -p "src/$(dirname "$1")" "obj/$(dirname "$1")"
	printf '%s\n' "$2" >"src/$1"
	cc -c -o "obj/${1%.c}.o" "src/$1"
}

depcheck() {
	run --separate-stderr python3 "$SRC_DIR/scripts/depcheck.py" obj src
}

@test "a use of a folder on a higher line fails, naming both objects" {
	unit util/a.c 'int b(void); int a(void); int a(void) { return b(); }'
	unit cmd/b.c 'int b(void); int b(void) { return 1; }'
	depcheck
	assert_failure 1
	assert_line 'upward: util/a.o -> cmd/b.o: util may not use cmd (b)'
	assert_line --partial 'depcheck: 2 objects, 1 edges, 0 cycles, 1 upward'
	[ -z "$stderr" ]
}

@test "import may use util only: io is its peer, and the fuzz build's" {
	unit import/jfr.c 'int proc_run(void); int f(void); int f(void) { return proc_run(); }'
	unit io/proc.c 'int proc_run(void); int proc_run(void) { return 0; }'
	depcheck
	assert_failure 1
	assert_line 'upward: import/jfr.o -> io/proc.o: import may not use io, its peer (proc_run)'
	assert_line 'fuzz: io/proc.o is outside import/ and util/ via import/jfr.o -> io/proc.o'
}

@test "an include of a higher folder's header fails though no symbol shows it" {
	mkdir -p src/core/views src/core/records obj/core/records
	printf '#define WIDTH 16\n' >src/core/views/status.h
	printf '#include "core/views/status.h"\nchar name[WIDTH];\n' \
		>src/core/records/pr.c
	cc -c -Isrc -o obj/core/records/pr.o src/core/records/pr.c
	depcheck
	assert_failure 1
	assert_line 'include: core/records/pr.c:1: core/records may not include core/views/status.h'
	assert_line --partial ', 0 upward references, 1 upward includes,'
}

@test "two files of one folder that use each other are a cycle" {
	unit util/x.c 'int y(void); int x(void); int x(void) { return y(); }'
	unit util/y.c 'int x(void); int y(void); int y(void) { return x(); }'
	depcheck
	assert_failure 1
	assert_line 'cycle: util/x.o -> util/y.o -> util/x.o'
	refute_line --partial 'upward:'
	assert_line --partial ', 1 cycles, 0 upward references,'
}

@test "uses of lower lines and owned SQL pass; stale objects are ignored" {
	unit util/a.c 'int a(void); int a(void) { return 1; }'
	unit cmd/b.c 'int a(void); int b(void); int b(void) { return a(); }'
	unit core/records/pr.c 'const char *q = "SELECT number FROM pr";'
	unit core/stack/graph.c '/* SELECT number FROM pr */ const char *s = "from pr";'
	# left by a move: no source any more, and it would make a cycle
	cc -c -o obj/util/old.o -x c - <<<'int b(void); int a(void) { return b(); }'
	depcheck
	assert_success
	assert_output 'depcheck: 4 objects, 1 edges, 0 cycles, 0 upward references, 0 upward includes, 0 misplaced SQL, 0 unplaced objects, 0 link-closure violations'
	[ -z "$stderr" ]
}

@test "SQL naming pr outside core/records/pr.c fails, joined literals too" {
	mkdir -p obj src/core/stack
	printf '%s\n' 'const char *q =' '    "SELECT number"' \
		'    " FROM pr WHERE branch = ?1";' >src/core/stack/graph.c
	depcheck
	assert_failure 1
	assert_line "sql: core/stack/graph.c:2: table 'pr' belongs to core/records/pr.c"
	assert_line --partial ', 1 misplaced SQL,'
}

@test "libgit2 in the hook's link closure fails, with the path to it" {
	unit hook-main.c 'int check(void); int main(void) { return check(); }'
	unit core/hooks/check.c 'int git_repository_open(void); int check(void); int check(void) { return git_repository_open(); }'
	depcheck
	assert_failure 1
	assert_line 'hook: core/hooks/check.o needs libgit2 (git_repository_open) via hook-main.o -> core/hooks/check.o'
}

@test "a file directly under core/ is in no domain folder" {
	unit core/stack.c 'int stack(void); int stack(void) { return 0; }'
	depcheck
	assert_failure 1
	assert_line 'unplaced: core/stack.o: not in a domain folder'
}
