// SPDX-License-Identifier: MIT
// A contract of one function, as a lesson's contract header declares the student's launchers.
#pragma once

void student_launcher(float* data, int n);
