// CEpoll: Linux's epoll, which Swift's Glibc module does not bring, for the load of
// `cardtable bench tables` (thousands of client sockets on one thread).
#ifndef CARDTABLE_CEPOLL_SHIM_H
#define CARDTABLE_CEPOLL_SHIM_H

#include <sys/epoll.h>

#endif
