//go:build tools

// The module's one requirement, for `go mod tidy`: Kueue's main package, which build_groups.sh
// builds from overlay.sh's copy (never with this tag).
package tools

import _ "sigs.k8s.io/kueue/cmd/kueue"
