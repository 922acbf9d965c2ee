// SPDX-License-Identifier: MIT
// Short SASS listings for the mechanism checks' tests (test_technique.cpp,
// test_technique_ran.cpp), in the format `cuobjdump -sass` prints.
#pragma once
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

namespace sass_listing {

// A listing of one function: each instruction on a line of its own, at addresses 0x0, 0x10,
// …, followed by the encoding line cuobjdump prints under it. "@Lnn" in an instruction
// stands for the address of instruction nn, so that branches can be written by index.
inline std::string listing(const std::string& name, const std::vector<std::string>& code, const std::string& arch = "sm_90") {
    std::string s = "\nFatbin elf code:\n================\narch = " + arch + "\ncode version = [1,8]\n\n\tcode for " + arch +
                    "\n\t\tFunction : " + name + "\n\t.headerflags\t@\"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n";
    for (size_t i = 0; i < code.size(); ++i) {
        std::string in = code[i];
        for (size_t p; (p = in.find("@L")) != std::string::npos;) {
            size_t e = p + 2;
            while (e < in.size() && isdigit(static_cast<unsigned char>(in[e]))) ++e;
            char addr[16];
            std::snprintf(addr, sizeof addr, "0x%zx", std::stoul(in.substr(p + 2, e - p - 2)) * 16);
            in.replace(p, e - p, addr);
        }
        char line[256];
        std::snprintf(line, sizeof line, "        /*%04zx*/                   %-48s /* 0x000fe40000000800 */\n", i * 16,
                      (in + " ;").c_str());
        s += line;
        s += "                                                                                  /* 0x000fc80000000f00 */\n";
    }
    return s;
}

// The tail every listing ends with: the exit and the branch to itself that pads the function.
inline std::vector<std::string> with_end(std::vector<std::string> code) {
    code.push_back("EXIT");
    code.push_back("BRA @L" + std::to_string(code.size()));
    return code;
}

}  // namespace sass_listing
