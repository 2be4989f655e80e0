// The worker's entry point, shared by the trainjob-trainer-worker program and the library
// the launcher loads before forking its workers.
#pragma once

// argv as a program's main gets it; returns the exit status (or ends the process itself
// after a failure whose teardown could block).
extern "C" int trainjob_worker_main(int argc, char** argv);

// Its type, for dlsym.
using WorkerMain = int (*)(int, char**);
