# dnnl_kernels CMake package (installed to <prefix>/lib/cmake/dnnl_kernels by `make install` and by
# `cmake --install`): find_package(dnnl_kernels CONFIG) defines the INTERFACE target
# dnnl_kernels::dnnl_kernels, which adds <prefix>/include/dnnl_kernels to the include path and links
# libm. The prefix is found from this file's own place, so an installed tree can be moved.
get_filename_component(_dnnlk_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET dnnl_kernels::dnnl_kernels)
  add_library(dnnl_kernels::dnnl_kernels INTERFACE IMPORTED)
  set_target_properties(dnnl_kernels::dnnl_kernels PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES "${_dnnlk_prefix}/include/dnnl_kernels")
  if(NOT WIN32)
    set_property(TARGET dnnl_kernels::dnnl_kernels PROPERTY INTERFACE_LINK_LIBRARIES m)
  endif()
endif()
if(NOT EXISTS "${_dnnlk_prefix}/include/dnnl_kernels/dnnl_kernels.h")
  set(dnnl_kernels_FOUND FALSE)
  set(dnnl_kernels_NOT_FOUND_MESSAGE "no ${_dnnlk_prefix}/include/dnnl_kernels/dnnl_kernels.h")
endif()
unset(_dnnlk_prefix)
