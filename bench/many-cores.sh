#!/usr/bin/env bash
# bench/many-cores.sh: Beacon's scaling protocol (its thesis, Fig. 2.8b) on a machine of 16 cores that
# has none of the build's tools: only taskset, tar, and curl or python3 (docs/performance.md,
# "Many cores").
#   bench/many-cores.sh pack ARCHIVE   here, after deploy/heliograph build: the part of the
#       distribution the bench profile runs (without sdk/, the solver and the research apps) and a
#       jlinked Java runtime, in one tar.xz of about 38 MiB. Jars are stored uncompressed inside it, so
#       that xz compresses across them.
#   bench/many-cores.sh run ARCHIVE    there, in a checkout of the same commit: unpacks the archive to
#       $UNPACK (/tmp/heliograph-many-cores) and runs bench/measure.sh in mode throughput-2g with
#       64 switches over two generator processes on cores 14 and 15, against the C responder (on core
#       0) and the bench profile with 1, 2, 4, 8 and 12 I/O threads, N threads pinned to cores 0 to
#       N-1. LOOPS, WARMUP, MS, RUNS, TARGETS and OUT pass through to measure.sh.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODULES=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.management.agent,jdk.naming.dns,jdk.unsupported,jdk.zipfs

pack() {
    local archive=$1 dist=${DIST:-$ROOT/deploy/target/heliograph}
    [[ -f $dist/heliograph.jar && -f $dist/tools/heliograph-bench.jar ]] \
        || { echo "many-cores: build first (deploy/heliograph build)" >&2; exit 1; }
    work=$(mktemp -d /tmp/heliograph-pack-XXXXXX)   # global: the trap runs after pack returns
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/heliograph/bundles" "$work/heliograph/hot" "$work/heliograph/tools"
    cp -a "$dist"/{bin,libexec,etc,lib,heliograph.jar} "$work/heliograph/"
    find "$dist/bundles" -name '*.jar' ! -name 'heliograph-solver-*' -exec cp {} "$work/heliograph/bundles/" \;
    cp "$dist/hot/heliograph-learningswitch.jar" "$work/heliograph/hot/"
    cp "$dist/tools/heliograph-bench.jar" "$work/heliograph/tools/"
    python3 - "$work/heliograph" <<'PY'
import os, pathlib, sys, zipfile
for jar in pathlib.Path(sys.argv[1]).rglob('*.jar'):
    stored = jar.with_suffix('.stored')
    with zipfile.ZipFile(jar) as zin, zipfile.ZipFile(stored, 'w', zipfile.ZIP_STORED) as zout:
        for entry in zin.infolist():
            data = zin.read(entry.filename)
            entry.compress_type = zipfile.ZIP_STORED
            zout.writestr(entry, data)
    os.replace(stored, jar)
PY
    "${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}/bin/jlink" \
        --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages --compress=0 --output "$work/jre"
    strip --strip-unneeded "$work/jre/lib/server/libjvm.so" 2>/dev/null || true
    tar -C "$work" -cf - heliograph jre | xz -9 -T2 >"$archive"
    ls -la "$archive"
}

run() {
    local archive=$1 unpack=${UNPACK:-/tmp/heliograph-many-cores}
    rm -rf "$unpack" && mkdir -p "$unpack"
    if command -v xz >/dev/null; then
        tar -C "$unpack" -xJf "$archive"
    else
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$unpack"
    fi
    export PATH="$unpack/jre/bin:$PATH"
    if ! command -v curl >/dev/null; then   # measure.sh asks the controller's health with curl -sf URL
        mkdir -p "$unpack/shim"
        printf '%s\n' '#!/usr/bin/env python3' 'import sys, urllib.request' \
            'try:' '    urllib.request.urlopen(sys.argv[-1], timeout=2).read()' 'except Exception:' '    sys.exit(22)' \
            >"$unpack/shim/curl"
        chmod +x "$unpack/shim/curl"
        export PATH="$unpack/shim:$PATH"
    fi
    echo "many-cores: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(lscpu 2>/dev/null | grep -E '^Socket\(s\)|^Thread\(s\) per core' | tr -s ' ' | paste -sd, -); $(java -version 2>&1 | tail -1)"
    DIST="$unpack/heliograph" CTL_CORES_BY_THREADS=1 CTL_CORE=0 GEN_CORE=${GEN_CORE:-14,15} SWITCHES_2G=64 \
        LOOPS=${LOOPS:-13} WARMUP=${WARMUP:-3} MS=${MS:-10000} RUNS=${RUNS:-1} VERSIONS=${VERSIONS:-1.0} \
        MODES=throughput-2g TARGETS=${TARGETS:-"c-responder heliograph:1 heliograph:2 heliograph:4 heliograph:8 heliograph:12"} \
        "$ROOT/bench/measure.sh"
}

case ${1:-} in
    pack|run) [[ $# == 2 ]] || { echo "usage: bench/many-cores.sh pack|run ARCHIVE" >&2; exit 2; }; "$1" "$2" ;;
    *) echo "usage: bench/many-cores.sh pack|run ARCHIVE" >&2; exit 2 ;;
esac
