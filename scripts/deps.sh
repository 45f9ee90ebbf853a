#!/bin/sh
# Installs the Debian packages that building and testing git-campaign need,
# only those that are missing, and says which.  Usage: deps.sh [--lint] [--bench]
set -eu

# clang and libclang-rt-dev (on Debian 12 it brings libclang-rt-14-dev, whose
# libclang_rt.fuzzer is the libFuzzer runtime) build the fuzz targets that
# make check runs.  The rest are the independent references the tests
# compare with: scipy for the statistics, the real producers of the files
# the importers read (pytest, bats, ctest, hyperfine, java + jfr), Debian's
# pre-commit framework for the hooks, strace for the crash-point harness,
# and headless Chromium for the report.
pkgs="gcc make pkg-config git perl ca-certificates
libgit2-dev libcurl4-openssl-dev libcjson-dev libsqlite3-dev
libcmocka-dev bats bats-assert bats-support bats-file
clang libclang-rt-dev
scdoc groff-base man-db sqlite3 python3
python3-scipy python3-pytest pre-commit hyperfine strace cmake
openjdk-17-jdk-headless chromium"
for arg in "$@"; do
	case "$arg" in
	--lint) pkgs="$pkgs clang-format cppcheck" ;;
	--bench) ;;
	*) echo "usage: deps.sh [--lint] [--bench]" >&2; exit 129 ;;
	esac
done

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "fatal: missing Debian packages:$missing" >&2
	echo "hint: run 'sudo apt-get install$missing' or 'sudo make deps'" >&2
	exit 128
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done"
