/* status.c — names of keel_status values and the kernel version. */
#include "keel.h"

static const char *const status_names[KEEL_STATUS_COUNT] = {
  [KEEL_OK] = "ok",
  [KEEL_E_NOMEM] = "out of memory",
  [KEEL_E_ARG] = "argument out of its domain",
  [KEEL_E_RANGE] = "coordinate or count out of range",
  [KEEL_E_LABEL] = "malformed label",
  [KEEL_E_SECTION] = "unknown map section",
  [KEEL_E_NOT_ADJACENT] = "hexes are not adjacent",
  [KEEL_E_OFF_BOARD] = "hex is not on the board",
  [KEEL_E_NOT_FOUND] = "not found",
  [KEEL_E_DUPLICATE] = "defined twice",
  [KEEL_E_PARSE] = "does not parse",
  [KEEL_E_IO] = "input/output error",
  [KEEL_E_VERSION] = "incompatible version",
  [KEEL_E_CHECKSUM] = "damaged: checksum mismatch",
  [KEEL_E_CAPACITY] = "capacity exceeded",
  [KEEL_E_STATE] = "not valid in the current state",
  [KEEL_E_LIMIT] = "limit reached",
  [KEEL_E_FROZEN] = "the state is frozen: listing or checking orders changes nothing",
  [KEEL_E_NOT_REGULAR] = "not a regular file",
};

const char *keel_status_str(keel_status status) {
  if ((unsigned)status >= KEEL_STATUS_COUNT) return "unknown status";
  return status_names[status];
}

#ifndef KEEL_VERSION
#define KEEL_VERSION "0.0.0"
#endif
const char *keel_version(void) { return KEEL_VERSION; }
