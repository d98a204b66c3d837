// SPDX-License-Identifier: GPL-2.0
/*
 * ut_record: the out-of-tree test module of taintctl record's guests,
 * built against a Debian kernel's linux-headers package and loaded only
 * inside QEMU.  Loading it sets O (out-of-tree) and, unsigned, E; writing
 * to /sys/module/ut_record/parameters/warn WARNs from ut_record_warn_here(),
 * a function of this module, so the recorder's W event names it as the
 * caller and the module.
 */
#include <linux/bug.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static noinline void ut_record_warn_here(void)
{
	WARN(1, "ut_record: a WARN for taintctl record\n");
}

static int warn_set(const char *val, const struct kernel_param *kp)
{
	ut_record_warn_here();
	return 0;
}

static const struct kernel_param_ops warn_ops = {
	.set = warn_set,
};
module_param_cb(warn, &warn_ops, NULL, 0200);
MODULE_PARM_DESC(warn, "write anything: WARN from this module");

static int __init ut_record_init(void)
{
	return 0;
}

static void __exit ut_record_exit(void)
{
}

module_init(ut_record_init);
module_exit(ut_record_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("taintctl record's test module: O, E and a WARN");
