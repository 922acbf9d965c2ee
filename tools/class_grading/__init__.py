# SPDX-License-Identifier: MIT
"""Grading a whole class of submissions: the modules behind tools/grade_class.py.

  submissions  find the class's entries (folders, .zip, .tar.gz) and stage a safe copy of each
  course       what the course grades: its lessons, their kernel files, its revision (asked of Meson)
  sandbox      running the build and the tests of one submission inside bubblewrap
  grading      one submission from copy to record; the class: builds in parallel, tests one per GPU
  verdicts     a record's verdict and points per exercise (pure functions: tested without a GPU)
  outputs      gradebook.csv, junit/, gradescope/ and the report (html_report) from the records
  slurm        the job-array script and the merge of its tasks' results (`collect`)

docs/class_grading.md is the instructor's page; standard library only."""
