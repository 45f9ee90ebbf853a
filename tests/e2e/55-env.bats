#!/usr/bin/env bats
# git campaign env: the machine fingerprint, against this machine (no GPU)
# and against the stand-in libcuda.so.1 (tests/stub/libcuda.c) answering
# with an H200's values (tests/fixtures/nvidia-smi, tests/fixtures/cuda).

load helper

STUB="$BIN_DIR/tests/stub/libcuda.so.1"
LEGACY="$BIN_DIR/tests/stub/legacy/libcuda.so.1"
CSV="$SRC_DIR/tests/fixtures/nvidia-smi/h200-query-gpu.csv"
PROBE="$SRC_DIR/tests/fixtures/cuda/h200-driver-api-probe.txt"

setup() {
	setup_world
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG
	# a machine of files: CPU, OS, the NVIDIA driver, the GPU in sysfs
	ROOT="$WORLD/root"
	mkdir -p "$ROOT/proc/driver/nvidia" "$ROOT/etc" \
		"$ROOT/sys/bus/pci/devices/0000:00:06.0"
	printf 'processor\t: 0\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n' \
		>"$ROOT/proc/cpuinfo"
	printf 'NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n' \
		>"$ROOT/etc/os-release"
	# as an H200 machine with driver 580.159.04 had it, trailing blanks too
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \nGCC version:  gcc version 15.3.0 (GCC) \n' \
		>"$ROOT/proc/driver/nvidia/version"
	echo 0x2335 >"$ROOT/sys/bus/pci/devices/0000:00:06.0/device"
	export GIT_CAMPAIGN_SYSROOT="$ROOT"
	# a JDK that is only a release file, so no java runs
	mkdir -p "$WORLD/jdk"
	printf 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_RUNTIME_VERSION="21.0.5+11-LTS"\nJAVA_VERSION="21.0.5"\n' \
		>"$WORLD/jdk/release"
	export JAVA_HOME="$WORLD/jdk"
	export GIT_CAMPAIGN_LIBCUDA="$STUB"
	make_repo r
	cd r
}

# Debian's python3 (a python3 earlier on PATH may be a slow shim)
PY=$(command -v /usr/bin/python3 || command -v python3)

# jpy EXPR: EXPR (Python, the JSON document on stdin as d), printed as
# JSON unless it is a string
jpy() {
	"$PY" -c 'import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))' "$1"
}

# csv FIELD: the value of nvidia-smi's FIELD in the fixture
csv() {
	"$PY" -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
print(rows[1][rows[0].index(sys.argv[2])])' "$CSV" "$1"
}

env_json() {
	git campaign env --json "$@" >"$WORLD/env.json" || return
}

@test "env on this machine without a GPU says why, prints the rest, exit 0" {
	unset GIT_CAMPAIGN_SYSROOT
	export GIT_CAMPAIGN_LIBCUDA="$WORLD/none/libcuda.so.1"
	run --separate-stderr git campaign env
	assert_clean
	assert_line "gpu: none ($WORLD/none/libcuda.so.1: cannot open shared object file: No such file or directory)"
	model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1 | tr -s ' ')
	assert_line "$(printf '%-22s %s' cpu: "${model:-unknown}")"
	assert_line "$(printf '%-22s %s' 'cpu count:' "$(getconf _NPROCESSORS_ONLN)")"
	pretty=$(. /etc/os-release && echo "$PRETTY_NAME")
	assert_line "$(printf '%-22s %s' os: "$pretty")"
	k=$(uname -r)
	assert_line "$(printf '%-22s %s (%s)' kernel: "$k" "$(echo "$k" | grep -oE '^[0-9]+\.[0-9]+')")"
	assert_line "$(printf '%-22s %s' hostname: "$(uname -n)")"
	assert_line "$(printf '%-22s %s' libc: "glibc $(getconf GNU_LIBC_VERSION | cut -d' ' -f2)")"
	assert_line "$(printf '%-22s %s' jdk: 'Eclipse Adoptium 21.0.5 (from JAVA_HOME)')"
	assert_line "$(printf '%-22s %s' backend: none)"
	refute_line --partial 'libcuda:'
	env_json
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 0 ]
	[ "$(jpy '"gpu_models" in d["identity"]' <"$WORLD/env.json")" = false ]
	[ "$(jpy '"cuda_driver_api" in d["identity"]' <"$WORLD/env.json")" = false ]
	[[ "$(jpy 'd["info"]["gpu_error"]' <"$WORLD/env.json")" == *'cannot open shared object file'* ]]
}

