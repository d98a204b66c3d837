/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * encoding_internal.h - the text encodings of logs written by other tools
 * (encoding.c): a UTF-8 byte order mark, UTF-16 (PowerShell's >,
 * Notepad's "Unicode"), UTF-32.  Not installed.
 */
#ifndef TAINT_ENCODING_INTERNAL_H
#define TAINT_ENCODING_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

enum taint__encoding {
	TAINT__ENC_PLAIN,	/* bytes as they are: ASCII, UTF-8, Latin-1 */
	TAINT__ENC_UTF8_BOM,	/* UTF-8 after a byte order mark */
	TAINT__ENC_UTF16LE,	/* read: transcoded to UTF-8 */
	TAINT__ENC_UTF16BE,
	TAINT__ENC_UTF32LE,	/* refused */
	TAINT__ENC_UTF32BE,
};

/* the bytes taint__encoding_detect() needs to decide, when there are more */
#define TAINT__ENC_DECIDE 8
/* the bytes it looks at for UTF-16 or UTF-32 without a byte order mark */
#define TAINT__ENC_WINDOW 64

/*
 * taint__encoding_detect() - the encoding the first @n bytes of a text
 * show.  A byte order mark decides (EF BB BF, FF FE, FE FF, FF FE 00 00,
 * 00 00 FE FF; *@bom is its length, 0 without one); without one, UTF-16
 * is text of which 3 in 4 of the first code units (up to TAINT__ENC_WINDOW
 * bytes) are ASCII or Latin-1 characters: LE "T\0a\0", BE "\0T\0a" (no
 * byte of plain text is NUL); UTF-32 the same with three NULs (the BMP:
 * two).  *@undecided: fewer than TAINT__ENC_DECIDE bytes that more bytes
 * could still make another encoding (read more if more may come; the
 * answer is what these bytes show).
 */
enum taint__encoding taint__encoding_detect(const void *p, size_t n,
					    size_t *bom, bool *undecided);

/* "UTF-16LE", "UTF-32BE", ... */
const char *taint__encoding_name(enum taint__encoding e);

/*
 * taint__utf16_decode() - UTF-16 (@be: big-endian) at in[*@ip..@in_len) to
 * UTF-8 at out[*@op..@cap), whole characters only, as many as fit (one
 * takes 1 to 4 bytes); *@ip and *@op advance.  A lone surrogate becomes
 * U+FFFD.  Without @final it stops before a code unit or a surrogate pair
 * that is not complete in the input; with @final (no more input comes)
 * such an end becomes U+FFFD.  Returns the characters written.
 */
size_t taint__utf16_decode(bool be, const unsigned char *in, size_t in_len,
			   size_t *ip, char *out, size_t cap, size_t *op,
			   bool final);

#endif
