#!/usr/bin/env bash
# For a GPU machine without network or the suite's system libraries (a
# cluster node, a locked-down workstation, the device tool's machines). Run
# from the project's root on a machine that reaches Debian's package
# registry: downloads the Debian packages of the suite's C++ dependencies
# (Highway, RapidCheck, Google Benchmark, GoogleTest/GoogleMock) into .deps/
# (ignored by git) with env.sh. Carry .deps/ to the GPU machine and there
# `source .deps/env.sh`, which unpacks them into .deps/sysroot (never into
# /) and points CMake, the compiler and the loader at them. Then
# tools/gpu-check.sh does the rest.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
mkdir -p .deps && cd .deps
[ -n "$(ls /var/lib/apt/lists 2>/dev/null | grep -v lock)" ] || apt-get update -qq
apt-get download -q libhwy-dev libhwy1 librapidcheck-dev libbenchmark-dev \
  libbenchmark1debian libgtest-dev libgmock-dev 2>&1 | grep -v '^W: ' || true
cat >env.sh <<'INNER'
# Sourced on the offline GPU machine: unpacks the carried packages into
# .deps/sysroot (never into /) and points CMake and the loader at them.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root="$here/sysroot"
if [ ! -d "$root/usr" ]; then
  for f in "$here"/*.deb; do dpkg -x "$f" "$root"; done
fi
export CMAKE_PREFIX_PATH=$root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
export CPATH=$root/usr/include${CPATH:+:$CPATH}
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
INNER
ls -la
