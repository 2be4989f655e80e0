// Command mpi-operator runs mpi-operator v0.7's MPIJob (v2beta1) controller out of cluster, for
// the oracle. Upstream's cmd/mpi-operator does not fit a test cluster on loopback: its health
// server listens on the fixed port :8080 of every interface (two clusters at once, or anything
// else on 8080, make it exit), leader election cannot be turned off, and the KUBECONFIG of the
// environment overrides --kubeConfig.
//
// What is upstream's, unchanged: the controller (controller.NewMPIJobController and its Run,
// with its gang-scheduling PodGroup controls), the clientsets and informers, and the flags
// (options.ServerOption.AddFlags, names and defaults as upstream's).
// What is glue, here: this main. It follows upstream's app.Run step by step, except that
//   - there is no leader election and no health or metrics server (--monitoring-port is ignored);
//   - --ready-address (a loopback address) answers /readyz with 200 once the informers' caches
//     have synced, so that the start script knows when MPIJobs are watched;
//   - the kubeconfig is --kubeConfig alone.
package main

import (
	"context"
	"flag"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	kubeclientset "k8s.io/client-go/kubernetes"
	clientgokubescheme "k8s.io/client-go/kubernetes/scheme"
	restclientset "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	schedclientset "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"
	volcanoclient "volcano.sh/apis/pkg/client/clientset/versioned"

	"github.com/kubeflow/mpi-operator/cmd/mpi-operator/app/options"
	mpijobclientset "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned"
	kubeflowscheme "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned/scheme"
	informers "github.com/kubeflow/mpi-operator/pkg/client/informers/externalversions"
	controllersv1 "github.com/kubeflow/mpi-operator/pkg/controller"
)

func main() {
	klog.InitFlags(nil)
	opt := options.NewServerOption()
	opt.AddFlags(flag.CommandLine)
	readyAddress := flag.String("ready-address", "", "host:port where /readyz answers once the caches have synced (glue)")
	flag.Parse()
	klog.Infof("Server options: %+v", opt)

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	cfg, err := clientcmd.BuildConfigFromFlags(opt.MasterURL, opt.Kubeconfig)
	if err != nil {
		klog.Fatalf("Error building kubeConfig: %s", err)
	}
	cfg.QPS = float32(opt.QPS)
	cfg.Burst = opt.Burst

	// Upstream's createClientSets, less the leader election's.
	kubeClient := kubeclientset.NewForConfigOrDie(restclientset.AddUserAgent(cfg, "mpi-operator"))
	mpiJobClient := mpijobclientset.NewForConfigOrDie(cfg)
	var volcanoClient volcanoclient.Interface
	var schedClient schedclientset.Interface
	if opt.GangSchedulingName == options.GangSchedulerVolcano {
		volcanoClient = volcanoclient.NewForConfigOrDie(restclientset.AddUserAgent(cfg, "volcano"))
	} else if opt.GangSchedulingName != "" {
		schedClient = schedclientset.NewForConfigOrDie(restclientset.AddUserAgent(cfg, "scheduler-plugins"))
	}
	if err := kubeflowscheme.AddToScheme(clientgokubescheme.Scheme); err != nil {
		klog.Fatalf("CoreV1 Add Scheme failed: %v", err)
	}

	// Upstream's run, called at once instead of on winning the election.
	var kubeOpts []kubeinformers.SharedInformerOption
	var kubeflowOpts []informers.SharedInformerOption
	if opt.Namespace != "" {
		kubeOpts = append(kubeOpts, kubeinformers.WithNamespace(opt.Namespace))
		kubeflowOpts = append(kubeflowOpts, informers.WithNamespace(opt.Namespace))
	}
	kubeInformerFactory := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, 0, kubeOpts...)
	kubeflowInformerFactory := informers.NewSharedInformerFactoryWithOptions(mpiJobClient, 0, kubeflowOpts...)
	controller, err := controllersv1.NewMPIJobController(ctx, kubeClient, mpiJobClient, volcanoClient, schedClient,
		kubeInformerFactory.Core().V1().ConfigMaps(),
		kubeInformerFactory.Core().V1().Secrets(),
		kubeInformerFactory.Core().V1().Services(),
		kubeInformerFactory.Batch().V1().Jobs(),
		kubeInformerFactory.Core().V1().Pods(),
		kubeInformerFactory.Scheduling().V1().PriorityClasses(),
		kubeflowInformerFactory.Kubeflow().V2beta1().MPIJobs(),
		opt)
	if err != nil {
		klog.Fatalf("Failed to setup the controller: %v", err)
	}
	go kubeInformerFactory.Start(ctx.Done())
	go kubeflowInformerFactory.Start(ctx.Done())
	if controller.PodGroupCtrl != nil {
		controller.PodGroupCtrl.StartInformerFactory(ctx.Done())
	}

	if *readyAddress != "" {
		var ready atomic.Bool
		go func() {
			kubeInformerFactory.WaitForCacheSync(ctx.Done())
			kubeflowInformerFactory.WaitForCacheSync(ctx.Done())
			ready.Store(true)
		}()
		mux := http.NewServeMux()
		mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
			if !ready.Load() {
				http.Error(w, "caches not synced", http.StatusServiceUnavailable)
			}
		})
		go func() { klog.Fatal(http.ListenAndServe(*readyAddress, mux)) }()
	}

	if err := controller.Run(opt.Threadiness, ctx.Done()); err != nil {
		klog.Fatalf("Error running controller: %s", err)
	}
}
