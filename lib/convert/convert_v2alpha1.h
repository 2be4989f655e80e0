// Training Operator 1.9's pre-release Trainer API (kubeflow.org/v2alpha1) moved to the
// released one (trainer.kubeflow.org/v1alpha1). The v2alpha1 TrainJob and runtimes are the
// Trainer 2.0 forms under other names, so a document is first rewritten into the 2.0 form
// and then converted to the target release as a 2.0 document is.
#ifndef TRAINJOB_CONVERT_CONVERT_V2ALPHA1_H_
#define TRAINJOB_CONVERT_CONVERT_V2ALPHA1_H_

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"

namespace trainjob {

/// A kubeflow.org/v2alpha1 TrainJob, TrainingRuntime or ClusterTrainingRuntime in
/// `release`'s form. What no release can carry (the model exporter, the runtime's shared
/// `initializer` job) is a located error in `diagnostics`, never dropped.
Json convert_v2alpha1(const Document& document, Dialect release, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_V2ALPHA1_H_
