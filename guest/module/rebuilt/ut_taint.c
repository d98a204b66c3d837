// SPDX-License-Identifier: GPL-2.0
/* ut_taint, rebuilt with other code: see ../ut_taint.c, UT_REBUILT. */
#include "../ut_taint.c"
