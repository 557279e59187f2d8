// Random (version 4) UUIDs for table uuids, metadata file names and commit ids.
#pragma once

#include <string>

namespace floe {

// A random RFC 4122 version-4 UUID in lowercase 8-4-4-4-12 form. Thread-safe.
std::string random_uuid();

}  // namespace floe
