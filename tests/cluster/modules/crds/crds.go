// Package crds pins the upstream modules whose CRDs golden_dry_run_test.sh installs, at the
// versions Kubeflow Trainer v2.3.0's go.mod names: JobSet (jobset.x-k8s.io), the
// scheduler-plugins PodGroup (scheduling.x-k8s.io) and Volcano's PodGroup
// (scheduling.volcano.sh). The imports keep them in go.mod through `go mod tidy`, and let
// controller-gen (the module's tool) load Volcano's types, from which Volcano generates its
// CRD: no module the proxy serves ships that file.
package crds

import (
	_ "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	_ "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	_ "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	_ "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
)
