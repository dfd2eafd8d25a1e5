#!/usr/bin/env bash
# Installs the Debian packages the suite needs when they are missing: as root
# with apt-get; otherwise prints the exact command and fails.
set -euo pipefail

packages=(cmake ninja-build g++ make git python3 python3-venv
          libhwy-dev librapidcheck-dev libbenchmark-dev libgtest-dev
          libgmock-dev zlib1g-dev)
# The peers (cmake/AdjacentPeers.cmake): libraries people use instead of
# the suite, run as rows of the families' tables. Installed like the rest
# where we can; one that cannot be installed is not fatal: its rows skip,
# saying which package brings it.
peers=(libboost-graph-dev libtbb-dev libabsl-dev libnanoflann-dev libcgal-dev
       libopen3d-dev libvtk9-dev libcolpack-dev libigraph-dev libopenmesh-dev)
# PEERS=all adds the heavy ones: PCL (its k-d tree and octree searches)
# brings much of Boost and Qt with it.
case "${PEERS:-default}" in
  all) peers+=(libpcl-dev) ;;
  default|"") ;;
  *) echo "adjacent: PEERS is 'all' or unset, not '${PEERS}'" >&2; exit 2 ;;
esac
# The tsan preset builds with clang and LLVM's OpenMP runtime, whose Archer
# tool tells ThreadSanitizer about OpenMP's synchronisation; the fuzz preset
# with clang and libFuzzer (in libclang-rt-dev).
case "${PRESET:-default}" in
  tsan|fuzz) packages+=(clang libomp-dev libclang-rt-dev) ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
has_command() { command -v "$1" >/dev/null 2>&1; }

missing=()
for package in "${packages[@]}"; do
  case "$package" in
    # Tools count as present when a command of that name is on PATH (a
    # toolchain from elsewhere is fine).
    cmake|make|git|python3) has_command "$package" && continue ;;
    ninja-build) has_command ninja && continue ;;
    g++) has_command g++ && continue ;;
    clang) has_command clang++ && continue ;;
    # A Python that can already make a venv needs no python3-venv.
    python3-venv) python3 -c 'import ensurepip, venv' >/dev/null 2>&1 && continue ;;
  esac
  installed "$package" || missing+=("$package")
done

missing_peers=()
for package in "${peers[@]}"; do
  installed "$package" || missing_peers+=("$package")
done
if [ ${#missing_peers[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && has_command apt-get; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing_peers[@]}" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
          --no-install-recommends "${missing_peers[@]}" >/dev/null 2>&1; } ||
      echo "adjacent: could not install the peers ${missing_peers[*]}: their rows will skip" >&2
  else
    echo "adjacent: peers missing (their rows will skip): ${missing_peers[*]}; as root: apt-get install -y ${missing_peers[*]}" >&2
  fi
fi

# Optional: Debian's chromium for the report page's test, slurm-wlm and
# munge for the local Slurm test (both skip, saying so, without them).
# Tried as root only, and never fatal.
optional=()
has_command chromium || installed chromium || optional+=(chromium)
has_command slurmctld || installed slurm-wlm || optional+=(slurm-wlm)
has_command munged || installed munge || optional+=(munge)
if [ ${#optional[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && has_command apt-get; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${optional[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${optional[@]}" >/dev/null 2>&1; } ||
    echo "adjacent: could not install ${optional[*]}: the report page test will skip" >&2
fi

[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y ${missing[*]}"
if ! has_command apt-get; then
  echo "adjacent: missing packages: ${missing[*]}" >&2
  echo "adjacent: this is not a Debian/Ubuntu system; install their equivalents." >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "adjacent: missing packages: ${missing[*]}" >&2
  echo "adjacent: run as root:  sudo sh -c '$command'" >&2
  exit 1
fi
echo "adjacent: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
