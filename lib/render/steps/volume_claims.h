// JobSet volumeClaimPolicies on plain Jobs: one PersistentVolumeClaim per template, named
// and mounted as the JobSet controller does (v0.11+), owned by the TrainJob like the Jobs.
#ifndef TRAINJOB_RENDER_STEPS_VOLUME_CLAIMS_H_
#define TRAINJOB_RENDER_STEPS_VOLUME_CLAIMS_H_

#include <string>

#include "render/compile_state.h"

namespace trainjob {

/// `<template name>-<TrainJob name>`, as JobSet names the claim of `<jobset name>`.
std::string volume_claim_name(const std::string& template_name, const std::string& trainjob);

/// JobSet's webhook checks on spec.template.spec.volumeClaimPolicies: names unique, DNS-1123
/// subdomains, claim names within 63 characters, no namespace, some container or init
/// container mounting each, no replicated-job volume of the same name. Located errors on the
/// runtime; a warning for retentionPolicy Retain, which `delete` does not keep.
bool check_volume_claims(const CompileState& state);

/// Adds a claim volume to every pod template whose containers or init containers mount the
/// template by name, and the PersistentVolumeClaims to the objects emitted before the Jobs.
void apply_volume_claims(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_VOLUME_CLAIMS_H_
