// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record_nobpf.c - taintctl record in a build without libbpf (RECORD=no,
 * taintctl-static): it says so (record.h's rec_bpf_open()).
 */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "record.h"

int rec_bpf_open(struct rec_bpf **b, uint64_t seen, const char **mode,
		 char *why, size_t why_size)
{
	(void)seen;
	*b = NULL;
	*mode = "none";
	snprintf(why, why_size,
		 "this taintctl was built without BPF support (libbpf)");
	return -ENOTSUP;
}

int rec_bpf_poll(struct rec_bpf *b, int timeout_ms, rec_bpf_fn fn, void *arg)
{
	(void)b, (void)timeout_ms, (void)fn, (void)arg;
	return -ENOTSUP;
}

uint64_t rec_bpf_lost(const struct rec_bpf *b)
{
	(void)b;
	return 0;
}

int rec_bpf_fd(const struct rec_bpf *b)
{
	(void)b;
	return -1;
}

void rec_bpf_close(struct rec_bpf *b)
{
	(void)b;
}
