// trainjob-trainer-worker: one worker as a program of its own (torchrun may start it, and the
// launcher does when it cannot load libtrainjob-trainer-worker.so).
#include "worker_entry.h"

int main(int argc, char** argv) {
  return trainjob_worker_main(argc, argv);
}
