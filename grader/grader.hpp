// SPDX-License-Identifier: MIT
/// @file
/// @brief Everything a lesson's grader file includes.
#pragma once
#include "grader/call.hpp"
#include "grader/compare.hpp"
#include "grader/cuda_check.cuh"
#include "grader/device_buffer.cuh"
#include "grader/device_compare.cuh"
#include "grader/device_inputs.cuh"
#include "grader/device_random.cuh"
#include "grader/exercise.hpp"
#include "grader/host_buffer.hpp"
#include "grader/inputs.hpp"
#include "grader/performance.hpp"
#include "grader/random.hpp"
#include "grader/session.hpp"
#include "grader/table.hpp"
#include "grader/teaching_table.hpp"
#include "grader/timing.cuh"
