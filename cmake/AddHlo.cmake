# Helpers that declare the project's libraries and tools.
#
# add_mlir_library installs what it builds into the export set `MLIRTargets`,
# the set of MLIR itself. Our libraries belong to our own package instead:
# the wrappers below build with add_mlir_(dialect_)library, disable its
# install, and install into the export set `HloMLIRTargets`, from which
# cmake/CMakeLists.txt writes HloMLIRTargets.cmake (build and install tree).
#
# Libraries that are not part of the package (test passes, benchmarks) use
# add_mlir_library directly with DISABLE_INSTALL and are not exported.

include_guard(GLOBAL)

# Install folders, relative to the prefix (those of MLIR's own libraries).
set(HLOMLIR_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(HLOMLIR_INSTALL_BINDIR bin)
set(HLOMLIR_INSTALL_INCLUDEDIR include)

# Installs library or tool `name` into the package's export set and records
# it in the global property HLOMLIR_EXPORTS.
function(hlo_install_target name)
  install(TARGETS ${name}
    EXPORT HloMLIRTargets
    COMPONENT hlo-mlir
    LIBRARY DESTINATION ${HLOMLIR_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${HLOMLIR_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${HLOMLIR_INSTALL_BINDIR})
  set_property(GLOBAL APPEND PROPERTY HLOMLIR_EXPORTS ${name})
endfunction()

# A library of the package: users of the exported target get the project's
# headers (source and generated ones in the build tree, include/ once
# installed); MLIR's own headers come with find_package(MLIR), as for any
# MLIR-based project.
function(hlo_export_library name)
  target_include_directories(${name} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${HLOMLIR_INSTALL_INCLUDEDIR}>)
  hlo_install_target(${name})
  set_property(GLOBAL APPEND PROPERTY HLOMLIR_LIBS ${name})
endfunction()

# add_mlir_library for a library of the package.
function(add_hlo_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  hlo_export_library(${name})
endfunction()

# add_mlir_dialect_library (also lists the library in MLIR_DIALECT_LIBS) for
# a dialect library of the package.
function(add_hlo_dialect_library name)
  add_mlir_dialect_library(${name} ${ARGN} DISABLE_INSTALL)
  hlo_export_library(${name})
endfunction()

# A tool of the package (installed into bin/, exported as an executable
# target so that users can run it, e.g. `$<TARGET_FILE:hlo-opt>`).
function(hlo_install_tool name)
  hlo_install_target(${name})
  set_property(GLOBAL APPEND PROPERTY HLOMLIR_TOOLS ${name})
endfunction()
