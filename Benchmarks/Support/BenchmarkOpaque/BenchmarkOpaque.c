// The barrier is header-only (include/BenchmarkOpaque.h); a C target needs one source file.
#include "BenchmarkOpaque.h"
