// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_metrics.c - `taintctl metrics [--output FILE]`: the taint state in
 * the Prometheus text exposition format (0.0.4), for node_exporter's
 * textfile collector.
 *
 *   kernel_tainted                       gauge: the mask
 *   kernel_taint_flag{flag,name}         gauge 0|1: every known flag, and
 *                                        each set unknown bit (flag="bit40",
 *                                        name="")
 *   kernel_taint_flag_first_set_timestamp_seconds{flag,origin}
 *                                        gauge: utc= of the event that set a
 *                                        set flag first (none for utc=-)
 *   kernel_taint_log_dropped_total       counter: the log's dropped= count
 *                                        (only where the log can be read)
 *
 * Label values come from a fixed set (flag letters, bitN, flag names,
 * kernel|user): no reason, comm or pid, so the series count is bounded.
 * --output FILE is written by output_file.c: a regular file (or a new
 * name) is replaced atomically (a temporary file in FILE's directory whose
 * name does not end in .prom, which the collector skips; fsync(), rename(),
 * fsync() of the directory: the collector sees the old file or the new one,
 * never half of one); a FIFO or a character device is written through, a
 * symlink is never replaced itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* the flag label of @bit: its letter, or "bitN" */
static const char *flag_label(unsigned int bit, char *buf, size_t size)
{
	const struct taint_flag_info *fi = taint_flag_info(bit);

	if (fi)
		snprintf(buf, size, "%c", fi->letter);
	else
		snprintf(buf, size, "bit%u", bit);
	return buf;
}

static void write_metrics(FILE *f, uint64_t mask, const struct event_list *ev)
{
	static const char first_set[] =
		"kernel_taint_flag_first_set_timestamp_seconds";
	bool log_ok = !ev->absent && !ev->read_error;
	bool header = false;
	char label[16];

	family(f, "kernel_tainted", "gauge",
	       "Kernel taint mask, as /proc/sys/kernel/tainted reads (bit N is taint flag N).");
	fprintf(f, "kernel_tainted %" PRIu64 "\n", mask);

	family(f, "kernel_taint_flag", "gauge",
	       "Whether the kernel taint flag is set (1) or not (0); unknown bits only when set.");
	for (unsigned int bit = 0; bit < 64; bit++) {
		const struct taint_flag_info *fi = taint_flag_info(bit);
		bool set = mask & (UINT64_C(1) << bit);

		if (!fi && !set)
			continue;
		fprintf(f, "kernel_taint_flag{flag=\"%s\",name=\"%s\"} %d\n",
			flag_label(bit, label, sizeof(label)),
			fi ? fi->name : "", set);
	}

	for (unsigned int bit = 0; log_ok && bit < 64; bit++) {
		const struct taint_event *first = NULL;
		int64_t secs;
		long i;

		if (!(mask & (UINT64_C(1) << bit)))
			continue;
		i = taint_log_first_event(ev->log, bit);
		if (i >= 0)
			first = taint_log_get_event(ev->log, (size_t)i);
		if (!first || taint_utc_seconds(first->utc, &secs))
			continue;
		if (!header)
			family(f, first_set, "gauge",
			       "Wall time (seconds since the epoch) of the taint_log event that first set the flag, and its origin.");
		header = true;
		fprintf(f, "%s{flag=\"%s\",origin=\"%s\"} %" PRId64 "\n",
			first_set, flag_label(bit, label, sizeof(label)),
			first->origin == TAINT_ORIGIN_KERNEL ?
			"kernel" : "user", secs);
	}

	if (log_ok) {
		family(f, "kernel_taint_log_dropped_total", "counter",
		       "User taint requests that the full taint log counted but did not keep.");
		fprintf(f, "kernel_taint_log_dropped_total %" PRIu64 "\n",
			taint_log_get_dropped(ev->log));
	}
}

static const struct option metrics_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static int metrics_run(int argc, char **argv)
{
	const char *output = NULL;
	struct event_list ev;
	char *buf = NULL;
	size_t len = 0;
	uint64_t mask;
	FILE *f;
	int c, rc, erc;

	while ((c = cli_getopt(argc, argv, &cmd_metrics)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cli_no_operand(argc, argv, &cmd_metrics))
		return EXIT_USAGE;
	if (cli.json) {
		cli_error("metrics has no JSON output: it writes the Prometheus text format (taintctl status --json has the same state)");
		return EXIT_USAGE;
	}
	rc = read_kernel_mask(&mask);
	if (rc)
		return rc;
	erc = events_load(&ev, true);
	if (erc && !ev.malformed) {
		events_free(&ev);
		return erc;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		events_free(&ev);
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	write_metrics(f, mask, &ev);
	events_free(&ev);
	if (fclose(f)) {
		free(buf);
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (output)
		rc = output_file_write(output, buf, len);
	else if (fwrite(buf, 1, len, stdout) != len)
		rc = cli_write_error(errno);
	free(buf);
	return rc ? rc : erc;
}

const struct taintctl_cmd cmd_metrics = {
	.name = "metrics",
	.run = metrics_run,
	.options = metrics_options,
	.shortopts = "o:",
	.usage =
"Usage:\n"
" taintctl [options] metrics [--output FILE]\n"
"\n"
"Print the taint state in the Prometheus text format, for node_exporter's\n"
"textfile collector: kernel_tainted, kernel_taint_flag{flag,name} (each\n"
"known flag, each set unknown bit),\n"
"kernel_taint_flag_first_set_timestamp_seconds{flag,origin} (wall time of\n"
"the event that set a flag first) and kernel_taint_log_dropped_total.\n"
"No reason, comm or pid in labels.\n"
"\n"
"Options:\n",
	.json = false,
	.root = true,
	.usage_options =
" -o, --output FILE  write FILE instead of standard output; name it *.prom\n"
"                    for the textfile collector.  A regular file (or a new\n"
"                    name) is replaced atomically (a temporary file in its\n"
"                    directory, fsync, rename; its mode kept); a symlink's\n"
"                    regular target is replaced, never the link; a FIFO or\n"
"                    a character device (/dev/stdout) is written through;\n"
"                    a directory, a block device or a dangling link: exit 2\n",
};
