// SPDX-License-Identifier: GPL-2.0
/*
 * ut_taint: test plumbing for the usertaint harness. Built against the
 * harness's kernel build tree and loaded only inside the QEMU guest; never
 * part of the series (upstream would not take it).
 *
 * Loading it taints the kernel O (out-of-tree). Its debugfs directory
 * /sys/kernel/debug/<module name>/ has:
 *
 *   warn     write anything: WARN from a function of this module, so the
 *            taint log's W event names this module (and, once unloaded,
 *            must name no code at all).
 *   run      write MS (at most an hour; 0 stops a run): for MS
 *            milliseconds, an hrtimer calls add_taint()
 *            every millisecond from hard-IRQ context and sends an NMI to
 *            its CPU with __apic_send_IPI_mask() (works in xAPIC and
 *            x2APIC mode), whose handler calls add_taint() too.
 *   calls    "irq=<n> nmi=<n>": add_taint() calls made from each context.
 *   set      write "<task|irq|nmi> <bit>": add_taint(<bit>) once, from the
 *            writing task, from an hrtimer (hard IRQ) or from an NMI sent
 *            to this CPU; the write returns once it has been called.
 *   record   write N: N rounds, each on a fresh test-local taint log, of
 *            recording from process context on this CPU, from an hrtimer
 *            (hard IRQ) on another CPU and from NMIs on both, at once; then
 *            every kept record is checked to be whole and the counts to
 *            add up. Read it for the result (see ut_record_show()).
 *
 * The same source builds a second module, ut_other, that the harness loads
 * after unloading ut_taint, in the memory ut_taint left.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "taint_log.h"	/* the kernel's internal header: -I$(srctree)/kernel */

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct dentry *dir;

/* ---- warn ------------------------------------------------------------ */

#ifdef UT_REBUILT
/*
 * The module rebuilt (guest/module/rebuilt): other code where the first
 * build had ut_warn_here(), so that a caller kept from the first build
 * would name this if the log took the reloaded module for the old one.
 */
static noinline __used void ut_rebuilt_code(void)
{
	int i;

	for (i = 0; i < 64; i++)
		pr_debug("%s: rebuilt %d\n", KBUILD_MODNAME, i);
}
#endif

static noinline void ut_warn_here(void)
{
	WARN(1, "%s: WARN on request\n", KBUILD_MODNAME);
}

static ssize_t ut_warn_write(struct file *f, const char __user *buf,
			     size_t len, loff_t *pos)
{
	ut_warn_here();
	return len;
}

static const struct file_operations ut_warn_fops = {
	.write = ut_warn_write,
};

/* ---- NMI plumbing ----------------------------------------------------- */

enum { UT_IDLE, UT_STRESS, UT_RECORD, UT_ONCE };
static atomic_t ut_mode = ATOMIC_INIT(UT_IDLE);
static atomic_t nmi_pending[NR_CPUS];
static atomic_t nmi_busy;
static atomic_t nmi_extra;
static atomic_t nmi_sent_any;	/* this module has sent an NMI */

static void ut_send_nmi(int cpu)
{
	atomic_set(&nmi_sent_any, 1);
	atomic_inc(&nmi_pending[cpu]);
	/*
	 * Not __apic_send_IPI_self(): in x2APIC mode that writes the SELF_IPI
	 * register, which takes fixed delivery only, so no NMI would arrive.
	 */
	__apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
}

static void ut_nmi_stress(void);
static void ut_nmi_record(void);
static void ut_nmi_once(void);

static int ut_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	int ret = NMI_HANDLED;

	atomic_inc(&nmi_busy);
	/*
	 * Only the NMIs this module sent, one per handler run: an NMI sent
	 * while another is being handled is latched and comes next. (Two
	 * sent before either is taken may merge into one: the round's end
	 * forgets what is left over, see ut_record_run().)
	 */
	if (!atomic_add_unless(&nmi_pending[smp_processor_id()], -1, 0)) {
		/*
		 * An NMI can come that no count says was sent (a round's end
		 * resets the counts while one is still latched; an earlier
		 * version saw about ten "unknown reason" NMIs a run on CPU 0).
		 * Nothing else sends NMIs in this guest: once this module has
		 * sent one, take them as ours and count them (extra_nmis in
		 * "record"), also one that a loaded host delivers after its
		 * test ended (the NMI boot saw one "unknown reason" so, under
		 * a debug kernel and a host building kernels).
		 */
		if (!atomic_read(&nmi_sent_any))
			ret = NMI_DONE;
		else
			atomic_inc(&nmi_extra);
	} else if (atomic_read(&ut_mode) == UT_STRESS)
		ut_nmi_stress();
	else if (atomic_read(&ut_mode) == UT_RECORD)
		ut_nmi_record();
	else if (atomic_read(&ut_mode) == UT_ONCE)
		ut_nmi_once();
	atomic_dec(&nmi_busy);
	return ret;
}

