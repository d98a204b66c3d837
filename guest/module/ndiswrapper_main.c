// SPDX-License-Identifier: GPL-2.0
/*
 * The same module as ut_taint, under the name ndiswrapper: the module
 * loader sets P for a module of that name (kernel/module/main.c).
 */
#include "ut_taint.c"
