/*
 * SmallVector for sb's code: it lives in common/small_vector.h since the
 * bytecode model (r600_bytecode.h) uses it too.
 */
#pragma once

#include "common/small_vector.h"

namespace sbcc::r600::sb {

using sbcc::SmallVector;

} // namespace sbcc::r600::sb
