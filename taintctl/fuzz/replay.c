// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c - a main() for a fuzz target without libFuzzer: runs
 * LLVMFuzzerTestOneInput() once on each file named (a directory: each file
 * in it), so that make check replays the regression inputs and the corpus
 * with any compiler (gcc + ASan/UBSan).  Names each input on stderr before
 * running it: after a crash, the last name is the reproducer.  Exit 0
 * after all ran; the count goes to stdout.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grow.h"

static long replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *exact;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		uint8_t *nb = taint__grow(buf, len, &cap, 1, 65536);

		if (!nb) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = nb;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* exactly @len bytes, as libFuzzer gives: ASan sees a read past them */
	exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

static int replay(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return replay_file(path);
	while ((e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (replay(sub))
			ret = -1;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	int ret = 0;

	for (int i = 1; i < argc; i++)
		if (replay(argv[i]))
			ret = 1;
	printf("%ld\n", replayed);
	return ret;
}
