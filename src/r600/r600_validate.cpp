#include "r600/r600_emu.h"
namespace sbcc::r600 {
bool validate_program(const Program &, const ShaderInfo &, Diagnostics &) { return true; }
}
