#!/usr/bin/env bash
# The plugin as helm's post-renderer: `helm template|install --post-renderer kubectl-trainjob
# --post-renderer-args render` pipes the chart's rendered manifests to `kubectl-trainjob
# render` (no -f) and applies what it prints. helm is not packaged in Debian, so unless a
# real helm is on PATH a stand-in does what helm does with a post-renderer: renders the
# chart's templates (here only {{ .Release.Name }}), pipes the stream to the post-renderer
# found on PATH with its arguments, and prints its output or fails with its status.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

mkdir "$work/bin"
ln -s "$(realpath "$binary")" "$work/bin/kubectl-trainjob"
if ! command -v helm >/dev/null; then
  cat >"$work/bin/helm" <<'SH'
#!/usr/bin/env bash
# helm template NAME CHART --post-renderer PROG [--post-renderer-args ARG]...
set -uo pipefail
[ "$1" = template ] || { echo "fake helm: only 'template'" >&2; exit 1; }
name=$2 chart=$3
shift 3
renderer="" args=()
while [ $# -gt 0 ]; do
  case $1 in
    --post-renderer) renderer=$2; shift 2 ;;
    --post-renderer-args) args+=("$2"); shift 2 ;;
    *) echo "fake helm: unknown flag $1" >&2; exit 1 ;;
  esac
done
stream() {
  for file in "$chart"/templates/*.yaml; do
    printf -- '---\n# Source: %s/templates/%s\n' "$(basename "$chart")" "$(basename "$file")"
    sed "s/{{ \.Release\.Name }}/$name/g" "$file"
  done
}
[ -n "$renderer" ] || { stream; exit 0; }
out=$(stream | "$renderer" "${args[@]}") || {
  echo "Error: error while running post render on files: exit status $?" >&2; exit 1; }
printf '%s\n' "$out"
SH
  chmod +x "$work/bin/helm"
fi
export PATH="$work/bin:$PATH"

chart="$work/train"
mkdir -p "$chart/templates"
printf 'apiVersion: v2\nname: train\nversion: 0.1.0\n' >"$chart/Chart.yaml"
cat >"$chart/templates/settings.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
data:
  epochs: "3"
YAML
sed 's/name: trainjob-demo-with-image$/name: {{ .Release.Name }}-train/' \
  "$source_dir/templates/image.yaml" >"$chart/templates/trainjob.yaml"

helm template demo "$chart" --post-renderer kubectl-trainjob --post-renderer-args render \
  >"$work/out.yaml" 2>"$work/err"
check "helm with the plugin as post-renderer: exit 0" test $? -eq 0 || cat "$work/err" >&2
check "the TrainJob became its Jobs" grep -qx '  name: demo-train-node-0' "$work/out.yaml"
check "... and no TrainJob is left for the API server to refuse" \
  bash -c "! grep -q '^kind: TrainJob' '$work/out.yaml'"
check "the chart's other objects pass through" grep -qx '  name: demo-settings' "$work/out.yaml"
check "the same bytes as render -f of helm's own output" cmp -s "$work/out.yaml" \
  <(helm template demo "$chart" | kubectl-trainjob render -f - 2>/dev/null)

# The chart's template itself, not rendered by helm, is named for what it is.
kubectl-trainjob render -f "$chart/templates/trainjob.yaml" >"$work/out" 2>"$work/err"
check "an unrendered Helm template: exit 1" test $? -eq 1
check "... recognised where its first action is" \
  grep -q "trainjob.yaml:5:9: error: this looks like a Helm template: render it with \`helm template\` first, or use the plugin as helm's \`--post-renderer\`" "$work/err"
check "... and nothing else said" test "$(wc -l <"$work/err")" -eq 1
finish
