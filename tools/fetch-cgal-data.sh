#!/usr/bin/env bash
# Fetches CGAL's data set (meshes/*.off, points_3/*.xyz|ply) from Debian's
# libcgal-demo package into a cache that git ignores:
#   tools/fetch-cgal-data.sh [DIR]     (default <repo>/.cache/cgal, where the
#                                       suite looks; `make data`)
# leaving DIR/data/{meshes,points_3}. `apt-get download` needs no root, only
# a reachable package registry. Idempotent: a second run does nothing.
# Exit status 0 when the data is there, 1 (with the reason) when it is not.
set -euo pipefail

cache="${1:-$(cd "$(dirname "$0")/.." && pwd)/.cache/cgal}"
marker="$cache/data/.complete"
[ -f "$marker" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "adjacent: no apt-get here: cannot fetch libcgal-demo" >&2
  exit 1
fi
mkdir -p "$cache"
work="$(mktemp -d "$cache/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "adjacent: fetching CGAL's data set (apt-get download libcgal-demo, ~25 MB) into $cache"
if ! (cd "$work" && apt-get download -q libcgal-demo >/dev/null 2>&1); then
  # A stale package list is the usual cause on a fresh container; refreshing
  # it needs root.
  if [ "$(id -u)" -eq 0 ] && apt-get update -qq >/dev/null 2>&1 &&
     (cd "$work" && apt-get download -q libcgal-demo >/dev/null 2>&1); then
    :
  else
    echo "adjacent: apt-get download libcgal-demo failed (no package registry?)" >&2
    exit 1
  fi
fi
deb="$(ls "$work"/libcgal-demo_*.deb)"
member=./usr/share/doc/libcgal-dev/data.tar.gz
if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "$member" 2>/dev/null; then
  echo "adjacent: $(basename "$deb") has no $member: the package layout changed" >&2
  exit 1
fi
rm -rf "$cache/data"
tar -xzf "$work/usr/share/doc/libcgal-dev/data.tar.gz" -C "$cache"
echo "$(basename "$deb")" > "$marker"
echo "adjacent: CGAL data in $cache/data ($(ls "$cache/data/meshes" | wc -l) meshes, $(ls "$cache/data/points_3" | wc -l) point sets)"
