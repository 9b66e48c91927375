/* sb_region_liveness: being written (see sb_region_passes.h). */
#include "r600/sb/sb_region_passes.h"
