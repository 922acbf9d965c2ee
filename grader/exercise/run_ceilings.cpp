// SPDX-License-Identifier: MIT
#include "grader/exercise/run_ceilings.hpp"

#include "grader/common/session.hpp"
#include "grader/common/settings.hpp"
#include "grader/exercise/exercise.hpp"

namespace grader {

const Ceilings& ceilings() {
    static const Ceilings c = [] {
        const std::string& text = settings().ceilings;
        return text.empty() ? measure_ceilings(gpu(), lesson().ceilings) : Ceilings::from_text(text);
    }();
    return c;
}

}  // namespace grader
