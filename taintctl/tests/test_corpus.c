// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_corpus.c - real third-party oops text against expected.tsv.
 *
 * Reads $TAINT_CORPUS_DIR/expected.tsv at run time (default
 * taintctl/tests/corpus/oops in the repository) and scans every
 * data file of the corpus with the streaming scanner, three ways (read()
 * into the scanner, and feed() in 1-byte and 4093-byte pieces).  One test
 * per corpus file checks that the hits are exactly the expected rows:
 *   - every row of format fixed/verbose/not-tainted is found at its line,
 *     with the same field text, format and letters, and the same mask
 *     unless the mask column is '?';
 *   - rows of format "prose" (documentation quoting the markers) must NOT
 *     be reported: the scanner skips markers directly preceded by a quote;
 *   - no hit exists that is not in expected.tsv.
 * It also checks the flag descriptions against the table of
 * linux-doc-admin-guide-tainted-kernels.rst.
 * If the corpus directory is absent the whole program is skipped (TAP
 * "1..0 # SKIP"), not failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

struct row {
	char *file;
	unsigned long line;
	char *field;
	char *letters;
	char *mask;
	char *format;
	bool matched;
};

struct hit {
	unsigned long line;
	char text[TAINT_TEXT_MAX + 1];
	char letters[TAINT_KNOWN_FLAGS + 1];
	uint64_t mask;
	bool tainted;
	enum taint_format format;
};

struct hits {
	struct hit *v;
	size_t n, cap;
};

static const char *corpus_dir;
/* reused by every scan (no leak when a failed assertion longjmps out) */
static struct hits hits;
static struct row *rows;
static size_t nrows;

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

static int load_expected(void)
{
	char path[4096], *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t n;
	FILE *fp;
	bool header = true;

	snprintf(path, sizeof(path), "%s/expected.tsv", corpus_dir);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while ((n = getline(&line, &cap, fp)) > 0) {
		char *col[7] = { 0 }, *p = line, *save = NULL;
		int c = 0;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (header) {
			header = false;
			continue;
		}
		/* strsep keeps empty columns (letters of Not tainted) */
		while (c < 7 && (col[c] = strsep(&p, "\t")) != NULL)
			c++;
		(void)save;
		if (c < 6) {
			fprintf(stderr, "# expected.tsv: bad row '%s'\n", line);
			free(line);
			fclose(fp);
			return -EINVAL;
		}
		if (nrows == alloc) {
			alloc = alloc ? alloc * 2 : 128;
			rows = realloc(rows, alloc * sizeof(*rows));
			if (!rows)
				abort();
		}
		rows[nrows].file = strdup(col[0]);
		rows[nrows].line = strtoul(col[1], NULL, 10);
		rows[nrows].field = strdup(col[2]);
		rows[nrows].letters = strdup(col[3]);
		rows[nrows].mask = strdup(col[4]);
		rows[nrows].format = strdup(col[5]);
		rows[nrows].matched = false;
		nrows++;
	}
	free(line);
	fclose(fp);
	return 0;
}

static int collect(const struct taint_hit *h, void *arg)
{
	struct hits *hs = arg;
	struct hit *x;

	if (hs->n == hs->cap) {
		hs->cap = hs->cap ? hs->cap * 2 : 16;
		hs->v = realloc(hs->v, hs->cap * sizeof(*hs->v));
		if (!hs->v)
			abort();
	}
	x = &hs->v[hs->n++];
	x->line = (unsigned long)h->line;
	memcpy(x->text, h->field->text, h->field->text_len + 1);
	taint_mask_letters(h->field->mask, x->letters, sizeof(x->letters));
	x->mask = h->field->mask;
	x->tainted = h->field->tainted;
	x->format = h->field->format;
	return 0;
}

static void scan_file(const char *name, int mode, struct hits *hs)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", corpus_dir, name);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	if (mode == 0) {
		assert_int_equal(taint_scan_fd(fd, collect, hs), 0);
	} else {
		struct taint_scanner *sc = taint_scanner_new();
		size_t piece = mode == 1 ? 1 : 4093;
		char buf[4093];
		ssize_t n;

		assert_non_null(sc);
		while ((n = read(fd, buf, piece)) > 0)
			assert_int_equal(taint_scanner_feed(sc, buf, (size_t)n,
							    collect, hs), 0);
		assert_int_equal(taint_scanner_finish(sc, collect, hs), 0);
		taint_scanner_free(sc);
	}
	close(fd);
}

static const char *format_name(enum taint_format f)
{
	return f == TAINT_FORMAT_NOT_TAINTED ? "not-tainted" :
	       f == TAINT_FORMAT_FIXED ? "fixed" : "verbose";
}

