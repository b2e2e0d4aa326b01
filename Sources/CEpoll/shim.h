// Linux epoll, which Swift's Glibc module does not export (docs/reference/http-server.md §2.2 notes the same for
// accept4). Part of glibc: no library to link, no pkg-config.
#include <sys/epoll.h>
