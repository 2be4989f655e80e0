#!/usr/bin/env bash
# Fetches, on a machine with Debian's package lists and a network, what tests/gpu/run.sh needs
# on a GPU machine that has neither: the Debian packages of the headers the trainer includes
# besides libtorch's (gloo's, which PyTorch's wheels leave out, CLI11's, doctest's and
# libcurl's), into .gpu-deps/ at the repository's root (ignored by git; about 1 MB). The
# device tool carries that folder (carry: [".gpu-deps"]); run.sh unpacks it into its build
# directory, never into /.
# usage: tests/gpu/fetch_deps.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
deps=$root/.gpu-deps
mkdir -p "$deps"
cd "$deps"
rm -f ./*.deb
# amd64 whatever this machine is: the GPU machines are x86-64.
apt-get -o APT::Architecture=amd64 download libgloo-dev:amd64 libcli11-dev doctest-dev \
  libcurl4-openssl-dev:amd64
# The commit the packages go with, for the summary (the device's copy has no .git).
git -C "$root" rev-parse --short HEAD >commit
du -ch ./*.deb | tail -1
