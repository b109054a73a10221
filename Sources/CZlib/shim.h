// CZlib: zlib, for gzip-compressed static files and the tests' compressed transcripts.
//
// Function-like macros do not import into Swift; they are wrapped here.
#ifndef CARDTABLE_CZLIB_SHIM_H
#define CARDTABLE_CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 for gzip output (window bits 15 + 16) at `level`.
static inline int cz_deflate_init_gzip(z_streamp stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// inflateInit2 that reads gzip or zlib streams (window bits 15 + 32).
static inline int cz_inflate_init_auto(z_streamp stream) {
  return inflateInit2(stream, 15 + 32);
}

#endif
