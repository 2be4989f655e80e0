// Whether a container's `image` is a reference the kubelet can pull: the grammar of
// distribution/reference (what the kubelet parses with before it pulls). The API server
// only asks for a non-empty string, so a bad reference is accepted and every pod then fails
// with InvalidImageName; this finds it before the objects reach a cluster.
#ifndef TRAINJOB_K8S_IMAGE_REFERENCE_H_
#define TRAINJOB_K8S_IMAGE_REFERENCE_H_

#include <string>
#include <string_view>

namespace trainjob {

/// What is wrong with `image` as `[host[:port]/]path[:tag][@algorithm:hex]`, in a few
/// words ("the tag after ':' is empty"); empty when it is a valid reference. The first
/// component is the registry host when it has a '.' or ':', is `localhost` or has an
/// upper-case letter, as the kubelet's normalisation decides; the path is lower case.
std::string image_reference_problem(std::string_view image);

/// The whole finding for a bad `image`, what it means for the pods and what is expected;
/// empty when `image` is a reference (an empty image is the API server's, not this).
std::string image_reference_error(std::string_view image);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_IMAGE_REFERENCE_H_
