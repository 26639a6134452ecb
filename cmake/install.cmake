# SPDX-License-Identifier: MIT
# What `cmake --install` puts under the prefix: headers, the four libraries, the tool, a
# pkg-config file per library and the CMake package isochor (isochor::isochor,
# isochor::formats, isochor::scene, isochor::render).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ic_targets isochor isochor_formats isochor_scene isochor_render)
install(TARGETS ${ic_targets} EXPORT isochorTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/isochor DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET isochor_cli)
  install(TARGETS isochor_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(ic_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/isochor)
install(EXPORT isochorTargets NAMESPACE isochor:: DESTINATION ${ic_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/isochorConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/isochorConfig.cmake
                              INSTALL_DESTINATION ${ic_cmake_dir})
# Before 1.0 a minor version may change the API (README, "Compatibility"): 0.2 satisfies
# find_package(isochor 0.2), not 0.1.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/isochorConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/isochorConfig.cmake
              ${PROJECT_BINARY_DIR}/isochorConfigVersion.cmake
        DESTINATION ${ic_cmake_dir})

# pkg-config files find the prefix from where they lie (${pcfiledir}), so they stay right for
# `cmake --install --prefix` and for a moved tree.
# One ".." per folder of LIBDIR/pkgconfig ("lib/pkgconfig" -> "../..").
string(REGEX REPLACE "[^/]+" ".." ic_pc_to_prefix "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
set(IC_PC_PREFIX "\${pcfiledir}/${ic_pc_to_prefix}")

# pkg-config: a static library's own dependencies are part of its link line (a user never
# lists zlib or cJSON); a shared library keeps them private. The isochor libraries a library
# builds on, and the engine's libm and threads (the headers' inline vector maths calls libm),
# are always public.
function(ic_pkg_config name description requires dependencies libs)
  if(BUILD_SHARED_LIBS)
    set(IC_PC_REQUIRES "${requires}")
    set(IC_PC_REQUIRES_PRIVATE "${dependencies}")
  else()
    set(IC_PC_REQUIRES "${requires} ${dependencies}")
    set(IC_PC_REQUIRES_PRIVATE "")
  endif()
  set(IC_PC_LIBS "-l${name} ${libs}")
  set(IC_PC_NAME ${name})
  set(IC_PC_DESCRIPTION "${description}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/isochor.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
# name, description, isochor libraries it builds on, other packages, link flags
ic_pkg_config(isochor "Volume-preserving soft bodies: the engine" "" "" "-lm -pthread")
ic_pkg_config(isochor_formats "isochor mesh file formats" "isochor" "zlib expat" "")
ic_pkg_config(isochor_scene "isochor JSON scenes and the scene runner" "isochor_formats" "libcjson" "")
ic_pkg_config(isochor_render "isochor software renderer (PNG)" "isochor_formats" "libpng" "")