@test "against the stand-in libcuda the GPU agrees with nvidia-smi" {
	run --separate-stderr git campaign env
	assert_clean
	assert_line "$(printf '%-22s %s' 'gpu 0:' "$(csv name)")"
	assert_line "$(printf '%-22s %s' '  uuid:' "$(csv uuid)")"
	assert_line "$(printf '%-22s %s' '  compute capability:' "$(csv compute_cap)")"
	assert_line "$(printf '%-22s %s' '  pci bus id:' "$(csv pci.bus_id)")"
	assert_line "$(printf '%-22s %s' 'nvidia driver:' "$(csv driver_version)")"
	assert_line "$(printf '%-22s %s' '  memory:' '150109880320 bytes (139.8 GiB)')"
	assert_line "$(printf '%-22s %s' '  sm count:' 132)"
	assert_line "$(printf '%-22s %s' 'cuda driver api:' 13000)"
	assert_line "$(printf '%-22s %s' libcuda: "$STUB")"
	refute_line --partial 'gpu: none'

	env_json
	gpu() { jpy "d['info']['gpus'][0]['$1']" <"$WORLD/env.json"; }
	[ "$(gpu name)" = "$(csv name)" ]
	[ "$(gpu uuid)" = "$(csv uuid)" ]
	[ "$(gpu compute_capability)" = "$(csv compute_cap)" ]
	[ "$(gpu pci_bus_id)" = "$(csv pci.bus_id)" ]
	[ "$(gpu pci_device_id)" = 0x2335 ]
	# the Driver API's own figures, from the probe on the same machine;
	# the legacy cuDeviceTotalMem would say 4294967295
	mem=$(sed -n 's/.* mem=\([0-9]*\) .*/\1/p' "$PROBE")
	[ "$mem" = 150109880320 ]
	[ "$(gpu memory_bytes)" = "$mem" ]
	[ "$(gpu sm_count)" = "$(sed -n 's/.* sms=\([0-9]*\) .*/\1/p' "$PROBE")" ]
	[ "$(jpy 'd["identity"]["cuda_driver_api"]' <"$WORLD/env.json")" = \
		"$(sed -n 's/^driver_api_version //p' "$PROBE")" ]
	[ "$(jpy 'd["identity"]["driver_version"]' <"$WORLD/env.json")" = "$(csv driver_version)" ]
	[ "$(jpy 'd["identity"]["gpu_models"]' <"$WORLD/env.json")" = '["NVIDIA H200"]' ]
	[ "$(jpy 'd["identity"]["gpu_pci_device_ids"]' <"$WORLD/env.json")" = '["0x2335"]' ]
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 1 ]
}

@test "a driver without the _v2 entry points is refused, never read through the legacy ABI" {
	export GIT_CAMPAIGN_LIBCUDA="$LEGACY"
	run --separate-stderr git campaign env
	assert_clean
	assert_line "gpu: none ($LEGACY: no entry point 'cuDeviceTotalMem_v2' (the driver is too old))"
	refute_output --partial 4294967295
	refute_line --partial 'gpu 0:'
}

