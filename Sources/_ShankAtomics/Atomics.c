// The functions are all `static inline` in the header; this file defines the variables.
#include "_ShankAtomics.h"

__thread void *_shank_current_trace = 0;
__thread uintptr_t _shank_current_hazard = 0;
uintptr_t _shank_observing = 0;
uintptr_t _shank_latest_root = 0;
uintptr_t _shank_overrides_installed = 0;
