#include <sqlite3.h>

// NB: SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// NB: sqlite3_config is variadic; Swift cannot call it. Whether SQLite counts the memory it
// allocates (which takes a mutex at every allocation); before SQLite is first used only.
static inline int csqlite_config_memstatus(int on) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
