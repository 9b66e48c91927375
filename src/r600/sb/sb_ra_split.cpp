/* sb_ra_split: being written (see sb_region_passes.h). */
#include "r600/sb/sb_region_passes.h"