/* ---- run/calls: add_taint() on the real log from IRQ and NMI ---------- */

static const unsigned int irq_flags[] = {
	TAINT_CPU_OUT_OF_SPEC, TAINT_FIRMWARE_WORKAROUND, TAINT_AUX,
};

static const unsigned int nmi_flags[] = {
	TAINT_BAD_PAGE, TAINT_LIVEPATCH, TAINT_CRAP,
};

static struct hrtimer stress_timer;
static atomic_t ticks_left = ATOMIC_INIT(0);
static atomic_t irq_calls = ATOMIC_INIT(0);
static atomic_t nmi_calls = ATOMIC_INIT(0);

static void ut_nmi_stress(void)
{
	unsigned int n = atomic_inc_return(&nmi_calls);

	add_taint(nmi_flags[n % ARRAY_SIZE(nmi_flags)], LOCKDEP_STILL_OK);
}

static enum hrtimer_restart stress_timer_fn(struct hrtimer *timer)
{
	unsigned int n = atomic_inc_return(&irq_calls);

	add_taint(irq_flags[n % ARRAY_SIZE(irq_flags)], LOCKDEP_STILL_OK);
	ut_send_nmi(smp_processor_id());
	if (atomic_dec_return(&ticks_left) <= 0) {
		atomic_set(&ut_mode, UT_IDLE);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

static int ut_run_get(void *data, u64 *val)
{
	*val = atomic_read(&ticks_left);
	return 0;
}

static int ut_run_set(void *data, u64 ms)
{
	if (!ms) {	/* stop a run: the timer ends at its next tick */
		atomic_set(&ticks_left, 0);
		return 0;
	}
	if (ms > 3600 * MSEC_PER_SEC)
		return -EINVAL;
	if (atomic_cmpxchg(&ut_mode, UT_IDLE, UT_STRESS) != UT_IDLE)
		return -EBUSY;
	atomic_set(&ticks_left, ms);
	hrtimer_start(&stress_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ut_run_fops, ut_run_get, ut_run_set, "%llu\n");

static int ut_calls_show(struct seq_file *m, void *v)
{
	seq_printf(m, "irq=%d nmi=%d\n", atomic_read(&irq_calls),
		   atomic_read(&nmi_calls));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_calls);

/* ---- set: add_taint() once, from a chosen context ---------------------- */

static struct hrtimer once_timer;
static unsigned int once_flag;
static atomic_t once_done = ATOMIC_INIT(0);

static void ut_nmi_once(void)
{
	if (!atomic_read(&once_done)) {
		add_taint(once_flag, LOCKDEP_STILL_OK);
		atomic_set(&once_done, 1);
	}
}

static enum hrtimer_restart once_timer_fn(struct hrtimer *timer)
{
	add_taint(once_flag, LOCKDEP_STILL_OK);
	atomic_set(&once_done, 1);
	return HRTIMER_NORESTART;
}

static ssize_t ut_set_write(struct file *f, const char __user *ubuf,
			    size_t len, loff_t *pos)
{
	char buf[32], ctx[8];
	unsigned int bit;
	int i, err = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %u", ctx, &bit) != 2 || bit >= TAINT_FLAGS_COUNT)
		return -EINVAL;
	if (atomic_cmpxchg(&ut_mode, UT_IDLE, UT_ONCE) != UT_IDLE)
		return -EBUSY;
	once_flag = bit;
	atomic_set(&once_done, 0);
	if (!strcmp(ctx, "task")) {
		add_taint(bit, LOCKDEP_STILL_OK);
		atomic_set(&once_done, 1);
	} else if (!strcmp(ctx, "irq")) {
		hrtimer_start(&once_timer, ns_to_ktime(100 * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
	} else if (!strcmp(ctx, "nmi")) {
		preempt_disable();
		ut_send_nmi(smp_processor_id());
		preempt_enable();
	} else {
		err = -EINVAL;
	}
	/* Up to a second for the timer or the NMI to have called it. */
	for (i = 0; !err && !atomic_read(&once_done) && i < 1000; i++)
		msleep(1);
	if (!err && !atomic_read(&once_done))
		err = -ETIMEDOUT;
	hrtimer_cancel(&once_timer);
	atomic_set(&ut_mode, UT_IDLE);
	return err ? err : len;
}

static const struct file_operations ut_set_fops = {
	.write = ut_set_write,
};

/* ---- record: a test-local log, written from three contexts at once ---- */

/*
 * Each record carries a tag that says who made it: context (process, IRQ,
 * NMI) and a serial number. The first TAINT_FLAGS_COUNT calls of a round
 * are kernel events that each set a flag of their own first (as in the
 * kernel's log, one event per flag), the tag in the caller; later calls
 * are user requests that set nothing new, the tag in the reason: the
 * first TAINT_LOG_USER_MAX of them are kept, the rest counted as dropped.
 * A record mixed from two writers, or written in part, does not check out.
 */
enum { CTX_TASK, CTX_IRQ, CTX_NMI, CTX_N };
static const char *const ctx_name[CTX_N] = { "task", "irq", "nmi" };

static struct taint_log *rlog;
static atomic_t r_serial = ATOMIC_INIT(0);
static atomic_t r_calls[CTX_N];
static atomic_t r_overlap[CTX_N];	/* found an unpublished slot */
static atomic_t r_round_calls;
static atomic_t r_flag;			/* flags given out this round */
static atomic_t r_active;		/* the round is still running */
static struct hrtimer record_timer;
static int record_cpu, timer_cpu;

static struct ut_record_result {
	unsigned long rounds, calls[CTX_N], overlap[CTX_N];
	unsigned long kept, dropped, bad, lost;
} rres;

static unsigned long ut_tag(int ctx, unsigned int serial)
{
	return 0x5a000000UL | (ctx << 20) | (serial & 0xfffff);
}

static bool ut_tag_ok(unsigned long tag)
{
	return (tag & 0xff000000UL) == 0x5a000000UL &&
	       ((tag >> 20) & 0xf) < CTX_N;
}

static atomic_t r_torn;	/* published slots seen not filled in yet */

/*
 * Is any claimed slot of the test log still unpublished? A published one
 * must be whole already: one whose flags are still 0 counts in r_torn.
 */
static bool ut_in_flight(void)
{
	int i, n = min(atomic_read(&rlog->next), TAINT_LOG_EVENTS);
	bool busy = false;

	for (i = 0; i < n; i++) {
		if (!smp_load_acquire(&rlog->ev[i].ready))
			busy = true;
		else if (!READ_ONCE(rlog->ev[i].flags))
			atomic_inc(&r_torn);
	}
	return busy;
}

static void ut_record(int ctx)
{
	unsigned long tag = ut_tag(ctx, atomic_inc_return(&r_serial));
	int flag = atomic_inc_return(&r_flag) - 1;
	char reason[16];

	if (ut_in_flight())
		atomic_inc(&r_overlap[ctx]);
	atomic_inc(&r_calls[ctx]);
	atomic_inc(&r_round_calls);
	if (flag < TAINT_FLAGS_COUNT) {
		taint_log_record(rlog, TAINT_ORIGIN_KERNEL, BIT(flag),
				 BIT(flag), tag, NULL, NULL, 0);
		return;
	}
	snprintf(reason, sizeof(reason), "%lx", tag);
	taint_log_record(rlog, TAINT_ORIGIN_USER, BIT(TAINT_USER), 0, 0, NULL,
			 reason, strlen(reason));
}

static void ut_nmi_record(void)
{
	if (atomic_read(&r_active))
		ut_record(CTX_NMI);
}

static enum hrtimer_restart record_timer_fn(struct hrtimer *timer)
{
	if (!atomic_read(&r_active))
		return HRTIMER_NORESTART;
	ut_record(CTX_IRQ);
	ut_send_nmi(smp_processor_id());
	hrtimer_forward_now(timer, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void ut_start_timer(void *unused)
{
	hrtimer_start(&record_timer, ns_to_ktime(10 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The tag of a published slot if it is whole: a kernel event with its own
 * flag and its caller entry, or a user request with a reason entry of
 * its own and a tag not seen before in @tags; else 0.
 */
static unsigned long ut_slot_tag(const struct taint_event *ev,
				 unsigned long *tags, int *users)
{
	unsigned int d = ev->detail;
	char reason[16];
	unsigned long tag;
	int i;

	if (ev->origin == TAINT_ORIGIN_KERNEL) {
		tag = rlog->callers[d].addr;
		return d < TAINT_FLAGS_COUNT && ev->flags == BIT(d) &&
		       ev->new == BIT(d) && !ev->reason_len &&
		       !rlog->callers[d].module[0] && ut_tag_ok(tag) ? tag : 0;
	}
	if (ev->origin != TAINT_ORIGIN_USER || ev->flags != BIT(TAINT_USER) ||
	    ev->new || d >= TAINT_LOG_USER_MAX || !ev->reason_len ||
	    ev->reason_len >= sizeof(reason) || *users >= TAINT_LOG_USER_MAX)
		return 0;
	memcpy(reason, rlog->reasons[d].text, ev->reason_len);
	reason[ev->reason_len] = '\0';
	if (kstrtoul(reason, 16, &tag) || !ut_tag_ok(tag))
		return 0;
	for (i = 0; i < *users; i++)
		if (tags[i] == tag)
			return 0;
	tags[(*users)++] = tag;
	return tag;
}

/* Check a finished round: every kept record whole, counts add up. */
static void ut_check_round(void)
{
	int i, n = min(atomic_read(&rlog->next), TAINT_LOG_EVENTS);
	long calls = atomic_read(&r_round_calls);
	s64 dropped = atomic_read(&rlog->dropped);

	unsigned long tags[TAINT_LOG_USER_MAX];
	int users = 0;

	for (i = 0; i < n; i++) {
		const struct taint_event *ev = &rlog->ev[i];
		unsigned long tag = ut_slot_tag(ev, tags, &users);

		if (!smp_load_acquire(&ev->ready) || !tag ||
		    ev->comm[TASK_COMM_LEN - 1]) {
			if (rres.bad++ < 5)
				pr_err("%s: slot %d is not whole: tag %#lx flags %#x new %#x\n",
				       KBUILD_MODNAME, i, tag, ev->flags, ev->new);
		}
	}
	rres.kept += n;
	rres.dropped += dropped;
	/* Every call either took a slot or was counted as dropped. */
	if (n + dropped != calls)
		rres.lost += abs(calls - n - (long)dropped);
}

static int ut_record_run(unsigned long rounds)
{
	unsigned long r;
	int c, i;

	rlog = vzalloc(sizeof(*rlog));
	if (!rlog)
		return -ENOMEM;
	memset(&rres, 0, sizeof(rres));
	atomic_set(&ut_mode, UT_RECORD);
	for (r = 0; r < rounds; r++) {
		memset(rlog, 0, sizeof(*rlog));
		atomic_set(&r_round_calls, 0);
		atomic_set(&r_flag, 0);
		atomic_set(&r_active, 1);
		/* Process context here, an hrtimer on another CPU, NMIs on both. */
		preempt_disable();
		record_cpu = smp_processor_id();
		timer_cpu = cpumask_any_but(cpu_online_mask, record_cpu);
		if (timer_cpu < nr_cpu_ids)
			smp_call_function_single(timer_cpu, ut_start_timer,
						 NULL, 1);
		for (i = 0; i < TAINT_LOG_EVENTS; i++) {
			ut_send_nmi(smp_processor_id());
			ut_record(CTX_TASK);
			if (timer_cpu < nr_cpu_ids && i % 4 == 0)
				ut_send_nmi(timer_cpu);
		}
		preempt_enable();
		atomic_set(&r_active, 0);
		hrtimer_cancel(&record_timer);
		/*
		 * Let NMIs in flight land before the round is checked; what is
		 * still pending after 10 ms was merged with another NMI.
		 */
		for (c = 0; c < nr_cpu_ids; c++) {
			for (i = 0; i < 10000 && atomic_read(&nmi_pending[c]); i++)
				udelay(1);
			atomic_set(&nmi_pending[c], 0);
		}
		while (atomic_read(&nmi_busy))
			cpu_relax();
		ut_check_round();
		rres.rounds++;
		cond_resched();
		if (signal_pending(current))
			break;
	}
	rres.bad += atomic_xchg(&r_torn, 0);
	for (c = 0; c < CTX_N; c++) {
		rres.calls[c] = atomic_xchg(&r_calls[c], 0);
		rres.overlap[c] = atomic_xchg(&r_overlap[c], 0);
	}
	atomic_set(&ut_mode, UT_IDLE);
	vfree(rlog);
	rlog = NULL;
	return 0;
}

static ssize_t ut_record_write(struct file *f, const char __user *buf,
			       size_t len, loff_t *pos)
{
	unsigned long rounds;
	int err;

	err = kstrtoul_from_user(buf, len, 0, &rounds);
	if (err)
		return err;
	if (!rounds || rounds > 1000000)
		return -EINVAL;
	if (atomic_read(&ut_mode) != UT_IDLE)
		return -EBUSY;
	err = ut_record_run(rounds);
	return err ? err : len;
}

/*
 * "rounds=<n> cpus=<a>,<b> task=<calls>/<overlaps> irq=... nmi=...
 *  kept=<n> dropped=<n> bad=<n> lost=<n>": an overlap is a record that
 * began while another record's slot was claimed but not yet published.
 */
static int ut_record_show(struct seq_file *m, void *v)
{
	int c;

	seq_printf(m, "rounds=%lu cpus=%d,%d", rres.rounds, record_cpu,
		   timer_cpu < nr_cpu_ids ? timer_cpu : -1);
	for (c = 0; c < CTX_N; c++)
		seq_printf(m, " %s=%lu/%lu", ctx_name[c], rres.calls[c],
			   rres.overlap[c]);
	seq_printf(m, " kept=%lu dropped=%lu bad=%lu lost=%lu extra_nmis=%d\n",
		   rres.kept, rres.dropped, rres.bad, rres.lost,
		   atomic_read(&nmi_extra));
	return 0;
}

static int ut_record_open(struct inode *inode, struct file *file)
{
	return single_open(file, ut_record_show, NULL);
}

static const struct file_operations ut_record_fops = {
	.open = ut_record_open,
	.read = seq_read,
	.write = ut_record_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- module ------------------------------------------------------------ */

/*
 * init_flag=<bit>: add_taint(<bit>) from this module's init function, whose
 * code the kernel frees once it has run: the taint log keeps a caller in
 * memory that a module loaded later can take (the module scenario).
 */
static int init_flag = -1;
module_param(init_flag, int, 0400);

static int __init ut_taint_init(void)
{
	int err;

	if (init_flag >= 0 && init_flag < TAINT_FLAGS_COUNT)
		add_taint(init_flag, LOCKDEP_STILL_OK);
	hrtimer_init(&stress_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	stress_timer.function = stress_timer_fn;
	hrtimer_init(&record_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	record_timer.function = record_timer_fn;
	hrtimer_init(&once_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	once_timer.function = once_timer_fn;
	err = register_nmi_handler(NMI_LOCAL, ut_nmi_handler, 0,
				   KBUILD_MODNAME);
	if (err)
		return err;
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("warn", 0200, dir, NULL, &ut_warn_fops);
	debugfs_create_file_unsafe("run", 0600, dir, NULL, &ut_run_fops);
	debugfs_create_file("calls", 0400, dir, NULL, &ut_calls_fops);
	debugfs_create_file("record", 0600, dir, NULL, &ut_record_fops);
	debugfs_create_file("set", 0200, dir, NULL, &ut_set_fops);
	return 0;
}

static void __exit ut_taint_exit(void)
{
	debugfs_remove(dir);
	hrtimer_cancel(&stress_timer);
	hrtimer_cancel(&record_timer);
	hrtimer_cancel(&once_timer);
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}

module_init(ut_taint_init);
module_exit(ut_taint_exit);
MODULE_DESCRIPTION("usertaint harness: WARN, IRQ and NMI taint from a module");
MODULE_LICENSE("GPL");