@test "a failing cuInit is named, the rest is printed, exit 0" {
	export CUDA_STUB_INIT_ERROR=100
	run --separate-stderr git campaign env
	assert_clean
	assert_line 'gpu: none (cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected))'
	assert_line "$(printf '%-22s %s' cpu: 'AMD EPYC 7B13 64-Core Processor')"
	assert_line "$(printf '%-22s %s' 'nvidia driver:' 580.159.04)"
	env_json
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 0 ]
	# an error the driver cannot name is given by number
	CUDA_STUB_INIT_ERROR=999 run --separate-stderr git campaign env
	assert_clean
	assert_line 'gpu: none (cuInit failed: CUDA error 999)'
}

@test "two devices: both listed, counted in the identity" {
	export CUDA_STUB_DEVICES=2
	env_json
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 2 ]
	[ "$(jpy 'd["identity"]["gpu_models"]' <"$WORLD/env.json")" = '["NVIDIA H200", "NVIDIA H200"]' ]
	[ "$(jpy 'd["info"]["gpus"][1]["uuid"]' <"$WORLD/env.json")" = GPU-58061743-7616-6814-3c7c-7c16f42112d1 ]
	[ "$(jpy 'd["info"]["gpus"][1]["pci_bus_id"]' <"$WORLD/env.json")" = 00000000:00:07.0 ]
	# the second GPU has no sysfs entry here: no partial device id list
	[ "$(jpy '"gpu_pci_device_ids" in d["identity"]' <"$WORLD/env.json")" = false ]
	run git campaign env
	assert_line --regexp '^gpu 1: +NVIDIA H200$'
}

@test "--json holds exactly the identity keys, the info keys and the ref" {
	git config campaign.backend ptx
	env_json
	[ "$(jpy 'sorted(d)' <"$WORLD/env.json")" = '["id", "identity", "info", "ref", "v"]' ]
	[ "$(jpy 'sorted(d["identity"])' <"$WORLD/env.json")" = \
		'["backend", "cpu_model", "cuda_driver_api", "driver_version", "gpu_count", "gpu_models", "gpu_pci_device_ids", "jdk_vendor", "jdk_version", "kernel", "os"]' ]
	[ "$(jpy 'sorted(d["info"])' <"$WORLD/env.json")" = \
		'["cpu_count", "driver_version_text", "gpus", "hostname", "jdk_home", "jdk_runtime_version", "jdk_source", "kernel_release", "libc", "libcuda", "machine"]' ]
	[ "$(jpy 'sorted(d["info"]["gpus"][0])' <"$WORLD/env.json")" = \
		'["compute_capability", "index", "memory_bytes", "name", "pci_bus_id", "pci_device_id", "sm_count", "uuid"]' ]
	id=$(jpy 'd["id"]' <"$WORLD/env.json")
	[[ "$id" =~ ^[0-9a-f]{16}$ ]]
	[ "$(jpy 'd["ref"]' <"$WORLD/env.json")" = "refs/campaign/env/$id" ]
	[ "$(jpy 'd["identity"]["backend"]' <"$WORLD/env.json")" = ptx ]
	[ "$(jpy 'd["identity"]["jdk_vendor"]' <"$WORLD/env.json")" = 'Eclipse Adoptium' ]
	[ "$(jpy 'd["info"]["jdk_runtime_version"]' <"$WORLD/env.json")" = 21.0.5+11-LTS ]
	[ "$(jpy 'd["info"]["driver_version_text"]' <"$WORLD/env.json")" = \
		'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)' ]
	# the id is the SHA-256 of the identity's canonical JSON
	canon=$(jpy 'json.dumps(d["identity"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)' <"$WORLD/env.json")
	[ "$(printf '%s' "$canon" | sha256sum | cut -c1-16)" = "$id" ]
}

