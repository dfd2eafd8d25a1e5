#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/fracture/fracture.h"

namespace adj::fracture {

// The implementations, one file each; call them through Variants().
StartFn StartSerial;
StartFn StartSerialPrinted;
StartFn StartOpenMp;
StartFn StartDataParallel;
StartFn StartFlatHost;
// The cuda variant's passes, published search included, one item after
// another on the host: a test of that formulation (serial's frames).
StartFn StartFlatHostPublished;
#if ADJ_HAVE_CUDA
StartFn StartCuda;
StartFn StartCudaDataParallel;
#endif

}  // namespace adj::fracture
