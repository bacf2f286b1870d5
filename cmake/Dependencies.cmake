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

# How LLVM and Clang are linked: their static libraries by default. Loading
# libLLVM.so and libclang-cpp.so costs every process about 20 ms of dynamic
# relocation before main() (`twintile --help`: 20 ms against 5 ms), a
# fifth of compiling the 12-variant softmax sweep in one driver command. The
# static link pulls in only what is used, and gold links it in seconds.
# twintile_llvm and twintile_clang stand for whichever way was chosen.
option(TWINTILE_STATIC_LLVM "Link LLVM's and Clang's static libraries into each executable" ON)
add_library(twintile_llvm INTERFACE)
add_library(twintile_clang INTERFACE)
if(TWINTILE_STATIC_LLVM AND (TWINTILE_SANITIZE OR TWINTILE_FUZZ))
  # Under AddressSanitizer LLVM's headers poison the slabs of the allocators
  # they inline; linked statically, the linker keeps one copy of each inline
  # function, ours or the archives' uninstrumented one, and the two disagree
  # (a use-after-poison in Clang's identifier table). A shared libLLVM.so keeps
  # its own copies.
  message(STATUS "twintile: sanitizers: LLVM and Clang linked as shared libraries, whatever TWINTILE_STATIC_LLVM says")
  set(TWINTILE_STATIC_LLVM OFF)
endif()
if(TWINTILE_STATIC_LLVM)
  # Clang's exported targets name libLLVM.so in their link interfaces
  # (Debian builds Clang against it), so the archives are named by file:
  # Clang's, then LLVM's as llvm-config orders them for our components, then
  # the system libraries LLVM uses.
  set(llvm_config "${LLVM_TOOLS_BINARY_DIR}/llvm-config")
  # The host's code generator and ORC, and what Clang's code generation
  # needs, are for the tracer's in-process host compile (HostCompile.h).
  execute_process(COMMAND "${llvm_config}" --link-static --libfiles NVPTXCodeGen NVPTXDesc NVPTXInfo
                          ${LLVM_NATIVE_ARCH}CodeGen ${LLVM_NATIVE_ARCH}AsmParser ${LLVM_NATIVE_ARCH}Desc
                          ${LLVM_NATIVE_ARCH}Info orcjit passes linker lto coverage frontenddriver
                          bitreader bitwriter irreader option frontendopenmp frontendhlsl windowsdriver target mc core
                          support
                  OUTPUT_VARIABLE llvm_archives OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE llvm_config_failed)
  execute_process(COMMAND "${llvm_config}" --link-static --system-libs
                  OUTPUT_VARIABLE llvm_system OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(llvm_archives UNIX_COMMAND "${llvm_archives}")
  separate_arguments(llvm_system UNIX_COMMAND "${llvm_system}")
  set(archives "")
  foreach(lib Tooling Format ToolingInclusions ToolingCore Rewrite CodeGen Frontend Driver Serialization Parse Sema APINotes
              Support Analysis ASTMatchers Edit AST Lex Basic)
    list(APPEND archives "${TWINTILE_LLVM_ROOT}/lib/libclang${lib}.a")
  endforeach()
  list(APPEND archives ${llvm_archives})
  set(missing "")
  if(llvm_config_failed)
    set(missing "llvm-config")
  endif()
  foreach(file ${archives})
    if(NOT EXISTS "${file}")
      list(APPEND missing "${file}")
    endif()
  endforeach()
  set(system "")
  foreach(flag ${llvm_system})  # -lz, or a library's path
    if(flag MATCHES "^-l(.+)$")
      set(name "${CMAKE_MATCH_1}")
      find_library(twintile_system_${name} NAMES "${name}")
      if(NOT twintile_system_${name})
        list(APPEND missing "lib${name}.so (its -dev package)")
      endif()
    elseif(NOT EXISTS "${flag}")
      list(APPEND missing "${flag}")
    endif()
    list(APPEND system "${flag}")
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    message(STATUS "twintile: LLVM's static libraries need ${missing}, which this machine lacks (scripts/setup "
                   "installs them); linking libLLVM.so and libclang-cpp.so instead")
    set(TWINTILE_STATIC_LLVM OFF)
  endif()
endif()
if(TWINTILE_STATIC_LLVM)
  # One group, searched until nothing is left unresolved (Clang's archives
  # refer to each other): an executable gets only the members it uses, so
  # the backend's alone carry no Clang.
  list(JOIN archives "," group)
  target_link_libraries(twintile_llvm INTERFACE "$<LINK_GROUP:RESCAN,${group}>" ${system})
  target_link_libraries(twintile_clang INTERFACE twintile_llvm)
  # LLVM's system libraries include libz3 (for Clang's static analyser, not
  # linked here): --as-needed keeps what is not used out of the executables.
  add_link_options(LINKER:--as-needed)
  find_program(TWINTILE_GOLD ld.gold)
  if(TWINTILE_GOLD)
    add_link_options(-fuse-ld=gold)
    message(STATUS "twintile: LLVM and Clang linked statically, by gold")
  else()
    message(STATUS "twintile: LLVM and Clang linked statically")
  endif()
else()
  target_link_libraries(twintile_llvm INTERFACE LLVM)
  target_link_libraries(twintile_clang INTERFACE clang-cpp twintile_llvm)
  message(STATUS "twintile: LLVM and Clang linked as shared libraries")
endif()
