# twintile_add_kernel_library: kernels compiled at build time into a static
# library and a header of typed functions (docs/package.md).
#
#   twintile_add_kernel_library(NAME
#     SOURCES kernels.cpp                      the kernel file (one)
#     KERNELS "softmax<f16,1024>" "fwd=attention<f16,64>" ...
#                                              specializations; FUNCTION=SPEC names the function
#     [FRONTEND parse|trace]                   default: twintile's (trace)
#     [TARGETS sm_90a sm_80]                   the preferred first; default: both
#     [MATH precise|fast] [NUM_WARPS n] [NUM_STAGES n]
#     [ASSUME x:aligned n:divisible ...]       promises every call keeps (checked at each call)
#     [TUNED matmul.tuned.json "mm=attn.tuned.json" ...]
#                                              tuned tables (twintile tune --table): a function
#                                              each, FUNCTION=TABLE names it (default: the template's)
#   )
#
# makes the static library NAME (linking twintile::runtime alone) and its
# header NAME.h, with one function per specialization in namespace NAME:
#
#   twintile::runtime::Call softmax_f16_1024(twintile::runtime::Device &, twintile::runtime::Dim3 grid,
#                                            std::span<twintile::runtime::f16> x, ..., int32_t n,
#                                            const twintile::runtime::LaunchOptions & = {});
#
# Each specialization is compiled for every target, in variants for 16-byte
# aligned pointers and integers divisible by 16 besides one that promises
# nothing more than ASSUME; the call picks among them (runtime/
# KernelLibrary.h). A tuned function has no grid parameter: at each call it
# runs the configuration its table gives the call's key (the nearest row's
# where none is equal) over the table's grid expression. The kernel file,
# every file it includes and the tables are the build's dependencies, as is
# the twintile that compiles them.

# The depfile's paths are made relative to the build as Ninja reads them
# (CMP0116), whatever the including project's minimum version says:
# functions keep the policies in force where they are defined.
cmake_policy(PUSH)
cmake_policy(SET CMP0116 NEW)
function(twintile_add_kernel_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FRONTEND;MATH;NUM_WARPS;NUM_STAGES" "SOURCES;KERNELS;TARGETS;ASSUME;TUNED")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "twintile_add_kernel_library(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  list(LENGTH arg_SOURCES count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "twintile_add_kernel_library(${name}): SOURCES names one kernel file, got ${count}")
  endif()
  if(NOT arg_KERNELS AND NOT arg_TUNED)
    message(FATAL_ERROR "twintile_add_kernel_library(${name}): KERNELS names no specialization (\"softmax<f16,1024>\") "
                        "and TUNED no table")
  endif()
  if(NOT TARGET twintile::twintile)
    message(FATAL_ERROR "twintile_add_kernel_library(${name}): no twintile::twintile program (find_package(twintile))")
  endif()
  cmake_path(ABSOLUTE_PATH arg_SOURCES BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE source)

  set(flags --name ${name})
  foreach(kernel IN LISTS arg_KERNELS)
    list(APPEND flags --kernel "${kernel}")
  endforeach()
  set(tables)
  foreach(tuned IN LISTS arg_TUNED)
    if(tuned MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      set(function "${CMAKE_MATCH_1}=")
      set(table "${CMAKE_MATCH_2}")
    else()
      set(function "")
      set(table "${tuned}")
    endif()
    cmake_path(ABSOLUTE_PATH table BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags --tuned "${function}${table}")
    list(APPEND tables "${table}")
  endforeach()
  foreach(target IN LISTS arg_TARGETS)
    list(APPEND flags --target ${target})
  endforeach()
  if(arg_FRONTEND)
    list(APPEND flags --frontend ${arg_FRONTEND})
  endif()
  if(arg_MATH)
    list(APPEND flags --math ${arg_MATH})
  endif()
  if(arg_NUM_WARPS)
    list(APPEND flags --num-warps ${arg_NUM_WARPS})
  endif()
  if(arg_NUM_STAGES)
    list(APPEND flags --num-stages ${arg_NUM_STAGES})
  endif()
  foreach(promise IN LISTS arg_ASSUME)
    if(promise MATCHES "^([A-Za-z_][A-Za-z0-9_]*|\\*):aligned$")
      list(APPEND flags --assume-aligned ${CMAKE_MATCH_1})
    elseif(promise MATCHES "^([A-Za-z_][A-Za-z0-9_]*|\\*):divisible$")
      list(APPEND flags --assume-divisible ${CMAKE_MATCH_1})
    else()
      message(FATAL_ERROR "twintile_add_kernel_library(${name}): ASSUME takes PARAM:aligned or PARAM:divisible "
                          "(PARAM may be *), got '${promise}'")
    endif()
  endforeach()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  add_custom_command(
    OUTPUT "${dir}/${name}.h" "${dir}/${name}.cpp"
    COMMAND twintile::twintile library "${source}" ${flags} -o "${dir}" --depfile "${dir}/${name}.d"
    DEPENDS "${source}" ${tables} twintile::twintile
    DEPFILE "${dir}/${name}.d"
    COMMENT "twintile: compiling ${arg_SOURCES} into the kernel library ${name}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_library(${name} STATIC "${dir}/${name}.cpp" "${dir}/${name}.h")
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${dir}>")
  target_link_libraries(${name} PUBLIC twintile::runtime)
endfunction()
cmake_policy(POP)
