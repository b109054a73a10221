// CWebSockets: libwebsockets 4.1 (which includes <uv.h> itself, so libuv comes with it).
//
// Function-like and expression macros do not import into Swift; they are wrapped here.
#ifndef CARDTABLE_CWEBSOCKETS_SHIM_H
#define CARDTABLE_CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <linux/sched.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <uv.h>

/// Gives freed heap pages back to the system (glibc keeps them otherwise).
static inline int cws_malloc_trim(void) { return malloc_trim(0); }

/// Bytes of headroom lws_write needs before a payload.
static inline size_t cws_pre(void) { return LWS_PRE; }

/// Context option: run on a libuv loop (ours, passed in foreign_loops).
static inline uint64_t cws_option_libuv(void) { return LWS_SERVER_OPTION_LIBUV; }

/// Context option: create no vhost with the context; the caller creates it, so a failed bind
/// leaves a whole context to destroy.
static inline uint64_t cws_option_explicit_vhosts(void) {
  return LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
}

/// Context option: listen on IPv4 only.
static inline uint64_t cws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }

/// Errors and warnings only: lws logs notices for every vhost it creates.
static inline int cws_log_errors_and_warnings(void) { return LLL_ERR | LLL_WARN; }

/// Gives the calling thread a copy of the process's descriptor table of its own
/// (`unshare(CLONE_FILES)`; Swift's Glibc module does not bring `unshare`): 0, or -1 with errno.
static inline int cws_unshare_descriptor_table(void) {
  return (int)syscall(SYS_unshare, CLONE_FILES);
}

#endif