@test "the fingerprint is recorded in refs/campaign/env/<id> and the database" {
	env_json
	id=$(jpy 'd["id"]' <"$WORLD/env.json")
	[ "$(git cat-file -t "refs/campaign/env/$id")" = blob ]
	git cat-file -p "refs/campaign/env/$id" >"$WORLD/blob.json"
	[ "$(jpy 'd["id"]' <"$WORLD/blob.json")" = "$id" ]
	[ "$(jpy 'd["v"]' <"$WORLD/blob.json")" = 1 ]
	[ "$(jpy 'd["identity"]' <"$WORLD/blob.json")" = "$(jpy 'd["identity"]' <"$WORLD/env.json")" ]
	[ "$(jpy 'd["info"]["gpus"]' <"$WORLD/blob.json")" = "$(jpy 'd["info"]["gpus"]' <"$WORLD/env.json")" ]
	[ "$(jpy '"ref" in d' <"$WORLD/blob.json")" = false ]
	db="$(git rev-parse --git-common-dir)/campaign/campaign.db"
	[ "$(sqlite3 "$db" "SELECT count(*) FROM env WHERE id = '$id'")" = 1 ]
	[ "$(sqlite3 "$db" "SELECT identity ->> '\$.gpu_count' FROM env")" = 1 ]
	# an info key changes (the JDK moved): same id, the ref is not
	# rewritten, the row's info is
	blob=$(git rev-parse "refs/campaign/env/$id")
	mv "$WORLD/jdk" "$WORLD/jdk2"
	JAVA_HOME="$WORLD/jdk2" env_json
	[ "$(jpy 'd["id"]' <"$WORLD/env.json")" = "$id" ]
	[ "$(git rev-parse "refs/campaign/env/$id")" = "$blob" ]
	[ "$(sqlite3 "$db" "SELECT info ->> '\$.jdk_home' FROM env")" = "$WORLD/jdk2" ]
	[ "$(git for-each-ref refs/campaign/env | wc -l)" -eq 1 ]
}

@test "the id is stable across runs, and the GPU probe is cached" {
	export CUDA_STUB_LOG="$WORLD/calls"
	env_json
	id=$(jpy 'd["id"]' <"$WORLD/env.json")
	for i in 1 2; do
		env_json
		[ "$(jpy 'd["id"]' <"$WORLD/env.json")" = "$id" ]
	done
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 1 ]
	[ "$(jpy 'd["info"]["gpus"][0]["uuid"]' <"$WORLD/env.json")" = "$(csv uuid)" ]
	# --refresh probes again
	env_json --refresh
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 2 ]
	[ "$(jpy 'd["id"]' <"$WORLD/env.json")" = "$id" ]
	# a new driver (its version file) probes again, and is another env
	sed -i 's/580.159.04/580.160.01/' "$ROOT/proc/driver/nvidia/version"
	env_json
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 3 ]
	[ "$(jpy 'd["id"]' <"$WORLD/env.json")" != "$id" ]
	# so does CUDA_VISIBLE_DEVICES
	CUDA_VISIBLE_DEVICES=0 env_json
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 4 ]
	# a failed probe is not cached, and forgets the cached answer
	CUDA_STUB_INIT_ERROR=100 env_json --refresh
	CUDA_STUB_INIT_ERROR=100 env_json
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 6 ]
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 0 ]
	env_json
	[ "$(grep -c '^cuInit$' "$WORLD/calls")" -eq 7 ]
	[ "$(jpy 'd["identity"]["gpu_count"]' <"$WORLD/env.json")" = 1 ]
}

@test "the backend is an identity key: --backend and campaign.backend change the id" {
	env_json
	none=$(jpy 'd["id"]' <"$WORLD/env.json")
	[ "$(jpy '"backend" in d["identity"]' <"$WORLD/env.json")" = false ]
	env_json --backend ptx
	ptx=$(jpy 'd["id"]' <"$WORLD/env.json")
	[ "$ptx" != "$none" ]
	env_json --backend opencl
	opencl=$(jpy 'd["id"]' <"$WORLD/env.json")
	[ "$opencl" != "$ptx" ] && [ "$opencl" != "$none" ]
	git campaign config backend ptx
	env_json
	[ "$(jpy 'd["id"]' <"$WORLD/env.json")" = "$ptx" ]
	# --backend wins over the setting
	env_json --backend opencl
	[ "$(jpy 'd["id"]' <"$WORLD/env.json")" = "$opencl" ]
	run --separate-stderr git campaign env --backend 'a b'
	assert_failure 129
	[ -z "$output" ]
	[[ "$stderr" == "error: 'a b' is not a backend name"* ]]
	git config campaign.backend 'x/y'
	run --separate-stderr git campaign env
	assert_fatal "bad campaign.backend in git config: 'x/y' is not a backend name" hint
}

