// The functions are all `static inline` in the header; this file defines the one variable.
#include "_ShankAtomics.h"

__thread void *_shank_current_trace = 0;
