// SPDX-License-Identifier: MIT
/// @file
/// @brief Everything a lesson's grader file includes.
#pragma once
#include "grader/common/cuda_check.cuh"
#include "grader/common/performance.hpp"
#include "grader/common/random.hpp"
#include "grader/common/session.hpp"
#include "grader/common/timing.cuh"
#include "grader/exercise/call.hpp"
#include "grader/exercise/compare.hpp"
#include "grader/exercise/device_buffer.cuh"
#include "grader/exercise/device_compare.cuh"
#include "grader/exercise/device_inputs.cuh"
#include "grader/exercise/device_random.cuh"
#include "grader/exercise/exercise.hpp"
#include "grader/exercise/host_buffer.hpp"
#include "grader/exercise/inputs.hpp"
#include "grader/exercise/table.hpp"
#include "grader/exercise/teaching_table.hpp"
