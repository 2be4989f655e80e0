// Command training-operator runs Kubeflow Training Operator v1.9's controllers and validating
// webhooks out of cluster, for the oracle: upstream's cmd/training-operator.v1 cannot, because
// it always starts upstream's certificate rotation (pkg/cert), which keeps its CA in a Secret,
// issues the serving certificate for the DNS name training-operator.<ns>.svc only (the API
// server here calls the webhook at https://127.0.0.1:PORT, which needs an IP SAN), and writes it
// to the fixed directory /tmp/k8s-webhook-server/serving-certs, which two clusters at once would
// share. It also binds the webhook server on every interface.
//
// What is upstream's, unchanged: every controller and webhook (controllerv1.SupportedSchemeReconciler,
// webhooks.SupportedSchemeWebhook), the gang-scheduling setup (common.Gen*SetupFunc), the
// scheme, and the flags below with upstream's names and defaults.
// What is glue, here: this main. It follows upstream's main.go step by step, except that
//   - there is no certificate rotation: the webhook server serves tls.crt/tls.key from
//     --webhook-cert-dir (issued by the start script) on --webhook-host (127.0.0.1);
//   - leader election is off (one process per cluster);
//   - the controllers and webhooks are registered before the manager starts, not in a goroutine
//     that waits for the certificates.
package main

import (
	"errors"
	"flag"
	"net/http"
	"os"
	"strings"

	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/flowcontrol"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	schedulerpluginsv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	"volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	volcanoclient "volcano.sh/apis/pkg/client/clientset/versioned"

	kubeflowv1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	"github.com/kubeflow/training-operator/pkg/config"
	controllerv1 "github.com/kubeflow/training-operator/pkg/controller.v1"
	"github.com/kubeflow/training-operator/pkg/controller.v1/common"
	"github.com/kubeflow/training-operator/pkg/webhooks"
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() { // as upstream's
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(kubeflowv1.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))
	utilruntime.Must(schedulerpluginsv1alpha1.AddToScheme(scheme))
}

func fail(err error, msg string, kv ...any) {
	setupLog.Error(err, msg, kv...)
	os.Exit(1)
}

