# `cmake --install`: what a program outside this tree builds against, and the
# CMake package that finds it (docs/package.md):
#
#   PREFIX/bin/twintile, twintile-opt       the programs
#   PREFIX/include/twintile.h, twintile/    the language, for those who write kernels
#   PREFIX/include/twintile-X.Y/            the libraries' headers ("runtime/Device.h")
#   PREFIX/lib/libtwintile_*.a              the libraries
#   PREFIX/lib/cmake/twintile/              find_package(twintile CONFIG): the targets
#                                           twintile::runtime, twintile::launch,
#                                           twintile::twintile (the program) and
#                                           twintile_add_kernel_library
#
# Every path in the package is relative to its own location: the prefix can
# be moved. twintile carries the language's files (frontends/common/
# LanguageFiles.h), so nothing installed reads this tree.

include(CMakePackageConfigHelpers)

set(TWINTILE_HEADER_DIR "${CMAKE_INSTALL_INCLUDEDIR}/twintile-${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
set(TWINTILE_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/twintile")

install(FILES include/twintile.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/twintile DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY support ir runtime frontends backend pipeline launch DESTINATION ${TWINTILE_HEADER_DIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

# The runtime, and the launch API with everything it compiles with. A
# program that links the installed runtime gets its public names; the others
# are exported because the launch API's static library needs them.
set_target_properties(twintile_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(twintile_launch PROPERTIES EXPORT_NAME launch)
add_executable(twintile::twintile ALIAS twintile)
add_library(twintile::runtime ALIAS twintile_runtime)
add_library(twintile::launch ALIAS twintile_launch)
if(TWINTILE_SANITIZE)
  # Built with the sanitizers, the libraries need their runtimes in whatever links them.
  foreach(lib twintile_support twintile_runtime)  # the two that depend on nothing of ours
    target_link_options(${lib} INTERFACE -fsanitize=address,undefined -fno-sanitize=vptr)
  endforeach()
endif()
install(TARGETS twintile twintile-opt
                twintile_runtime twintile_launch
                twintile_support twintile_llvm_targets twintile_ir twintile_frontend_common twintile_frontend_clang
                twintile_trace twintile_trace_host twintile_parse twintile_hybrid twintile_backend twintile_pipeline
                twintile_llvm twintile_clang
        EXPORT twintileTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${TWINTILE_HEADER_DIR})
install(EXPORT twintileTargets NAMESPACE twintile:: DESTINATION ${TWINTILE_PACKAGE_DIR})

# LLVM and Clang linked as shared libraries: the launch API's link names
# their packages' targets, which the package config then finds.
set(TWINTILE_PACKAGE_SHARED_LLVM OFF)
if(NOT TWINTILE_STATIC_LLVM)
  set(TWINTILE_PACKAGE_SHARED_LLVM ON)
endif()
configure_package_config_file(cmake/twintileConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/twintileConfig.cmake
                              INSTALL_DESTINATION ${TWINTILE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/twintileConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/twintileConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/twintileConfigVersion.cmake
              cmake/TwintileKernelLibrary.cmake
        DESTINATION ${TWINTILE_PACKAGE_DIR})
