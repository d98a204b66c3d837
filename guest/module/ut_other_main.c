// SPDX-License-Identifier: GPL-2.0
/* The same module as ut_taint, under the name ut_other. */
#include "ut_taint.c"