@test "the JDK: JAVA_HOME's release, else the java on PATH, cached; none without one" {
	# JAVA_HOME's release file
	run git campaign env
	assert_line "$(printf '%-22s %s' jdk: 'Eclipse Adoptium 21.0.5 (from JAVA_HOME)')"
	# a java on PATH with no release file beside it: it is run, once
	unset JAVA_HOME
	mkdir -p "$WORLD/bin"
	cat >"$WORLD/bin/java" <<-EOF
	#!/bin/sh
	echo "\$*" >>"$WORLD/java.log"
	cat >&2 <<'OUT'
	Property settings:
	    java.home = /opt/fake-jdk
	    java.runtime.version = 17.0.15+6-Debian-1deb12u1
	    java.vendor = Debian
	    java.version = 17.0.15
	    java.version.date = 2025-04-15

	openjdk version "17.0.15" 2025-04-15
	OUT
	EOF
	chmod +x "$WORLD/bin/java"
	PATH="$WORLD/bin:$PATH" env_json
	[ "$(cat "$WORLD/java.log")" = '-XshowSettings:properties -version' ]
	[ "$(jpy 'd["identity"]["jdk_vendor"]' <"$WORLD/env.json")" = Debian ]
	[ "$(jpy 'd["identity"]["jdk_version"]' <"$WORLD/env.json")" = 17.0.15 ]
	[ "$(jpy 'd["info"]["jdk_source"]' <"$WORLD/env.json")" = 'java -version' ]
	[ "$(jpy 'd["info"]["jdk_home"]' <"$WORLD/env.json")" = /opt/fake-jdk ]
	PATH="$WORLD/bin:$PATH" env_json
	[ "$(wc -l <"$WORLD/java.log")" -eq 1 ]
	[ "$(jpy 'd["identity"]["jdk_vendor"]' <"$WORLD/env.json")" = Debian ]
	# another java binary (mtime and size) is run again
	echo '# upgraded' >>"$WORLD/bin/java"
	PATH="$WORLD/bin:$PATH" env_json
	[ "$(wc -l <"$WORLD/java.log")" -eq 2 ]
	# a release file beside the java on PATH is read, java is not run
	mkdir -p "$WORLD/jdk3/bin"
	cp "$WORLD/bin/java" "$WORLD/jdk3/bin/java"
	printf 'IMPLEMENTOR="Oracle Corporation"\nJAVA_VERSION="25"\n' >"$WORLD/jdk3/release"
	PATH="$WORLD/jdk3/bin:$PATH" env_json
	[ "$(wc -l <"$WORLD/java.log")" -eq 2 ]
	[ "$(jpy 'd["identity"]["jdk_vendor"]' <"$WORLD/env.json")" = 'Oracle Corporation' ]
	[ "$(jpy 'd["info"]["jdk_source"]' <"$WORLD/env.json")" = PATH ]
	# no JDK at all: no jdk keys
	run --separate-stderr env PATH="$BIN_DIR" "$BIN_DIR/git-campaign" env --json
	assert_clean
	[ "$(jpy '[k for k in d["identity"] if k.startswith("jdk")]' <<<"$output")" = '[]' ]
	run env PATH="$BIN_DIR" "$BIN_DIR/git-campaign" env
	assert_line "$(printf '%-22s %s' jdk: none)"
	# a java that fails: no jdk keys, no error
	printf '#!/bin/sh\nexit 1\n' >"$WORLD/bin/java"
	run --separate-stderr env PATH="$WORLD/bin:$BIN_DIR" "$BIN_DIR/git-campaign" env
	assert_clean
	assert_line "$(printf '%-22s %s' jdk: none)"
}

