#!/usr/bin/env bash
# Sets up a Debian machine, builds, and then either trains the bundled example TrainJob
# on this machine with the C++ trainer (`./setup.sh`) or runs every test
# (`./setup.sh test`), or builds the trainer's OCI image (`./setup.sh image`,
# docs/trainer-image.md). Safe to run again: it only installs what is missing and only
# rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-run}
case "$mode" in
  run | test | build | image) ;;
  *) echo "usage: ./setup.sh [run|test|build|image]" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ pkg-config libyaml-dev nlohmann-json3-dev libcli11-dev
  doctest-dev libssl-dev libcurl4-openssl-dev libtorch-dev libgloo-dev libopenblas-dev)
# The plugin tests go through a real kubectl; Debian's kubernetes-client provides one.
if [ "$mode" = test ] && ! command -v kubectl >/dev/null; then packages+=(kubernetes-client); fi
# The schema validator is checked against the official JSON Schema test suite, and the
# schemas against the CRDs they were derived from (python3-yaml reads those).
# The cluster tests make their test CA and certificates with the openssl command; the
# MPI run --local test builds and runs an MPI program with Open MPI.
if [ "$mode" = test ]; then packages+=(json-schema-test-suite python3 python3-yaml openssl openmpi-bin libopenmpi-dev); fi
# The completion test drives the scripts in bash (with bash-completion), zsh and fish.
if [ "$mode" = test ]; then packages+=(bash-completion zsh fish file); fi
# The trainer image is built with umoci, pushed and pulled with skopeo; its test runs a
# local docker-registry.
if [ "$mode" = test ] || [ "$mode" = image ]; then packages+=(umoci skopeo docker-registry); fi
# The torchrun test runs the seed's PyTorch script through the builtin launcher.
if [ "$mode" = test ]; then packages+=(python3-torch); fi
# The release's portability test builds and runs the plugin in Debian bullseye roots it makes
# (dist/debian_root.sh).
if [ "$mode" = test ]; then packages+=(debootstrap); fi

# Each step's wall time goes to stderr as it ends (CI's stage table reads them).
step_start=$SECONDS
step_done() {
  echo "setup.sh: $1 took $((SECONDS - step_start)) s" >&2
  step_start=$SECONDS
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "Installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
step_done install

# Build output goes to stderr, so stdout holds only what the example prints. The example
# needs the plugin and the trainer alone; tests, fuzzers and benchmarks are built for `test`.
cmake --preset default >&2
targets=(--target kubectl-trainjob trainjob-trainer)
[ "$mode" != test ] && [ "$mode" != build ] || targets=()
cmake --build --preset default "${targets[@]}" -- -j"$(nproc)" >&2
step_done build

# The control-plane tests run on Kubernetes built from source, once per pinned version
# (tests/cluster/build.sh says what to install when Go is missing or too old), some with the
# schedulers and queues of tests/cluster/addons beside it (Kueue: about 8 minutes cold).
if [ "$mode" = test ]; then
  tests/cluster/build.sh >/dev/null
  tests/cluster/build_groups.sh addons >/dev/null
  step_done "build control plane"
fi

case "$mode" in
  run) ./build/kubectl-trainjob run --local -f templates/cpp-trainer-linear.yaml ;;
  test) ctest --preset default -j"$(nproc)" ;;
  build) ;;
  image) cmake --build --preset default --target trainer-image >&2 ;;
esac
step_done "$mode"
