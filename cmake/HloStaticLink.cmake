# With HLO_STATIC_LLVM, every target that links LLVM (Debian's MLIR
# libraries name the shared libLLVM.so through the imported target `LLVM`)
# links a linker script instead: one group of all of LLVM's static
# component archives, so that only the objects a tool uses are pulled in.
# libstdc++ and libgcc are linked statically too; what is left dynamic is
# glibc, zlib and zstd, which every Linux machine has.
if(NOT HLO_STATIC_LLVM)
  return()
endif()
file(GLOB _hlo_llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
if(NOT _hlo_llvm_archives)
  message(FATAL_ERROR "HLO_STATIC_LLVM: no libLLVM*.a in ${LLVM_LIBRARY_DIR}")
endif()
list(JOIN _hlo_llvm_archives " " _hlo_group)
set(_hlo_script "${CMAKE_BINARY_DIR}/lib/libLLVM-static-group.so")
file(WRITE "${_hlo_script}" "GROUP ( ${_hlo_group} )\nINPUT ( -l:libz.so.1 -l:libzstd.so.1 )\n")
foreach(_config "" _RELEASE _RELWITHDEBINFO _DEBUG _MINSIZEREL)
  set_property(TARGET LLVM PROPERTY IMPORTED_LOCATION${_config} "${_hlo_script}")
endforeach()
set_property(TARGET LLVM PROPERTY IMPORTED_NO_SONAME TRUE)
add_link_options(-static-libstdc++ -static-libgcc -Wl,--as-needed)
