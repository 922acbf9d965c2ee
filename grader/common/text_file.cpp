// SPDX-License-Identifier: MIT
#include "grader/common/text_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace grader {

bool read_text_file(const std::string& path, std::string& text, std::string* why) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) {
        if (why) *why = std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        if (why) *why = "not a regular file";
        return false;
    }
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    if (!f) {
        if (why) *why = "could not be read";
        return false;
    }
    text = ss.str();
    return true;
}

}  // namespace grader