@test "outside a repository env prints and stores nothing; env list needs one" {
	mkdir "$WORLD/norepo"
	cd "$WORLD/norepo"
	export GIT_CEILING_DIRECTORIES="$WORLD"
	run --separate-stderr git campaign env
	assert_clean
	assert_line "$(printf '%-22s %s' stored: 'no (not in a repository)')"
	assert_line "$(printf '%-22s %s' '  uuid:' "$(csv uuid)")"
	env_json
	[ "$(jpy 'd["ref"]' <"$WORLD/env.json")" = null ]
	[ -z "$(ls -A "$WORLD/norepo")" ]
	run --separate-stderr git campaign env list
	assert_fatal 'not a git repository'
}

@test "env list shows the environments of the database and of fetched refs" {
	run --separate-stderr git campaign env list
	assert_clean
	[ -z "$output" ]
	env_json --backend ptx
	ptx=$(jpy 'd["id"]' <"$WORLD/env.json")
	# the GPU is gone without a driver change: --refresh sees it
	CUDA_STUB_INIT_ERROR=100 env_json --backend opencl --refresh
	ocl=$(jpy 'd["id"]' <"$WORLD/env.json")
	# another machine's environment arrives as a ref only
	make_repo "$WORLD/other"
	(cd "$WORLD/other" && GIT_CAMPAIGN_LIBCUDA=/nonexistent git campaign env --backend spirv >/dev/null)
	git fetch -q "$WORLD/other" 'refs/campaign/env/*:refs/campaign/env/*'
	other=$(git -C "$WORLD/other" for-each-ref --format='%(refname:lstrip=3)' refs/campaign/env)
	run --separate-stderr git campaign env list
	assert_clean
	[ "${#lines[@]}" -eq 3 ]
	assert_line --regexp "^$ptx  [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z  db,ref  NVIDIA H200 x1, ptx, Eclipse Adoptium 21.0.5, AMD EPYC 7B13 64-Core Processor, Debian GNU/Linux 12 \(bookworm\)$"
	assert_line --regexp "^$ocl  .*  db,ref  no gpu, opencl, "
	assert_line --regexp "^$other  -  +ref     no gpu, spirv, "
	run --separate-stderr git campaign env list --json
	assert_clean
	[ "$(jpy '[e["id"] for e in d]' <<<"$output")" = "$(printf '%s\n' "$ptx" "$ocl" "$other" | sort | "$PY" -c 'import json,sys; print(json.dumps(sys.stdin.read().split()))')" ]
	[ "$(jpy "[e for e in d if e['id'] == '$other'][0]['seen_at']" <<<"$output")" = null ]
	[ "$(jpy "[e for e in d if e['id'] == '$other'][0]['in_db']" <<<"$output")" = false ]
	[ "$(jpy "[e for e in d if e['id'] == '$ptx'][0]['identity']['backend']" <<<"$output")" = ptx ]
	# a ref that is not an env id is not listed
	git update-ref refs/campaign/env/not-an-id "$(git rev-parse "refs/campaign/env/$ptx")"
	run git campaign env list
	[ "${#lines[@]}" -eq 3 ]
}

@test "usage errors exit 129" {
	run --separate-stderr git campaign env list --backend x
	assert_failure 129
	[[ "$stderr" == "error: unknown option '--backend'"* ]]
	run --separate-stderr git campaign env frob
	assert_failure 129
	[[ "$stderr" == "error: unknown subcommand 'frob'"* ]]
	run --separate-stderr git campaign env --frobnicate
	assert_failure 129
}