/* One corpus file: hits == expected rows, for each of three scan modes. */
static void test_file(void **state)
{
	const char *name = *state;

	for (int mode = 0; mode < 3; mode++) {
		struct hits hs;

		hits.n = 0;
		scan_file(name, mode, &hits);
		hs = hits;
		for (size_t i = 0; i < nrows; i++) {
			struct row *r = &rows[i];
			struct hit *x = NULL;

			if (strcmp(r->file, name) != 0)
				continue;
			for (size_t k = 0; k < hs.n; k++)
				if (hs.v[k].line == r->line)
					x = &hs.v[k];
			if (strcmp(r->format, "prose") == 0) {
				if (x)
					fail_msg("%s:%lu: prose reported as a field",
						 name, r->line);
				continue;
			}
			if (!x)
				fail_msg("%s:%lu: expected '%s', nothing found (mode %d)",
					 name, r->line, r->field, mode);
			x->line = 0;	/* matched */
			if (strcmp(x->text, r->field) != 0)
				fail_msg("%s:%lu: text '%s', expected '%s'",
					 name, r->line, x->text, r->field);
			if (strcmp(x->letters, r->letters) != 0)
				fail_msg("%s:%lu: letters '%s', expected '%s'",
					 name, r->line, x->letters, r->letters);
			if (strcmp(format_name(x->format), r->format) != 0)
				fail_msg("%s:%lu: format %s, expected %s",
					 name, r->line,
					 format_name(x->format), r->format);
			if (x->tainted !=
			    (strcmp(r->format, "not-tainted") != 0))
				fail_msg("%s:%lu: tainted flag wrong",
					 name, r->line);
			if (strcmp(r->mask, "?") != 0 &&
			    x->mask != strtoull(r->mask, NULL, 10))
				fail_msg("%s:%lu: mask %llu, expected %s",
					 name, r->line,
					 (unsigned long long)x->mask, r->mask);
		}
		for (size_t k = 0; k < hs.n; k++)
			if (hs.v[k].line)
				fail_msg("%s:%lu: unexpected hit '%s'", name,
					 hs.v[k].line, hs.v[k].text);
	}
}

/* expected.tsv covers 124 occurrences (SOURCES.md); all are in the data. */
static void test_expected_rows(void **state)
{
	size_t prose = 0;

	(void)state;
	assert_true(nrows >= 124);
	for (size_t i = 0; i < nrows; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", corpus_dir, rows[i].file);
		if (stat(path, &st))
			fail_msg("expected.tsv names missing file %s",
				 rows[i].file);
		prose += strcmp(rows[i].format, "prose") == 0;
	}
	assert_int_equal(prose, 2);
}

/* Descriptions of bits 0..18 = the doc table ("  6  _/U      64  ..."). */
static void test_doc_table(void **state)
{
	char path[4096], line[512];
	unsigned int found = 0;
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path),
		 "%s/linux-doc-admin-guide-tainted-kernels.rst", corpus_dir);
	fp = fopen(path, "r");
	if (!fp)
		skip_because("no %s in the corpus", path);
	while (fgets(line, sizeof(line), fp)) {
		unsigned int bit;
		char log[8];
		unsigned long number;
		int off = 0;

		if (sscanf(line, " %u %7s %lu %n", &bit, log, &number, &off) != 3 ||
		    !off || strlen(log) != 3 || log[1] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		assert_true(bit < TAINT_KNOWN_FLAGS);
		assert_int_equal(number, 1ul << bit);
		assert_int_equal(taint_flag_info(bit)->letter, log[2]);
		assert_string_equal(taint_flag_info(bit)->description,
				    line + off);
		found++;
	}
	fclose(fp);
	assert_int_equal(found, 19);
}

static int is_data_file(const struct dirent *d)
{
	return d->d_name[0] != '.' && strcmp(d->d_name, "SOURCES.md") != 0 &&
	       strcmp(d->d_name, "expected.tsv") != 0;
}

int main(void)
{
	struct dirent **names;
	struct CMUnitTest *tests;
	struct stat st;
	int n, ret;

	corpus_dir = getenv("TAINT_CORPUS_DIR");
	if (!corpus_dir || !*corpus_dir) {
		/* taintctl/ (make -C taintctl check), or the repository root */
		corpus_dir = stat("tests/corpus/oops", &st) == 0 ?
			     "tests/corpus/oops" :
			     "taintctl/tests/corpus/oops";
	}
	if (stat(corpus_dir, &st) || !S_ISDIR(st.st_mode)) {
		printf("1..0 # SKIP corpus directory not found: %s (set TAINT_CORPUS_DIR)\n",
		       corpus_dir);
		return 0;
	}
	if (load_expected()) {
		printf("1..1\nnot ok 1 - cannot read %s/expected.tsv\n",
		       corpus_dir);
		return 1;
	}
	n = scandir(corpus_dir, &names, is_data_file, alphasort);
	if (n < 0) {
		printf("1..1\nnot ok 1 - cannot list %s\n", corpus_dir);
		return 1;
	}
	tests = calloc((size_t)n + 2, sizeof(*tests));
	if (!tests)
		return 1;
	tests[0] = (struct CMUnitTest)cmocka_unit_test(test_expected_rows);
	tests[1] = (struct CMUnitTest)cmocka_unit_test(test_doc_table);
	for (int i = 0; i < n; i++) {
		tests[i + 2] = (struct CMUnitTest){
			.name = xstrdup(names[i]->d_name),
			.test_func = test_file,
			.initial_state = xstrdup(names[i]->d_name),
		};
	}
	ret = _cmocka_run_group_tests("corpus", tests, (size_t)n + 2, NULL,
				      NULL);
	for (int i = 0; i < n; i++) {
		free((void *)tests[i + 2].name);
		free(tests[i + 2].initial_state);
		free(names[i]);
	}
	free(names);
	free(tests);
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].file);
		free(rows[i].field);
		free(rows[i].letters);
		free(rows[i].mask);
		free(rows[i].format);
	}
	free(rows);
	free(hits.v);
	return ret;
}
