# The layering of the project's libraries (docs/architecture.md).
#
# HLO_LIBRARY_LAYERS lists every library of the package, lowest layer first,
# each followed by the project libraries it may link directly. A library may
# only name libraries listed before it, so the allowed graph has no cycle.
#
# hlo_check_layering(), called once every target exists, fails the
# configuration when
#   - a library of the table links a library of the project that its entry
#     does not allow: a wrong-direction dependency, one that closes a cycle,
#     or a library outside the package (the test passes of test/lib);
#   - a library of the package is missing from the table (or the table names
#     a library that does not exist).
# It also writes ${PROJECT_BINARY_DIR}/test/Layering/layers.txt, one line per
# library: its name, its source folder (relative to the source root) and every
# project library it may use, directly or not. test/Layering/includes.test
# checks the #include lines of lib/ and include/Hlo/ against it.

include_guard(GLOBAL)

set(HLO_LIBRARY_LAYERS
  # Support: data structures below the dialect (the IndexingMap).
  "MLIRHloIndexingMap"
  # LAPACK's factorizations (OpenBLAS's) for the interpreter and the host
  # runtime.
  "MLIRHloLapack"
  # The dialects: HLO, and the compiled program's thunks (which know no
  # HLO: the runtimes read them alone).
  "MLIRHlo            MLIRHloIndexingMap"
  "MLIRThunk"
  # Above the dialect, independent of each other.
  "MLIRHloTranslate   MLIRHlo"
  "MLIRHloAnalysis    MLIRHlo MLIRHloIndexingMap"
  "MLIRHloRuntime     MLIRHlo MLIRHloLapack"
  # The passes (the interpreter folds constants, the GPU cost model drives
  # fusion, buffer assignment dumps print HLO shapes).
  "MLIRHloTransforms  MLIRHlo MLIRHloAnalysis MLIRHloRuntime MLIRHloTranslate"
  # HLO to kernels (scalar lowering, host JIT; the emitters read indexing
  # maps). Never the interpreter: it is the oracle the tests compare with.
  "MLIRHloConversion  MLIRHlo MLIRHloAnalysis MLIRHloIndexingMap MLIRThunk"
  # Runs thunk programs on the CPU: kernels through the host JIT.
  "MLIRThunkRuntime   MLIRThunk MLIRHloLapack"
  "MLIRThunkHostRuntime MLIRThunk MLIRThunkRuntime MLIRHloConversion MLIRHloLapack"
  # Runs thunk programs on an NVIDIA GPU (built where CUDA's headers are).
  "MLIRThunkCudaRuntime MLIRThunk MLIRThunkRuntime"
  # Pipelines across the passes and the conversions (hlo-gpu-pipeline),
  # and a module compiled and run on the host or CUDA runtime.
  "MLIRHloPipelines   MLIRHloTransforms MLIRHloConversion MLIRHloRuntime MLIRThunkRuntime MLIRThunkHostRuntime MLIRThunkCudaRuntime"
)
# Libraries of the table that a configuration may leave out.
set(HLO_OPTIONAL_LIBRARIES MLIRThunkCudaRuntime)

# Every library target defined in `dir` or below (object libraries aside).
function(_hlo_collect_libraries dir out)
  set(result)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC|SHARED|MODULE)_LIBRARY$")
      list(APPEND result ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _hlo_collect_libraries(${subdir} sub)
    list(APPEND result ${sub})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

function(hlo_check_layering)
  set(errors)
  set(layered)
  # Parse the table; the closure of a library is every library it may use.
  foreach(entry IN LISTS HLO_LIBRARY_LAYERS)
    string(REGEX REPLACE "[ \t]+" ";" entry "${entry}")
    list(POP_FRONT entry lib)
    set(closure)
    foreach(dep IN LISTS entry)
      if(NOT dep IN_LIST layered)
        list(APPEND errors "HLO_LIBRARY_LAYERS: ${lib} may use ${dep}, which "
             "is not listed before it (a cycle or a wrong order)\n")
      endif()
      list(APPEND closure ${dep} ${_hlo_closure_${dep}})
    endforeach()
    list(REMOVE_DUPLICATES closure)
    set(_hlo_allowed_${lib} ${entry})
    set(_hlo_closure_${lib} ${closure})
    list(APPEND layered ${lib})
  endforeach()

  _hlo_collect_libraries(${PROJECT_SOURCE_DIR} project_libs)
  get_property(package_libs GLOBAL PROPERTY HLOMLIR_LIBS)
  foreach(lib IN LISTS package_libs)
    if(NOT lib IN_LIST layered)
      list(APPEND errors "library ${lib} is part of the package but not of "
           "HLO_LIBRARY_LAYERS (cmake/HloLayering.cmake): give it a layer\n")
    endif()
  endforeach()

  set(lines)
  foreach(lib IN LISTS layered)
    if(NOT TARGET ${lib} AND lib IN_LIST HLO_OPTIONAL_LIBRARIES)
      continue()
    elseif(NOT TARGET ${lib})
      list(APPEND errors "HLO_LIBRARY_LAYERS names ${lib}, which is not a "
           "target\n")
      continue()
    endif()
    get_target_property(links ${lib} LINK_LIBRARIES)
    get_target_property(interface_links ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(dep IN LISTS links interface_links)
      if(dep STREQUAL lib OR NOT dep IN_LIST project_libs)
        continue() # MLIR, LLVM, system libraries
      endif()
      if(NOT dep IN_LIST _hlo_allowed_${lib})
        list(APPEND errors "${lib} links ${dep}, which its layer does not "
             "allow (HLO_LIBRARY_LAYERS in cmake/HloLayering.cmake, layering "
             "in docs/architecture.md)\n")
      endif()
    endforeach()
    get_target_property(source_dir ${lib} SOURCE_DIR)
    file(RELATIVE_PATH source_dir ${PROJECT_SOURCE_DIR} ${source_dir})
    list(JOIN _hlo_closure_${lib} " " closure)
    string(APPEND lines "${lib} ${source_dir} ${closure}\n")
  endforeach()

  if(errors)
    list(REMOVE_DUPLICATES errors)
    string(JOIN "" message ${errors})
    message(FATAL_ERROR "library layering violated:\n${message}")
  endif()
  set(content
      "# library source-folder may-use... (cmake/HloLayering.cmake)\n${lines}")
  set(file ${PROJECT_BINARY_DIR}/test/Layering/layers.txt)
  set(old)
  if(EXISTS ${file})
    file(READ ${file} old)
  endif()
  if(NOT old STREQUAL content)
    file(WRITE ${file} "${content}")
  endif()
endfunction()
