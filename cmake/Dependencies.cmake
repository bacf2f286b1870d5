# Third-party dependencies, all from Debian 12 (scripts/setup installs them).

find_package(Catch2 REQUIRED)          # catch2 2.13 (header-only, with Catch.cmake)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(CLI11 REQUIRED)

# FileCheck and lit come with LLVM 19's tools (llvm-19-tools).
set(TWINTILE_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "Root of the LLVM 19 installation")
find_program(FILECHECK_EXECUTABLE FileCheck HINTS "${TWINTILE_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
find_program(FILECHECK_EXECUTABLE FileCheck-19 FileCheck)
find_file(LIT_SCRIPT lit.py HINTS "${TWINTILE_LLVM_ROOT}/build/utils/lit" NO_DEFAULT_PATH)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# CUDA's compiler tools: an installed toolkit, else the pinned wheels that
# scripts/setup put in .venv/. All optional: what needs them says it skipped.
file(GLOB TWINTILE_VENV_CUDA "${PROJECT_SOURCE_DIR}/.venv/lib/python3*/site-packages/nvidia/cu13")
find_program(TWINTILE_PTXAS ptxas HINTS ${TWINTILE_VENV_CUDA}/bin /usr/local/cuda/bin)
find_program(TWINTILE_NVCC nvcc HINTS ${TWINTILE_VENV_CUDA}/bin /usr/local/cuda/bin)
find_file(TWINTILE_LIBDEVICE libdevice.10.bc
          HINTS ${TWINTILE_VENV_CUDA}/nvvm/libdevice /usr/local/cuda/nvvm/libdevice)
foreach(tool TWINTILE_PTXAS TWINTILE_NVCC TWINTILE_LIBDEVICE)
  if(${tool})
    message(STATUS "twintile: ${tool}: ${${tool}}")
  else()
    message(STATUS "twintile: ${tool}: not found (run scripts/setup); tests that need it will say they skipped")
  endif()
endforeach()

# LLVM and Clang 19 (Debian's 19.1.7 rejects a bare "19" version request, so
# none is asked for; the directories pin the version instead).
set(LLVM_DIR "${TWINTILE_LLVM_ROOT}/lib/cmake/llvm" CACHE PATH "LLVM's CMake package")
set(Clang_DIR "${TWINTILE_LLVM_ROOT}/lib/cmake/clang" CACHE PATH "Clang's CMake package")
find_package(LLVM CONFIG REQUIRED)
find_package(Clang CONFIG REQUIRED)
message(STATUS "twintile: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
if(NOT LLVM_PACKAGE_VERSION VERSION_GREATER_EQUAL 19 OR LLVM_PACKAGE_VERSION VERSION_GREATER_EQUAL 20)
  message(FATAL_ERROR "twintile needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
# Clang's resource directory (builtin headers), for the parsing front end.
set(TWINTILE_CLANG_RESOURCE_DIR "${TWINTILE_LLVM_ROOT}/lib/clang/${LLVM_VERSION_MAJOR}")