func main() {
	var metricsAddr, probeAddr, gangSchedulerName, namespace, webhookHost, webhookCertDir string
	var enabledSchemes controllerv1.EnabledSchemes
	var controllerThreads, webhookServerPort, clientQps, clientBurst int
	// Upstream's flags (names and defaults as in its main.go) ...
	flag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "The address the metric endpoint binds to (0 turns it off).")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to.")
	flag.Var(&enabledSchemes, "enable-scheme", "Enable scheme(s) as --enable-scheme=tfjob --enable-scheme=pytorchjob; all when none is given.")
	flag.StringVar(&gangSchedulerName, "gang-scheduler-name", "", "volcano or scheduler-plugins (any other name: scheduler-plugins under that scheduler name).")
	flag.StringVar(&namespace, "namespace", os.Getenv("KUBEFLOW_NAMESPACE"), "The namespace to monitor kubeflow jobs; all when unset.")
	flag.IntVar(&controllerThreads, "controller-threads", 1, "Number of worker threads used by the controller.")
	flag.IntVar(&clientQps, "kube-api-qps", 20, "QPS indicates the maximum QPS to the master from this client.")
	flag.IntVar(&clientBurst, "kube-api-burst", 30, "Maximum burst for throttle.")
	flag.StringVar(&config.Config.PyTorchInitContainerImage, "pytorch-init-container-image",
		config.PyTorchInitContainerImageDefault, "The image for pytorch init container")
	flag.StringVar(&config.Config.PyTorchInitContainerTemplateFile, "pytorch-init-container-template-file",
		config.PyTorchInitContainerTemplateFileDefault, "The template file for pytorch init container")
	flag.IntVar(&config.Config.PyTorchInitContainerMaxTries, "pytorch-init-container-max-tries",
		config.PyTorchInitContainerMaxTriesDefault, "The number of tries for the pytorch init container")
	flag.StringVar(&config.Config.MPIKubectlDeliveryImage, "mpi-kubectl-delivery-image",
		config.MPIKubectlDeliveryImageDefault, "The image for mpi launcher init container")
	flag.IntVar(&webhookServerPort, "webhook-server-port", 9443, "Endpoint port for the webhook server.")
	// ... and the glue's own.
	flag.StringVar(&webhookHost, "webhook-host", "127.0.0.1", "The address the webhook server binds to.")
	flag.StringVar(&webhookCertDir, "webhook-cert-dir", "", "The directory holding the webhook server's tls.crt and tls.key.")
	opts := zap.Options{Development: true, StacktraceLevel: zapcore.DPanicLevel}
	opts.BindFlags(flag.CommandLine)
	flag.Parse() // --kubeconfig is controller-runtime's flag
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	if webhookCertDir == "" {
		fail(errors.New("--webhook-cert-dir is required"), "no serving certificate")
	}

	var cacheOpts cache.Options
	if namespace != "" {
		cacheOpts = cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}}
	}
	cfg := ctrl.GetConfigOrDie()
	cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(float32(clientQps), clientBurst)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  scheme,
		Metrics: metricsserver.Options{BindAddress: metricsAddr},
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: webhookHost, Port: webhookServerPort, CertDir: webhookCertDir,
		}),
		HealthProbeBindAddress: probeAddr,
		LeaderElection:         false,
		Cache:                  cacheOpts,
	})
	if err != nil {
		fail(err, "unable to start manager")
	}

	// Upstream's setupProbeEndpoints without the wait for certificates: ready once the webhook
	// server listens.
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		fail(err, "unable to set up health check")
	}
	if err := mgr.AddReadyzCheck("readyz", func(req *http.Request) error {
		return mgr.GetWebhookServer().StartedChecker()(req)
	}); err != nil {
		fail(err, "unable to set up ready check")
	}

	// Upstream's setupControllers.
	gangSchedulingSetupFunc := common.GenNonGangSchedulerSetupFunc()
	if strings.EqualFold(gangSchedulerName, string(common.GangSchedulerVolcano)) {
		gangSchedulingSetupFunc = common.GenVolcanoSetupFunc(volcanoclient.NewForConfigOrDie(mgr.GetConfig()))
		validateCRD(mgr, v1beta1.SchemeGroupVersion.WithKind("PodGroup"))
	} else if gangSchedulerName != "" {
		gangSchedulingSetupFunc = common.GenSchedulerPluginsSetupFunc(mgr.GetClient(), gangSchedulerName)
		validateCRD(mgr, schedulerpluginsv1alpha1.SchemeGroupVersion.WithKind("PodGroup"))
	}
	if enabledSchemes.Empty() {
		enabledSchemes.FillAll()
	}
	for _, s := range enabledSchemes {
		setupReconciler, ok := controllerv1.SupportedSchemeReconciler[s]
		if !ok {
			fail(errors.New("failed to set up controllers"), "scheme is not supported", "scheme", s)
		}
		if err := setupReconciler(mgr, gangSchedulingSetupFunc, controllerThreads); err != nil {
			fail(err, "unable to create controller", "scheme", s)
		}
		setupWebhook, ok := webhooks.SupportedSchemeWebhook[s]
		if !ok {
			fail(errors.New("failed to set up controllers"), "scheme is not supported", "scheme", s)
		}
		if err := setupWebhook(mgr); err != nil {
			fail(err, "unable to start webhook server", "scheme", s)
		}
	}

	setupLog.Info("starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fail(err, "problem running manager")
	}
}

// validateCRD: upstream's; the PodGroup CRD of the chosen gang scheduler must be served.
func validateCRD(mgr ctrl.Manager, gvk schema.GroupVersionKind) {
	if _, err := mgr.GetRESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
		fail(err, "unable to get crd", "apiVersion", gvk.GroupVersion().String(), "kind", gvk.Kind)
	}
}
