# Writes a C++ file holding one topic's PTX, CUDA source and manifest as raw string literals.
# cmake -DTOPIC=copy -DPTX=copy.ptx -DCU=copy.cu -DMANIFEST=manifest.json -DOUT=copy_embed.cpp -P embed_kernel.cmake
file(READ "${PTX}" ptx_text)
file(READ "${CU}" cu_text)
file(READ "${MANIFEST}" manifest_text)
foreach(text ptx_text cu_text manifest_text)
  string(FIND "${${text}}" ")WSEMBED\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${TOPIC}: the delimiter )WSEMBED\" appears in an embedded file")
  endif()
endforeach()
file(WRITE "${OUT}" "// Generated from kernels/${TOPIC}: do not edit.\n#include \"demo_embedded.h\"\n\n"
  "namespace warpscope::kernels::embedded {\n"
  "extern const EmbeddedTopic topic_${TOPIC};\n"
  "const EmbeddedTopic topic_${TOPIC} = {\n  \"${TOPIC}\",\n"
  "  R\"WSEMBED(${ptx_text})WSEMBED\",\n"
  "  R\"WSEMBED(${cu_text})WSEMBED\",\n"
  "  R\"WSEMBED(${manifest_text})WSEMBED\",\n};\n}\n")
