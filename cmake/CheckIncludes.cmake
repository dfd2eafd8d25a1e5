# Run by adj_check_includes at build time: -DCONFIG=<file> that sets UNIT,
# FILES, ALLOWED (regexes a quoted include must match whole) and STAMP.
include("${CONFIG}")
set(errors "")
foreach(file IN LISTS FILES)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\"([^\"]+)\"" quoted "${line}")
    set(header "${CMAKE_MATCH_1}")
    set(allowed FALSE)
    foreach(pattern IN LISTS ALLOWED)
      if(header MATCHES "^${pattern}$")
        set(allowed TRUE)
        break()
      endif()
    endforeach()
    if(NOT allowed)
      string(APPEND errors "  ${file}: #include \"${header}\"\n")
    endif()
  endforeach()
endforeach()
if(errors)
  string(REPLACE ";" ", " allowed_text "${ALLOWED}")
  message(FATAL_ERROR "${UNIT} includes what it does not declare "
          "(allowed: ${allowed_text}; the adj_check_includes or "
          "adj_add_family call of its CMakeLists.txt says why: a family may "
          "include only the PUBLIC_HEADERS of the families it DEPENDS on):\n"
          "${errors}")
endif()
file(TOUCH "${STAMP}")
