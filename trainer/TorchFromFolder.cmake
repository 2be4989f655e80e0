# libtorch from a folder, without TorchConfig.cmake (TRAINJOB_TORCH_FOLDER): include/ and lib/,
# as in a PyTorch wheel's torch/ or under Debian's /usr. A CUDA wheel's config enables CUDA as
# a language and wants most of the CUDA toolkit (nvcc, cuBLAS, cuFFT, cuRAND, nvrtc), though
# the trainer compiles no CUDA code: it needs libtorch's headers, CUDA's runtime headers and
# the libraries. tests/gpu/run.sh falls back to this where the config fails. It sets what
# find_package(Torch) would: the torch (and, with CUDA, torch_cuda) targets, TORCH_LIBRARIES
# and TORCH_CXX_FLAGS.
set(trainjob_torch_lib_dirs "${TRAINJOB_TORCH_FOLDER}/lib"
                            "${TRAINJOB_TORCH_FOLDER}/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
foreach(name IN ITEMS torch torch_cpu c10)
  find_library(TRAINJOB_TORCH_LIB_${name} ${name} PATHS ${trainjob_torch_lib_dirs}
               NO_DEFAULT_PATH REQUIRED)
endforeach()
find_package(Threads REQUIRED)
add_library(torch INTERFACE IMPORTED)
target_include_directories(torch SYSTEM INTERFACE
  "${TRAINJOB_TORCH_FOLDER}/include" "${TRAINJOB_TORCH_FOLDER}/include/torch/csrc/api/include")
target_compile_definitions(torch INTERFACE USE_DISTRIBUTED USE_C10D_GLOO)
# The libraries' own needs (NCCL, cuBLAS, libgomp, ...) are found at run time through their
# RUNPATH ($ORIGIN/../../nvidia/... in a wheel), which the linker does not follow.
target_link_options(torch INTERFACE -Wl,--allow-shlib-undefined)
set(trainjob_torch_libraries ${TRAINJOB_TORCH_LIB_torch} ${TRAINJOB_TORCH_LIB_torch_cpu}
                             ${TRAINJOB_TORCH_LIB_c10})

find_library(TRAINJOB_TORCH_LIB_torch_cuda torch_cuda PATHS ${trainjob_torch_lib_dirs}
             NO_DEFAULT_PATH)
if(TRAINJOB_TORCH_LIB_torch_cuda)
  find_library(TRAINJOB_TORCH_LIB_c10_cuda c10_cuda PATHS ${trainjob_torch_lib_dirs}
               NO_DEFAULT_PATH REQUIRED)
  # The CUDA toolkit's, or a wheel's nvidia/cu13/include (put in CMAKE_PREFIX_PATH's include/).
  find_path(TRAINJOB_CUDA_RUNTIME_INCLUDE_DIR cuda_runtime_api.h
            HINTS "$ENV{CUDA_HOME}/include" /usr/local/cuda/include REQUIRED)
  add_library(torch_cuda INTERFACE IMPORTED)
  # As the wheel's own config says of torch_cuda: NCCL is in.
  set_target_properties(torch_cuda PROPERTIES INTERFACE_COMPILE_DEFINITIONS USE_C10D_NCCL)
  target_include_directories(torch_cuda SYSTEM INTERFACE "${TRAINJOB_CUDA_RUNTIME_INCLUDE_DIR}")
  target_link_libraries(torch INTERFACE torch_cuda)
  # Nothing of ours calls into libtorch_cuda by name, but loading it is what registers CUDA
  # with libtorch: kept even though --as-needed would drop it.
  list(APPEND trainjob_torch_libraries -Wl,--no-as-needed ${TRAINJOB_TORCH_LIB_torch_cuda}
       ${TRAINJOB_TORCH_LIB_c10_cuda} -Wl,--as-needed)
endif()
target_link_libraries(torch INTERFACE ${trainjob_torch_libraries} Threads::Threads)
set(TORCH_LIBRARIES torch)
# Wheels since PyTorch 2.7 and Debian's 1.13 use the C++11 ABI; older official builds did not.
set(TRAINJOB_TORCH_CXX11_ABI 1 CACHE STRING "libtorch's _GLIBCXX_USE_CXX11_ABI (0 or 1)")
set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${TRAINJOB_TORCH_CXX11_ABI}")
message(STATUS "trainjob-trainer: libtorch from ${TRAINJOB_TORCH_FOLDER}, without its CMake config")
