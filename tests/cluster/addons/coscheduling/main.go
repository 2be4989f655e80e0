// The scheduler-plugins scheduler with the Coscheduling plugin alone: kube-scheduler's own
// command (k8s.io/kubernetes v1.35.4, the release scheduler-plugins v0.35.4-devel builds
// against) with one out-of-tree plugin registered, as upstream's cmd/scheduler registers it
// among others. The scheduling tests run it beside the control plane's kube-scheduler.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	_ "sigs.k8s.io/scheduler-plugins/apis/config/scheme"
	"sigs.k8s.io/scheduler-plugins/pkg/coscheduling"
)

func main() {
	command := app.NewSchedulerCommand(app.WithPlugin(coscheduling.Name, coscheduling.New))
	os.Exit(cli.Run(command))
}
