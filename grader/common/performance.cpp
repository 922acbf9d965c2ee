// SPDX-License-Identifier: MIT
#include "grader/common/performance.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace grader {

namespace {
Target one_target(const Performance& p, const Ceilings& c, double scale) {
    if (!(p.fraction > 0) || !(scale > 0)) throw std::invalid_argument("target_for: fraction and scale must be positive");
    Target t;
    char buf[96];
    if (!p.baseline.empty()) {
        if (!(p.baseline_ms > 0)) throw std::invalid_argument("target_for: baseline '" + p.baseline + "' has no time");
        t.floor_ms = p.baseline_ms;
        t.in_flops = p.flops > 0;
        t.ceiling_figure = t.figure(p, p.baseline_ms);
        std::snprintf(buf, sizeof buf, "%s %.0f %s", p.baseline.c_str(), t.ceiling_figure, t.unit());
    } else {
        const double copy = c.get(ceiling::copy_gbs), fma = c.get(ceiling::fma_gflops);
        if (!(copy > 0) || !(fma > 0)) throw std::invalid_argument("target_for: ceilings not measured");
        double mem_ms = p.bytes / (copy * 1e6);
        double fma_ms = p.flops / (fma * 1e6);
        t.in_flops = fma_ms > mem_ms;
        t.floor_ms = std::max(mem_ms, fma_ms);
        t.ceiling_figure = t.figure(p, t.floor_ms);
        if (t.in_flops) std::snprintf(buf, sizeof buf, "FP32 FMA peak %.0f GFLOP/s", fma);
        else if (p.flops > 0) std::snprintf(buf, sizeof buf, "roofline %.0f GB/s", t.ceiling_figure);
        else std::snprintf(buf, sizeof buf, "copy %.0f GB/s", copy);
    }
    t.ceiling = buf;
    t.fraction = p.fraction;
    t.required_ms = t.floor_ms / (p.fraction * scale);
    return t;
}
}  // namespace

Target target_for(const Performance& p, const Ceilings& c, double scale) {
    Target t = one_target(p, c, scale);
    for (const Performance& a : p.alternatives) {
        const Target u = one_target(a, c, scale);
        if (u.required_ms > t.required_ms) t = u;
    }
    return t;
}

bool impossible(const Performance& p, const Ceilings& c, double l2_bytes, double ms) {
    const double dram = c.has(ceiling::dram_gbs) ? c.get(ceiling::dram_gbs) : 0;
    const double fma = c.has(ceiling::fma_gflops) ? c.get(ceiling::fma_gflops) : 0;
    double dram_bytes = p.bytes - l2_bytes;  // writes can still sit in L2 when the timer stops
    if (dram > 0 && dram_bytes > 0 && ms < dram_bytes / (1.05 * dram * 1e6)) return true;
    // Where the run measured the tensor peak (lesson 09), work may run on the tensor cores:
    // its flops are bounded by that peak, with room for instructions faster than the mma.sync
    // it measures (wgmma on Hopper), rather than by the FP32 FMA peak.
    const double tensor = c.has(ceiling::tensor_fp16_gflops) ? kTensorPeakRoom * c.get(ceiling::tensor_fp16_gflops) : 0;
    const double flops_peak = std::max(1.25 * fma, tensor);
    if (flops_peak > 0 && p.flops > 0 && ms < p.flops / (flops_peak * 1e6)) return true;
    return false;
}

}  // namespace grader
