#include "render/policy/flux_scripts.h"

#include <initializer_list>
#include <limits>
#include <utility>

#include "model/jobset_labels.h"

namespace trainjob {
namespace {

/// Where the flux-install emptyDir is mounted in both containers.
constexpr const char* kFluxBase = "/mnt/flux";

/// Replaces each `@NAME@` marker of `text` by its value.
std::string fill(std::string text,
                 std::initializer_list<std::pair<const char*, std::string>> values) {
  for (const auto& [marker, value] : values) {
    size_t at = 0;
    while ((at = text.find(marker, at)) != std::string::npos) {
      text.replace(at, std::char_traits<char>::length(marker), value);
      at += value.size();
    }
  }
  return text;
}

int64_t saturated_product(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<int64_t>::max();
  return product;
}

// Run by the flux-installer init container (the Flux view image): puts the view and the
// cluster's configuration on the flux-install emptyDir the trainer container mounts too.
constexpr const char* kInitScript = R"SH(#!/bin/sh
# Prepares the Flux view and configuration on the shared /mnt/flux volume.
fluxroot=/opt/view
export fluxroot
export PATH=/opt/view/bin:$PATH
echo "Setting up Flux on $(hostname); view root ${fluxroot}"
mkdir -p ${fluxroot}/bin

config=@BASE@/config
mkdir -p ${config}/etc/flux/system/cron.d ${config}/var/lib/flux ${config}/etc/flux/config

# The cluster's hosts, read back by the entrypoint to describe its resources.
hosts="@HOSTS@"
echo "${hosts}" > ${config}/etc/flux/system/hostlist

cat > ${config}/etc/flux/config/broker.toml <<'EOT'
@BROKER@
EOT
echo
echo "Flux broker configuration:"
cat ${config}/etc/flux/config/broker.toml

# Run and certificate directories, filled by the entrypoint.
mkdir -p ${config}/run/flux ${config}/etc/curve

# The view is a symlink tree under /opt/views/._view/<hash>; /opt/software holds what it
# links to and is restored at the same path in the trainer container.
mkdir -p @BASE@/view
view="/opt/views/._view/$(ls /opt/views/._view/)"
echo "Copying the Flux view ${view} to @BASE@/view"
cp -R ${view}/* @BASE@/view
cp -R /opt/software @BASE@/
touch @BASE@/flux-operator-done.txt
echo "Flux setup done."
)SH";

constexpr const char* kBrokerConfig = R"SH([access]
allow-guest-user = true
allow-root-owner = true

# Point to resource definition generated with flux-R(1).
[resource]
path = "@BASE@/config/etc/flux/system/R"

[bootstrap]
curve_cert = "@BASE@/config/etc/curve/curve.cert"
default_port = 8050
default_bind = "@BIND@"
default_connect = "@CONNECT@"
hosts = [
{ host="@HOSTS@"},
]

[archive]
dbpath = "@BASE@/config/var/lib/flux/job-archive.sqlite"
period = "1m"
busytimeout = "50s"

[sched-fluxion-qmanager]
queue-policy = "@QUEUE@"
)SH";

// The trainer container's command: /bin/bash entrypoint.sh "<original command>".
constexpr const char* kEntrypointScript = R"SH(#!/bin/bash
# Starts the Flux cluster around the trainer's command (given as one argument): the lead
# broker on pod 0 runs it with flux run; the other pods join as followers until it is done.
fluxuser=$(whoami)
fluxuid=$(id -u $fluxuser)

viewbase=@BASE@
viewroot=${viewbase}/view
configroot=${viewbase}/config
viewbin=${viewroot}/bin

# After the image's own PATH, so the image's tools (Python, say) come first.
export PATH=$PATH:${viewbin}

# The view links into /opt/software: restore it there.
cp -R ${viewbase}/software/* /opt/software/

# Flux runs with the Python of its view.
foundroot=$(find $viewroot -maxdepth 2 -type d -path $viewroot/lib/python3*) > /dev/null 2>&1
pythonversion=${viewroot}/bin/$(basename ${foundroot})
echo "Python version: $pythonversion"
echo "Python root: $foundroot"
if [[ -f "${pythonversion}" ]]; then
   rm -rf $viewroot/bin/python3 $viewroot/bin/python
   ln -s ${pythonversion} $viewroot/lib/python  || true
   ln -s ${pythonversion} $viewroot/lib/python3 || true
fi
export PYTHONPATH=${PYTHONPATH:-""}:${foundroot}/site-packages
export FLUX_RC_EXTRA=$viewroot/etc/flux/rc1.d

# Helpers for an interactive session: switch to the fluxion scheduler, load the view.
cat > /tmp/load-fluxion.sh <<EOT
flux module remove sched-simple
flux module load sched-fluxion-resource
flux module load sched-fluxion-qmanager
EOT
mv /tmp/load-fluxion.sh ${viewbase}/load-fluxion.sh
cat > /tmp/flux-view.sh <<EOT
#!/bin/bash
export PATH=$PATH
export PYTHONPATH=$PYTHONPATH
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-""}:$viewroot/lib
export fluxsocket=local://${configroot}/run/flux/local
EOT
mv /tmp/flux-view.sh ${viewbase}/flux-view.sh

cfg="${configroot}/etc/flux/config"
command="$@"

# The broker wants its CURVE certificate private to its user.
curvepath=${configroot}/etc/curve/curve.cert
cp /curve/curve.cert ${curvepath}
chmod o-r ${curvepath}
chmod g-r ${curvepath}
chown -R ${fluxuid} ${curvepath}

hosts=$(cat ${configroot}/etc/flux/system/hostlist)
flux R encode --hosts=${hosts} @RESOURCES@ > /tmp/R
mv /tmp/R ${configroot}/etc/flux/system/R

export STATE_DIR=${configroot}/var/lib/flux
export FLUX_OUTPUT_DIR=/tmp/fluxout
mkdir -p ${STATE_DIR} ${FLUX_OUTPUT_DIR}

mainHost="@MAIN_HOST@"
mkdir -p ${configroot}/etc/flux/system/cron.d
brokerOptions="-Scron.directory=${configroot}/etc/flux/system/cron.d \
  -Stbon.fanout=256 \
  -Srundir=${configroot}/run/flux  \
  -Sstatedir=${STATE_DIR} -Slocal-uri=local://$configroot/run/flux/local \
  -Slog-stderr-level=0  \
  -Slog-stderr-mode=local"

if [ "$(hostname)" = "${mainHost}" ]; then
  echo "Command provided is: ${command}"
  if [ -z "${command}" ]; then
    # No command: an interactive cluster, to be used with flux proxy.
    echo "flux broker --config-path ${cfg} ${brokerOptions}"
    flux broker --config-path ${cfg} ${brokerOptions}
  else
    flags="@FLAGS@"
    echo "Flags for flux are ${flags}"
    echo "flux start -o --config ${cfg} ${brokerOptions} flux run ${flags} ${command}"
    flux start -o --config ${cfg} ${brokerOptions} flux run ${flags} ${command}
  fi
else
  # Followers retry until the lead broker is up and has finished with them.
  echo "flux start -o --config ${cfg} ${brokerOptions}"
  while true; do
    flux start -o --config ${cfg} ${brokerOptions}
    retval=$?
    if [[ "${retval}" -eq 0 ]]; then
      echo "The follower worker exited cleanly. Goodbye!"
      break
    fi
    echo "Return value for follower worker is ${retval}"
    echo "Sleeping 15s to try again..."
    sleep 15
  done
fi

touch ${viewbase}/flux-operator-complete.txt
)SH";

}  // namespace

std::string flux_range(int64_t size, int64_t start) {
  if (size == 1) return std::to_string(start);
  return std::to_string(start) + "-" + std::to_string(start + size - 1);
}

std::string flux_hostlist(const std::string& trainjob, int64_t nodes) {
  return trainjob + "-" + kNodeName + "-0-[" + flux_range(nodes, 0) + "]";
}

std::string flux_connect_uri(const FluxCluster& cluster) {
  std::string domain = cluster.trainjob;
  if (!cluster.name_space.empty()) domain += "." + cluster.name_space + ".svc.cluster.local";
  return "tcp://%h." + domain + ":%p";
}

std::string flux_run_flags(const FluxCluster& cluster) {
  std::string flags = "-N " + std::to_string(cluster.nodes) + " -n " +
                      std::to_string(saturated_product(cluster.nodes, cluster.tasks_per_node));
  if (cluster.gpus_per_node > 0) flags += " -g " + std::to_string(cluster.gpus_per_node);
  return flags;
}

std::string flux_resource_flags(const FluxCluster& cluster) {
  std::string flags = "--cores=" + flux_range(cluster.tasks_per_node, 0);
  if (cluster.gpus_per_node > 0) flags += " --gpu=" + flux_range(cluster.gpus_per_node, 0);
  return flags;
}

std::string flux_broker_config(const FluxCluster& cluster) {
  return fill(kBrokerConfig, {{"@BASE@", kFluxBase},
                              {"@BIND@", "tcp://" + cluster.settings.network_device + ":%p"},
                              {"@CONNECT@", flux_connect_uri(cluster)},
                              {"@HOSTS@", flux_hostlist(cluster.trainjob, cluster.nodes)},
                              {"@QUEUE@", cluster.settings.queue_policy}});
}

std::string flux_init_script(const FluxCluster& cluster) {
  // The broker configuration goes in first: its text holds no markers of the script.
  return fill(kInitScript, {{"@BROKER@", flux_broker_config(cluster)},
                            {"@BASE@", kFluxBase},
                            {"@HOSTS@", flux_hostlist(cluster.trainjob, cluster.nodes)}});
}

std::string flux_entrypoint_script(const FluxCluster& cluster) {
  return fill(kEntrypointScript, {{"@BASE@", kFluxBase},
                                  {"@RESOURCES@", flux_resource_flags(cluster)},
                                  {"@MAIN_HOST@", first_pod_hostname(cluster.trainjob, kNodeName)},
                                  {"@FLAGS@", flux_run_flags(cluster) + "  "}});
}

}  // namespace trainjob
