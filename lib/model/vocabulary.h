// Every label, annotation, API version and well-known name the plugin reads or writes,
// in one place below render, kube and local, so that a key is spelled once and any two
// stages can use it together. The values are the upstream projects' (Kubeflow Trainer,
// JobSet, Kubernetes, the Training Operator, mpi-operator, Kueue, the schedulers, kpt and
// kustomize, Argo CD), except the `kubectl-trainjob/` ones, which are the plugin's own.
// tests/layers/check_vocabulary.py fails on a prefixed key or an apiVersion spelt elsewhere.
#ifndef TRAINJOB_MODEL_VOCABULARY_H_
#define TRAINJOB_MODEL_VOCABULARY_H_

namespace trainjob {

// --- API versions -----------------------------------------------------------------------

/// Kubernetes' Job: every object a TrainJob or a Training Operator v1 kind runs as.
inline constexpr const char* kBatchApiVersion = "batch/v1";
/// Kubernetes' Role and RoleBinding (a Training Operator v1 MPIJob's launcher execs into its
/// workers with them).
inline constexpr const char* kRbacApiVersion = "rbac.authorization.k8s.io/v1";

/// TrainJob, TrainingRuntime and ClusterTrainingRuntime.
inline constexpr const char* kTrainerApiVersion = "trainer.kubeflow.org/v1alpha1";
/// The prefix of every Trainer apiVersion.
inline constexpr const char* kTrainerGroupPrefix = "trainer.kubeflow.org/";
/// The Trainer's API group, as a TrainJob's runtimeRef.apiGroup names it.
inline constexpr const char* kTrainerApiGroup = "trainer.kubeflow.org";
/// JobSet's JobSet (what the Trainer's controller creates, and `render --target jobset`).
inline constexpr const char* kJobSetApiVersion = "jobset.x-k8s.io/v1alpha2";
/// The Training Operator v1 kinds (PyTorchJob, TFJob, ..., MPIJob v1).
inline constexpr const char* kKubeflowV1ApiVersion = "kubeflow.org/v1";
/// The mpi-operator's MPIJob.
inline constexpr const char* kKubeflowV2beta1ApiVersion = "kubeflow.org/v2beta1";
/// The prefix of every Training Operator and mpi-operator apiVersion.
inline constexpr const char* kKubeflowGroupPrefix = "kubeflow.org/";
/// Training Operator 1.9's pre-release Trainer API (TrainJob and the runtimes), which no
/// Trainer release serves: refused everywhere, migrated by `convert`.
inline constexpr const char* kKubeflowV2alpha1ApiVersion = "kubeflow.org/v2alpha1";
/// What kubeflow.org/v2alpha1 called the trainer's replicated job and container, its one
/// job of initializers (run as init containers), its runtimeRef group and its controller.
inline constexpr const char* kV2alpha1TrainerJob = "trainer-node";
inline constexpr const char* kV2alpha1TrainerContainer = "trainer";
inline constexpr const char* kV2alpha1InitializerJob = "initializer";
inline constexpr const char* kV2alpha1ApiGroup = "kubeflow.org";
inline constexpr const char* kV2alpha1ControllerName = "kubeflow.org/trainjob-controller";
/// The Trainer's hyperparameter sweep (KEP-3562, served by no release yet): compiled into one
/// TrainJob per trial by lib/optimize.
inline constexpr const char* kOptimizationJobKind = "OptimizationJob";
/// The coscheduling plugin's PodGroup.
inline constexpr const char* kSchedulingApiVersion = "scheduling.x-k8s.io/v1alpha1";
/// Volcano's PodGroup.
inline constexpr const char* kVolcanoPodGroupApiVersion = "scheduling.volcano.sh/v1beta1";
/// Kubernetes' own Workload and PodGroup (gang scheduling with nothing installed: 1.37, gate
/// GenericWorkload).
inline constexpr const char* kWorkloadApiVersion = "scheduling.k8s.io/v1beta1";

// --- Kubeflow Trainer -------------------------------------------------------------------

/// On every object of a TrainJob, so that status, logs and delete find them.
inline constexpr const char* kTrainJobNameLabel = "trainer.kubeflow.org/trainjob-name";
/// The step of a pod template in a runtime (dataset-initializer, model-initializer, trainer).
inline constexpr const char* kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
/// The framework a runtime is for (torch, deepspeed, ...), as `runtimes` lists it.
inline constexpr const char* kRuntimeFrameworkLabel = "trainer.kubeflow.org/framework";
/// A runtime's support level ("deprecated" draws a warning).
inline constexpr const char* kRuntimeSupportLabel = "trainer.kubeflow.org/support";
/// spec.managedBy values: the Trainer's own controller, and Kueue's MultiKueue.
inline constexpr const char* kTrainJobControllerName = "trainer.kubeflow.org/trainjob-controller";
inline constexpr const char* kMultiKueueControllerName = "kueue.x-k8s.io/multikueue";

/// The trainer's replicated job and its container, as every upstream runtime names them
/// (the torch policy's PET_MASTER_ADDR is the first pod of this job).
inline constexpr const char* kNodeName = "node";
/// Upstream's MPI policy finds its jobs by these names, not by label.
inline constexpr const char* kMpiLauncherJob = "launcher";
inline constexpr const char* kMpiNodeJob = kNodeName;
inline constexpr const char* kMpiOpenMpi = "OpenMPI";
/// The volumes the MPI policy adds: the SSH key Secret (both jobs) and the hostfile (the
/// launcher).
inline constexpr const char* kMpiSshVolume = "mpi-ssh-auth";
inline constexpr const char* kMpiHostfileVolume = "mpi-hostfile";
/// The initializers' replicated jobs and the `trainjob-ancestor-step` values of their pod
/// templates; the trainer's step is kTrainerStep.
inline constexpr const char* kDatasetInitializerName = "dataset-initializer";
inline constexpr const char* kModelInitializerName = "model-initializer";
inline constexpr const char* kTrainerStep = "trainer";

// --- JobSet -----------------------------------------------------------------------------
// The labels and annotations the JobSet controller puts on each child Job and its pods.

inline constexpr const char* kJobSetNameLabel = "jobset.sigs.k8s.io/jobset-name";
inline constexpr const char* kReplicatedJobNameLabel = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr const char* kJobIndexKey = "jobset.sigs.k8s.io/job-index";
inline constexpr const char* kReplicatedJobReplicasKey =
    "jobset.sigs.k8s.io/replicatedjob-replicas";
inline constexpr const char* kRestartAttemptKey = "jobset.sigs.k8s.io/restart-attempt";
inline constexpr const char* kGlobalReplicasKey = "jobset.sigs.k8s.io/global-replicas";
inline constexpr const char* kJobGlobalIndexKey = "jobset.sigs.k8s.io/job-global-index";
inline constexpr const char* kJobKeyKey = "jobset.sigs.k8s.io/job-key";
inline constexpr const char* kGroupNameKey = "jobset.sigs.k8s.io/group-name";
inline constexpr const char* kGroupReplicasKey = "jobset.sigs.k8s.io/group-replicas";
inline constexpr const char* kJobGroupIndexKey = "jobset.sigs.k8s.io/job-group-index";

// --- Kubernetes -------------------------------------------------------------------------

inline constexpr const char* kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr const char* kManagedByValue = "kubectl-trainjob";
/// Set by the Job controller on the pods of an Indexed Job.
inline constexpr const char* kCompletionIndexAnnotation =
    "batch.kubernetes.io/job-completion-index";
/// Set by the Job controller on a Job's pods.
inline constexpr const char* kJobNameLabel = "batch.kubernetes.io/job-name";
/// Set by the API server on a Job's selector and pod template (the Job's uid), beside
/// kJobNameLabel; the same two also under their older unprefixed names, which it still sets.
inline constexpr const char* kControllerUidLabel = "batch.kubernetes.io/controller-uid";
inline constexpr const char* kControllerUidLabelUnprefixed = "controller-uid";
inline constexpr const char* kJobNameLabelUnprefixed = "job-name";
/// The type of a Secret that holds an SSH key (ssh-privatekey), as the MPI policy's is.
inline constexpr const char* kSshAuthSecretType = "kubernetes.io/ssh-auth";
/// kubectl's TYPE/ before a NAME (`job.batch/T-node-0`), as kubectl prints the objects it acts
/// on: a Job, and the Workload API's PodGroup.
inline constexpr const char* kKubectlJobPrefix = "job.batch/";
inline constexpr const char* kKubectlWorkloadPodGroupPrefix = "podgroup.scheduling.k8s.io/";
/// kubeconfig: the exec credential plugin API whose version requires exec.interactiveMode,
/// and the name of the cluster extension that is passed to the plugin as its cluster config.
inline constexpr const char* kExecCredentialApiVersion = "client.authentication.k8s.io/v1";
inline constexpr const char* kExecClusterExtension = "client.authentication.k8s.io/exec";

// --- Training Operator v1 ---------------------------------------------------------------
// The label keys and values the Training Operator puts on its pods and Services.

inline constexpr const char* kOperatorNameLabel = "training.kubeflow.org/operator-name";
inline constexpr const char* kLegacyJobNameLabel = "training.kubeflow.org/job-name";
inline constexpr const char* kReplicaTypeLabel = "training.kubeflow.org/replica-type";
inline constexpr const char* kReplicaIndexLabel = "training.kubeflow.org/replica-index";
inline constexpr const char* kJobRoleLabel = "training.kubeflow.org/job-role";
inline constexpr const char* kJobRoleMaster = "master";
/// runPolicy.managedBy naming the operator itself; its webhooks accept only this and
/// kMultiKueueControllerName.
inline constexpr const char* kLegacyControllerName = "kubeflow.org/training-operator";
/// Replica types (keys of spec.*ReplicaSpecs), in the operator's canonical case.
inline constexpr const char* kReplicaMaster = "Master";
inline constexpr const char* kReplicaWorker = "Worker";
inline constexpr const char* kReplicaChief = "Chief";
inline constexpr const char* kReplicaPS = "PS";

// --- mpi-operator and the Training Operator's MPIJob --------------------------------------
// The names the two MPIJob operators give the objects of an MPIJob (mpi-operator's v2beta1,
// the Training Operator's v1), which lib/legacy writes and the client side reads.

/// mpi-operator's label `app: J` on the objects besides the pods.
inline constexpr const char* kMpiAppLabel = "app";
/// The pods' kOperatorNameLabel value of each operator: the Training Operator's MPIJob
/// controller, and mpi-operator.
inline constexpr const char* kMpiV1OperatorName = "mpijob-controller";
inline constexpr const char* kMpiOperatorName = "mpi-operator";
/// Where the ConfigMap `J-config` is mounted, and the volume's name (both operators).
inline constexpr const char* kMpiConfigVolume = "mpi-job-config";
inline constexpr const char* kMpiConfigMountPath = "/etc/mpi";
/// v2beta1: the volume of the SSH key Secret. v1: the emptyDir kubectl is copied into.
inline constexpr const char* kMpiLegacySshVolume = "ssh-auth";
inline constexpr const char* kMpiKubectlVolume = "mpi-job-kubectl";

// --- Open MPI ---------------------------------------------------------------------------
// The MCA variables an MPI launcher is configured by. Open MPI 4 (ORTE) reads the OMPI_MCA_*
// names; Open MPI 5 replaced ORTE with PRTE, reads PRTE_MCA_* and silently ignores the
// orte_* ones (Trainer#4028), so a launcher that sets only those runs every rank locally.

inline constexpr const char* kOmpiHostfileEnv = "OMPI_MCA_orte_default_hostfile";
inline constexpr const char* kOmpiKeepFqdnEnv = "OMPI_MCA_orte_keep_fqdn_hostnames";
inline constexpr const char* kOmpiSlotsEnv = "OMPI_MCA_orte_set_default_slots";
inline constexpr const char* kOmpiRshArgsEnv = "OMPI_MCA_plm_rsh_args";
/// Training Operator v1's MPIJob starts remote ranks through kubectl exec with this agent.
inline constexpr const char* kOmpiRshAgentEnv = "OMPI_MCA_plm_rsh_agent";
inline constexpr const char* kPrteHostfileEnv = "PRTE_MCA_prte_default_hostfile";
inline constexpr const char* kPrteKeepFqdnEnv = "PRTE_MCA_prte_keep_fqdn_hostnames";
inline constexpr const char* kPrteSlotsEnv = "PRTE_MCA_prte_set_default_slots";
inline constexpr const char* kPrteSshArgsEnv = "PRTE_MCA_plm_ssh_args";

// --- Schedulers and queues --------------------------------------------------------------

/// Kueue's queue label: a Job carrying it is admitted (unsuspended) by Kueue, which owns
/// spec.suspend then.
inline constexpr const char* kKueueQueueLabel = "kueue.x-k8s.io/queue-name";
inline constexpr const char* kKueuePriorityLabel = "kueue.x-k8s.io/priority-class";
/// Kueue's API: its Workloads (one per Job it manages), and the visibility API's pending
/// workloads of a LocalQueue (with their positions), where an APIService serves it.
inline constexpr const char* kKueueApiVersion = "kueue.x-k8s.io/v1beta2";
inline constexpr const char* kKueueVisibilityApiVersion = "visibility.kueue.x-k8s.io/v1beta2";
/// Kueue's Workload conditions: quota reserved in a ClusterQueue, admitted, finished.
inline constexpr const char* kKueueQuotaReserved = "QuotaReserved";
inline constexpr const char* kKueueAdmitted = "Admitted";
inline constexpr const char* kKueueFinished = "Finished";
/// Kueue's topology-aware scheduling: annotations it reads on pod templates only (a Job's
/// spec.template, a JobSet's replicatedJobs[].template.spec.template), naming a node label
/// (a topology level) that the pods of one pod set share.
inline constexpr const char* kKueueTasRequired = "kueue.x-k8s.io/podset-required-topology";
inline constexpr const char* kKueueTasPreferred = "kueue.x-k8s.io/podset-preferred-topology";
inline constexpr const char* kKueueTasUnconstrained =
    "kueue.x-k8s.io/podset-unconstrained-topology";
inline constexpr const char* kKueueTasSliceRequired =
    "kueue.x-k8s.io/podset-slice-required-topology";
inline constexpr const char* kKueueTasSliceSize = "kueue.x-k8s.io/podset-slice-size";
inline constexpr const char* kKueueTasGroupName = "kueue.x-k8s.io/podset-group-name";
/// The prefix of all of those topology annotations.
inline constexpr const char* kKueueTasPrefix = "kueue.x-k8s.io/podset-";
/// The pod label by which the coscheduling plugin (scheduler-plugins) finds a pod's group.
inline constexpr const char* kCoschedulingPodGroupLabel = "scheduling.x-k8s.io/pod-group";
/// The pod annotation by which Volcano finds a pod's group.
inline constexpr const char* kVolcanoGroupNameAnnotation = "scheduling.k8s.io/group-name";
/// Volcano's task name of a pod (the Training Operator writes the lowercase replica type).
inline constexpr const char* kVolcanoTaskSpecAnnotation = "volcano.sh/task-spec";
/// The Volcano queue a job names by annotation (mpi-operator's MPIJob, a TrainJob's JobSet).
inline constexpr const char* kVolcanoQueueNameAnnotation = "scheduling.volcano.sh/queue-name";
/// KAI Scheduler: the schedulerName its pods name, the label that puts a workload in a KAI
/// queue (on the top owner or the pod), the queue its pod grouper falls back to, and its
/// PodGroup. A pod joins a PodGroup made outside KAI's pod grouper by the annotation
/// pod-group-name; skip-podgrouper ("true") keeps the pod grouper from making its own.
inline constexpr const char* kKaiSchedulerName = "kai-scheduler";
inline constexpr const char* kKaiQueueLabel = "kai.scheduler/queue";
inline constexpr const char* kKaiDefaultQueue = "default-queue";
inline constexpr const char* kKaiPodGroupApiVersion = "scheduling.run.ai/v2alpha2";
inline constexpr const char* kKaiPodGroupAnnotation = "pod-group-name";
inline constexpr const char* kKaiSkipPodGrouperAnnotation = "kai.scheduler/skip-podgrouper";

// --- kpt and kustomize ------------------------------------------------------------------
// The annotations by which kpt and kustomize track the items of a KRM function's input.

/// The prefixes of the annotations kpt and kustomize own (a function leaves them to the
/// tools): config.kubernetes.io/ is also the group of the ResourceList apiVersion.
inline constexpr const char* kKrmConfigPrefix = "config.kubernetes.io/";
inline constexpr const char* kKrmInternalConfigPrefix = "internal.config.kubernetes.io/";
inline constexpr const char* kKrmLegacyConfigPrefix = "config.k8s.io/";
inline constexpr const char* kKustomizeConfigPrefix = "kustomize.config.k8s.io/";
/// The file, relative to the package, an item was read from and is written back to.
inline constexpr const char* kKrmPathAnnotation = "config.kubernetes.io/path";
/// Its position among the documents of that file, from 0 (a decimal string).
inline constexpr const char* kKrmIndexAnnotation = "config.kubernetes.io/index";
/// The same two under the names kpt reads first; it sets both and so do we.
inline constexpr const char* kKrmInternalPathAnnotation = "internal.config.kubernetes.io/path";
inline constexpr const char* kKrmInternalIndexAnnotation = "internal.config.kubernetes.io/index";
/// kpt's identity of an input item, by which it carries comments over to the output item
/// of the same id; objects a function creates have none.
inline constexpr const char* kKrmIdAnnotation = "internal.config.kubernetes.io/id";
inline constexpr const char* kKrmLegacyIdAnnotation = "config.k8s.io/id";
/// kustomize's identity of an input resource for a legacy exec transformer.
inline constexpr const char* kKustomizeIdAnnotation = "kustomize.config.k8s.io/id";

// --- Argo CD ----------------------------------------------------------------------------

/// The order Argo CD applies objects in: lower waves first, each healthy before the next
/// (`render --gitops-order argocd` puts one on each Job, for dependsOn).
inline constexpr const char* kArgoSyncWaveAnnotation = "argocd.argoproj.io/sync-wave";

// --- OptimizationJob trials ----------------------------------------------------------------
// The names upstream's unmerged OptimizationJob controller (kubeflow/trainer#3828) gives its
// trial TrainJobs, so that the SDK's trainer_native backend finds ours as it would find its.

/// On every object of a trial: the OptimizationJob it belongs to.
inline constexpr const char* kOptimizationJobNameLabel =
    "trainer.kubeflow.org/optimizationjob-name";
/// The trial's assignment as compact JSON ({"lr":"0.01"}), on every object of a trial.
inline constexpr const char* kOptimizationParametersAnnotation =
    "trainer.kubeflow.org/optimization-parameters";
/// The env prefix of a trial value: KUBEFLOW_TRAINER_OPT_<PARAMETER> in spec.trainer.env.
inline constexpr const char* kOptimizationEnvPrefix = "KUBEFLOW_TRAINER_OPT_";
/// What a trial TrainJob's name adds to its OptimizationJob's: `<name>-trial-<k>`, k from 1.
inline constexpr const char* kTrialNameInfix = "-trial-";
/// The plugin's own: the trial's number (from 1), so that `status` orders the trials.
inline constexpr const char* kTrialIndexLabel = "kubectl-trainjob/trial-index";
/// The plugin's own, on every object of a trial: what `status OPTJOB` needs to weigh the
/// trials after the run: the objective ({"metric":"loss","direction":"Minimize"}) and, for
/// a random search, the seed its values were drawn with.
inline constexpr const char* kOptimizationObjectiveAnnotation =
    "kubectl-trainjob/optimization-objective";
inline constexpr const char* kOptimizationSeedAnnotation = "kubectl-trainjob/optimization-seed";
/// How many trials the sweep has, so that `status` counts those not created yet.
inline constexpr const char* kOptimizationTrialsAnnotation = "kubectl-trainjob/optimization-trials";
/// Why the search stopped before its end (Ctrl-C, a metric no trial reports), put on every
/// object of its trials when it stopped, so that `status` says so later.
inline constexpr const char* kOptimizationStoppedAnnotation =
    "kubectl-trainjob/optimization-stopped";

// --- The plugin's own -------------------------------------------------------------------
// The annotations render writes for the client side (`submit`, `status`, `run --local`) to
// act on: what a JobSet or Trainer controller would do in the cluster, done by the plugin.

/// JobSet's successPolicy, as compact JSON, on every Job of a TrainJob whose runtime has one:
/// no JobSet controller exists, so `submit --wait` and `status` read it from the Jobs.
inline constexpr const char* kSuccessPolicyAnnotation = "kubectl-trainjob/success-policy";
/// JobSet's failurePolicy.maxRestarts when above 0 ("2"), on every Job of the TrainJob: the
/// client that waits (`submit --wait`, `wait --restart`, perhaps another process) reads from
/// the Jobs how often it may delete and create them all again, as JobSet restarts a JobSet.
inline constexpr const char* kMaxRestartsAnnotation = "kubectl-trainjob/max-restarts";
/// A replicated job's dependsOn list, as compact JSON, on each of its Jobs (read the same way).
inline constexpr const char* kDependsOnAnnotation = "kubectl-trainjob/depends-on";
/// On an object `submit` creates only when it does not exist yet (a generated Secret).
inline constexpr const char* kCreateOnlyIfAbsentAnnotation =
    "kubectl-trainjob/create-only-if-absent";
/// On every Job compiled from a Training Operator v1 kind (or an mpi-operator MPIJob): the
/// kind it came from (`PyTorchJob`), which `list` and `status` name and by which the client
/// side knows the Job follows its kind's rules rather than a TrainJob's.
inline constexpr const char* kSourceKindAnnotation = "kubectl-trainjob/source-kind";
/// How many Jobs the replica type of this Job has ("2"), so that a success policy with
/// operator All knows how many it waits for (a TrainJob's Jobs say it in a JobSet label).
inline constexpr const char* kReplicasAnnotation = "kubectl-trainjob/replicas";
/// A legacy kind's runPolicy.cleanPodPolicy when it is Running or All (None, the default, is
/// not written): `submit --wait` applies it when the job finishes, as the operator would.
inline constexpr const char* kCleanPodPolicyAnnotation = "kubectl-trainjob/clean-pod-policy";
/// Put by `submit --wait` on a Job whose pods it stopped or deleted for that policy (the value
/// is the policy), so that `status` and `list` show them as stopped, not failed.
inline constexpr const char* kStoppedByAnnotation = "kubectl-trainjob/stopped-by-clean-pod-policy";
/// What `submit` puts on every object it applies, so that `delete` removes exactly those: an
/// object the user made with the TrainJob's label but without this one is not ours.
inline constexpr const char* kCreatedBySubmitLabel = "kubectl-trainjob/created-by-submit";
inline constexpr const char* kCreatedBySubmitValue = "true";
/// Beside it, the kinds `submit` applied ("v1/Secret,batch/v1/Job"), so that `delete` also
/// looks for a kind from the inputs outside the usual ones (a PersistentVolumeClaim, say).
inline constexpr const char* kSubmittedKindsAnnotation = "kubectl-trainjob/submitted-kinds";
/// The field manager of server-side apply.
inline constexpr const char* kFieldManager = "kubectl-trainjob";
/// The runtimePatches manager `convert` writes: each patch needs one, unique in its TrainJob.
inline constexpr const char* kConvertPatchManager = "kubectl-trainjob/convert";
/// The documented apiVersion and kind of the KRM function's configuration (any kind is
/// accepted).
inline constexpr const char* kKrmConfigApiVersion = "kubectl-trainjob/v1";
inline constexpr const char* kKrmConfigKind = "TrainJobRenderer";
/// The image repository of the embedded cpp-trainer runtime, where dist/push-trainer-image.sh
/// pushes it by default (docs/trainer-image.md); `run --local` runs it, by tag or digest, from
/// the trainjob-trainer built beside the plugin.
inline constexpr const char* kTrainerImage = "localhost:5000/trainjob-trainer";

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_VOCABULARY_H_
